// Whether the embedded API can serve (/readyz): its database open, migrated and answering. The built server bundle
// registers the check (src/server/runtime.ts) and scripts/serve.ts, another module instance, asks it: so, like the
// shutdown hooks, it lives on globalThis.
const PROBE = Symbol.for('kirana.readiness');

/** Resolves when the database answers; rejects with the reason it does not. */
type ReadinessProbe = () => Promise<void>;

type Holder = typeof globalThis & { [PROBE]?: ReadinessProbe };

/** A dead server whose packets vanish must not hold the balancer's check longer than it waits. */
const PROBE_TIMEOUT_MS = 2_000;

export function setReadinessProbe(probe: ReadinessProbe): void {
  (globalThis as Holder)[PROBE] = probe;
}

let inFlight: Promise<true | string> | undefined;

/**
 * true when the API is ready, else why not ('starting' before the API's code is loaded). Checks made meanwhile share
 * the one in flight, so a burst of health checks costs the database one `select 1`.
 */
export function checkReadiness(): Promise<true | string> {
  const probe = (globalThis as Holder)[PROBE];
  if (!probe) return Promise.resolve('starting');
  inFlight ??= new Promise<true | string>((resolve) => {
    const timer = setTimeout(() => resolve(`the database did not answer within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS);
    probe().then(
      () => resolve(true),
      (error: unknown) => resolve(error instanceof Error ? error.message : String(error)),
    ).finally(() => clearTimeout(timer));
  }).finally(() => (inFlight = undefined));
  return inFlight;
}
