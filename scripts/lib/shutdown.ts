// Graceful shutdown of a shop process on SIGTERM or SIGINT: stop accepting connections, let the requests in
// flight finish (at most SHUTDOWN_GRACE_MS), close the database (PGlite flushes, the pg pool ends), exit 0.
import type http from 'node:http';
import { runShutdownHooks } from '../../src/server/shutdown-hooks.ts';

export const SHUTDOWN_GRACE_MS = 10_000;

export interface ShutdownOptions {
  log?: (message: string) => void;
  graceMs?: number;
  /** Closers of this process besides those registered through src/server/shutdown-hooks.ts. */
  close?: () => Promise<void>;
}

/**
 * Stops the server once every request in flight has been answered, or when the grace time is over. Call
 * before requests arrive: it follows every answer, so a keep-alive connection closes as soon as it is idle.
 */
export function drainer(server: http.Server, graceMs: number): () => Promise<'drained' | 'timed out'> {
  let draining = false;
  server.on('request', (_req, res) => {
    // A request that arrives on an open connection during the drain is answered, and its connection closed.
    if (draining) res.setHeader('Connection', 'close');
    res.once('finish', () => draining && setImmediate(() => server.closeIdleConnections()));
  });
  return () =>
    new Promise((resolve) => {
      draining = true;
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve('timed out');
      }, graceMs);
      server.close(() => {
        clearTimeout(timer);
        resolve('drained');
      });
      server.closeIdleConnections();
    });
}

export function installGracefulShutdown(server: http.Server, options: ShutdownOptions = {}): void {
  const log = options.log ?? ((message: string) => console.log(`[kirana] ${message}`));
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  const drain = drainer(server, graceMs);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: no new connections; finishing the requests in flight (at most ${graceMs / 1000} s)…`);
    if ((await drain()) === 'timed out') log('requests still in flight after the grace time were cut');
    await options.close?.().catch((error: unknown) => log(`could not close cleanly: ${String(error)}`));
    await runShutdownHooks(log);
    log('database closed; stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (s) => void stop(s));
}
