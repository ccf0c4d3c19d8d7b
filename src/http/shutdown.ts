// Graceful shutdown of a shop process on SIGTERM or SIGINT: /readyz turns 503 at once; on SIGTERM the listener still
// accepts for SHUTDOWN_GRACE_SECONDS (the settings) so that a load balancer learns from /readyz to stop sending; then it
// stops accepting, the requests in flight finish (at most SHUTDOWN_GRACE_MS), the database closes (PGlite flushes, the
// pg pool ends), and the process exits 0.
import type http from 'node:http';
import net from 'node:net';

export const SHUTDOWN_GRACE_MS = 10_000;
/** After the signal, the listener closes once no connection has arrived for QUIET_MS, or after this long. */
const ACCEPT_AFTER_SIGNAL_MS = 1_000;
const QUIET_MS = 50;

export interface ShutdownOptions {
  log?: (message: string) => void;
  graceMs?: number;
  /** On SIGTERM, how long the listener still accepts after /readyz turned 503 (SHUTDOWN_GRACE_SECONDS). */
  announceMs?: number;
  /** Called at the signal, before anything else: /readyz answers 503 from then on. */
  onDraining?: () => void;
  /** Closes what the process holds (its database: PGlite flushes, the pg pool ends) once the requests are answered. */
  close?: () => Promise<void>;
}

/**
 * Stops the server once every request in flight has been answered, or when the grace time is over. Call
 * before requests arrive: it follows every answer.
 */
export function drainer(server: http.Server, graceMs: number): (announceMs?: number) => Promise<'drained' | 'timed out'> {
  let draining = false;
  let lastConnection = 0;
  /** Kept-alive connections whose last request is answered and no next one has come, with when they went idle. */
  const idle = new Map<net.Socket, number>();
  /** Ends `socket` once it has been idle IDLE_BEFORE_END_MS, unless a request came meanwhile (it closes after that). */
  const endWhenIdle = (socket: net.Socket, since: number) =>
    setTimeout(() => idle.get(socket) === since && endGently(socket), Math.max(0, since + IDLE_BEFORE_END_MS - Date.now())).unref();
  server.on('connection', (socket: net.Socket) => {
    lastConnection = Date.now();
    socket.once('close', () => idle.delete(socket));
  });
  const answering = new Set<http.ServerResponse>();
  // Before the shop's handler, which may answer at once (a health check, a refusal).
  server.prependListener('request', (req, res) => {
    const socket = req.socket;
    idle.delete(socket);
    // Answered, then its connection closed: the client learns not to send more on it.
    if (draining) res.setHeader('Connection', 'close');
    answering.add(res);
    res.once('close', () => answering.delete(res));
    res.once('finish', () => {
      if (socket.destroyed || !res.shouldKeepAlive) return;
      const since = Date.now();
      idle.set(socket, since);
      // Answered with keep-alive (its head left before the signal): ended too once idle during the drain.
      if (draining) endWhenIdle(socket, since);
    });
  });
  return (announceMs = 0) =>
    new Promise((resolve) => {
      draining = true;
      for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
      // Idle kept-alive connections are ended cleanly (a FIN, never a reset) once idle IDLE_BEFORE_END_MS: a client
      // learns before its next request that this connection is over, rather than sending it into the keep-alive
      // timeout's close (which resets a request on its way). Not at once: a client that sends its next request as
      // soon as an answer arrives has it on the way, and it is answered (with `Connection: close`). Not
      // http.Server#closeIdleConnections: it destroys sockets (a reset when a request's bytes arrived unread), and
      // counts as idle a connection whose first request is still coming.
      for (const [socket, since] of idle) endWhenIdle(socket, since);
      // Stop listening once connections stop arriving (at most ACCEPT_AFTER_SIGNAL_MS): closing the listener
      // resets every connection still waiting in the kernel's queue, and a client that connected just before the
      // signal may be one of them. What arrives meanwhile is answered with `Connection: close`.
      let started = 0;
      const closeWhenQuiet = () => {
        const now = Date.now();
        const quietFor = now - lastConnection;
        if (quietFor < QUIET_MS && now - started < ACCEPT_AFTER_SIGNAL_MS) {
          setTimeout(closeWhenQuiet, QUIET_MS - quietFor);
          return;
        }
        // Counted from when the listener closes: the announcement takes nothing from the requests' time.
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve('timed out');
        }, graceMs);
        net.Server.prototype.close.call(server, () => {
          clearTimeout(timer);
          resolve('drained');
        });
      };
      // Meanwhile the listener accepts as before (each answer with `Connection: close`), and /readyz says 503.
      setTimeout(() => {
        started = Date.now();
        closeWhenQuiet();
      }, announceMs);
    });
}

/** Idle this long during the drain, a kept-alive connection is ended: a request sent on it would have arrived. */
const IDLE_BEFORE_END_MS = 250;
/** How long an ended connection's client has to close its side before the socket is let go. */
const END_GRACE_MS = 1_000;

/** Sends a FIN on an idle connection; the socket is freed when the client closes too, or after END_GRACE_MS. */
function endGently(socket: net.Socket) {
  socket.end();
  setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
}

export function installGracefulShutdown(server: http.Server, options: ShutdownOptions = {}): void {
  const log = options.log ?? ((message: string) => console.log(`[kirana] ${message}`));
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  const drain = drainer(server, graceMs);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.onDraining?.();
    // Ctrl+C is someone at a terminal, not an orchestrator behind a balancer: no announcement to wait for.
    const announceMs = signal === 'SIGTERM' ? (options.announceMs ?? 0) : 0;
    if (announceMs > 0) log(`${signal}: /readyz answers 503; still accepting for ${announceMs / 1000} s…`);
    log(`${signal}: no new connections${announceMs > 0 ? ' after that' : ''}; finishing the requests in flight (at most ${graceMs / 1000} s)…`);
    if ((await drain(announceMs)) === 'timed out') log('requests still in flight after the grace time were cut');
    await options.close?.().catch((error: unknown) => log(`could not close cleanly: ${String(error)}`));
    log('database closed; stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (s) => void stop(s));
}
