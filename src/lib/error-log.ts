// Server error logging that a flood cannot drown: one damaged table wrote 12,561 identical lines in a minute.
// The first occurrence of an error is logged in full; repeats within a minute are counted and reported as
// one line at the end of that minute (then again each minute while they go on).

export const REPEAT_WINDOW_MS = 60_000;
/** Beyond this many distinct errors in one window, they are logged as they come rather than remembered. */
const MAX_TRACKED = 500;

export interface ErrorLogOptions {
  write?: (...parts: unknown[]) => void;
  windowMs?: number;
}

/** Errors are the same when their kind, message and place (the top frame of the stack) are. */
function keyOf(context: string, error: unknown): string {
  if (!(error instanceof Error)) return `${context}\n${String(error)}`;
  const cause = error.cause instanceof Error ? `\n${error.cause.name}: ${error.cause.message}` : '';
  const place = (error.stack ?? '').split('\n')[1] ?? '';
  return `${context}\n${error.name}: ${error.message}${cause}\n${place}`;
}

export function createErrorLog({ write = console.error, windowMs = REPEAT_WINDOW_MS }: ErrorLogOptions = {}) {
  const repeats = new Map<string, { count: number; timer: ReturnType<typeof setTimeout> }>();

  const closeWindow = (key: string, context: string, summary: string) => {
    const entry = repeats.get(key);
    if (!entry) return;
    if (entry.count === 0) {
      repeats.delete(key);
      return;
    }
    write(`${context} … the error "${summary}" repeated ${entry.count} times in the last ${windowMs / 1000} s`);
    entry.count = 0;
    entry.timer = setTimeout(() => closeWindow(key, context, summary), windowMs);
    entry.timer.unref?.();
  };

  /** Logs `error` under `context` (e.g. '[api]'), unless the same error was logged within the window. */
  return (context: string, error: unknown): void => {
    const key = keyOf(context, error);
    const entry = repeats.get(key);
    if (entry) {
      entry.count++;
      return;
    }
    write(context, error);
    if (repeats.size >= MAX_TRACKED) return;
    const summary = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0] ?? '';
    const timer = setTimeout(() => closeWindow(key, context, summary.slice(0, 200)), windowMs);
    timer.unref?.();
    repeats.set(key, { count: 0, timer });
  };
}

/** The process's error log, shared by the API and the page renderer. */
export const logServerError = createErrorLog();
