// What must be closed before the process exits (the embedded database). The built server bundle registers
// here and scripts/serve.ts, another module instance, runs them on SIGTERM: so the list lives on globalThis.
const HOOKS = Symbol.for('kirana.shutdown');

type ShutdownHook = () => Promise<void>;

function hooks(): Set<ShutdownHook> {
  const holder = globalThis as typeof globalThis & { [HOOKS]?: Set<ShutdownHook> };
  holder[HOOKS] ??= new Set();
  return holder[HOOKS];
}

/** Registers a closer; returns its removal. */
export function onShutdown(hook: ShutdownHook): () => void {
  hooks().add(hook);
  return () => hooks().delete(hook);
}

/** Runs every closer once, together; a failing one is reported and does not stop the others. */
export async function runShutdownHooks(log: (message: string) => void): Promise<void> {
  const all = [...hooks()];
  hooks().clear();
  const results = await Promise.allSettled(all.map((hook) => hook()));
  for (const result of results) {
    if (result.status === 'rejected') log(`could not close cleanly: ${String(result.reason)}`);
  }
}
