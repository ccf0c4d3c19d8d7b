// A task each shop process runs now and then (payment expiry, the issue-photo sweep): one run at a time, a failed run
// reported and the next one trying again, the timer never keeping the process alive.

/** Runs `task` now and every `intervalMs`; returns the stop, which waits for a run in progress. */
export function startRepeatingTask(task: () => Promise<unknown>, intervalMs: number, logError: (error: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= task()
      .catch(logError)
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
