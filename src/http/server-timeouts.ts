// How long the shop's HTTP servers (scripts/serve.ts, `npm run api`) wait on a client, in one place (issue 32:
// without them, a connection that sent half its headers was held past 110 s, each one a socket and a parser).
// docs/reliability.md, "Server timeouts", says the same for the grocer.
import type { ServerOptions } from 'node:http';

/** A request's headers are a few hundred bytes: even a phone on a stalled 2G line sends them within this. */
export const HEADERS_TIMEOUT_MS = 15_000;

/**
 * A whole request, body included. The largest a shopper sends is a 10 MB photo of a delivered item
 * (MAX_ISSUE_PHOTO_BYTES): about 200 s at 400 kbit/s, the slow phone of our budgets. The grocer's 32 MB import comes
 * through `npm run import` over the shop's own line (a megabit takes 270 s).
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/**
 * An idle kept-alive connection. Above nginx's 4 s to the shops (scripts/lib/nginx.ts), so a balancer never sends on a
 * connection the shop is closing; short, so idle phones hold few sockets.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How often Node looks for connections past those times (its default is 30 s, which let a half-sent request live
 * 15 s + 30 s). A look at every connection once a second is cheap.
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * For `http.createServer`. No idle-socket timeout (`server.timeout`) beside them: it counts the time the shop spends
 * on its answer too (an import of 50,000 rows), so it would cut an honest request, and the two above already bound
 * what a client can hold while it sends.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
} as const satisfies ServerOptions;
