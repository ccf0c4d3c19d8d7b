// Graceful shutdown of a shop process on SIGTERM or SIGINT: stop accepting connections, let the requests in
// flight finish (at most SHUTDOWN_GRACE_MS), close the database (PGlite flushes, the pg pool ends), exit 0.
import type http from 'node:http';
import net from 'node:net';
import { runShutdownHooks } from '../../src/server/shutdown-hooks.ts';

export const SHUTDOWN_GRACE_MS = 10_000;
/** After the signal, the listener closes once no connection has arrived for QUIET_MS, or after this long. */
const ACCEPT_AFTER_SIGNAL_MS = 1_000;
const QUIET_MS = 50;

export interface ShutdownOptions {
  log?: (message: string) => void;
  graceMs?: number;
  /** Closers of this process besides those registered through src/server/shutdown-hooks.ts. */
  close?: () => Promise<void>;
}

/**
 * Stops the server once every request in flight has been answered, or when the grace time is over. Call
 * before requests arrive: it follows every answer.
 */
export function drainer(server: http.Server, graceMs: number): () => Promise<'drained' | 'timed out'> {
  let draining = false;
  let lastConnection = 0;
  server.on('connection', () => (lastConnection = Date.now()));
  const answering = new Set<http.ServerResponse>();
  server.on('request', (_req, res) => {
    // Answered, then its connection closed: the client learns not to send more on it.
    if (draining) res.setHeader('Connection', 'close');
    answering.add(res);
    res.once('close', () => answering.delete(res));
  });
  return () =>
    new Promise((resolve) => {
      draining = true;
      for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve('timed out');
      }, graceMs);
      // Stop listening once connections stop arriving (at most ACCEPT_AFTER_SIGNAL_MS): closing the listener
      // resets every connection still waiting in the kernel's queue, and a client that connected just before the
      // signal may be one of them. What arrives meanwhile is answered with `Connection: close`. Idle keep-alive
      // connections are not dropped as http.Server#close does: a request may be on its way on one. They close
      // after their next answer, or when the keep-alive timeout (5 s) ends them.
      const started = Date.now();
      const closeWhenQuiet = () => {
        const now = Date.now();
        const quietFor = now - lastConnection;
        if (quietFor < QUIET_MS && now - started < ACCEPT_AFTER_SIGNAL_MS) {
          setTimeout(closeWhenQuiet, QUIET_MS - quietFor);
          return;
        }
        net.Server.prototype.close.call(server, () => {
          clearTimeout(timer);
          resolve('drained');
        });
      };
      setImmediate(closeWhenQuiet);
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
