// Things to undo when the bench ends, however it ends: normally, on an error, on Ctrl-C or SIGTERM.
type Task = { name: string; run: () => Promise<void> | void; sync?: () => void };

const tasks: Task[] = [];
let installed = false;
let running: Promise<void> | undefined;

/** Registers a clean-up step (run last-in, first-out). `sync` is the fallback used if the process exits abruptly. Returns an unregister function. */
export function onCleanup(name: string, run: () => Promise<void> | void, sync?: () => void): () => void {
  install();
  const task: Task = { name, run, sync };
  tasks.push(task);
  return () => {
    const i = tasks.indexOf(task);
    if (i >= 0) tasks.splice(i, 1);
  };
}

/** Runs every registered step once, newest first; errors are reported, never thrown. */
export function runCleanup(): Promise<void> {
  running ??= (async () => {
    while (tasks.length) {
      const task = tasks.pop()!;
      try {
        await task.run();
      } catch (error) {
        console.error(`[bench] clean-up "${task.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return running;
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.on(signal, () => {
      console.error(`\n[bench] ${signal}: stopping the server and cleaning up…`);
      const hardStop = setTimeout(() => process.exit(code), 15_000);
      hardStop.unref();
      void runCleanup().finally(() => process.exit(code));
    });
  }
  process.on('exit', () => {
    for (const task of tasks.splice(0).reverse()) {
      try {
        task.sync?.();
      } catch {
        // Exiting anyway.
      }
    }
  });
}
