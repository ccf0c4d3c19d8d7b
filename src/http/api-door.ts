// /api, reached before Astro: the request handed to the API (the Hono app of this process, or the API host's
// pass-through) as a web Request, its answer shaped like every other (answers.ts) and written by @hono/node-server's
// listener. The API checks its own input (its body limits and malformed addresses: src/server/app.ts), once, in the
// shop and in `npm run api` alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { bodyLimitOf } from '../server/body-limits.ts';
import { errorBody } from '../server/errors.ts';
import { logServerError } from '../lib/error-log.ts';
import { crossSiteWriteRefused, isCrossSiteWrite } from '../lib/server/cross-site-writes.ts';

/**
 * How much more than its route takes a refused body may be and still be read (and thrown away) before its 413, so
 * that the client, still sending, reads the answer rather than a reset: a server that closes a connection with unread
 * bytes makes the kernel send a reset, which also drops the answer the client had not read yet. 8 MB over covers any
 * body sent by mistake (a phone photo in a form, 2 to 6 MB; a grocer's photo just over its 25 MB) at a cost of
 * bandwidth only; past it, or for a length that is not given, the answer goes at once and the connection closes, and
 * the client may then see a reset.
 */
export const REFUSED_BODY_DISCARD_BYTES = 8 * 1024 * 1024;

export interface ApiDoorOptions {
  /** The API: a request, with the shopper's address, to its answer. */
  api: (request: Request, clientAddress: string) => Promise<Response>;
  /** The socket's peer, or behind a proxy of ours (TRUST_PROXY) the address it forwards: never what the client says. */
  clientAddress: (req: IncomingMessage) => string;
  /** The shop's CSRF rule for its own API (src/lib/server/cross-site-writes.ts); off for `npm run api`, which browsers
   * of the storefront's origin call by CORS. */
  refuseCrossSiteWrites: boolean;
}

/** Reads and drops the body of a request the API refused before reading it (up to REFUSED_BODY_DISCARD_BYTES over its
 * limit), so its answer is read; the connection then closes, as the refusal leaves nothing to go on with. */
function readRefusedBody(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  res.setHeader('Connection', 'close');
  const length = Number(req.headers['content-length']);
  if (!(length <= bodyLimitOf(pathname) + REFUSED_BODY_DISCARD_BYTES) || req.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    // The API may have begun reading it as a web stream (a chunked body, counted as it came), which pauses the socket
    // while nobody reads on: its reader goes, and the rest flows here.
    req.removeAllListeners('data');
    req.on('data', () => {});
    req.resume();
    req.once('end', resolve);
    req.once('error', resolve);
    req.once('close', resolve);
  });
}

/** The handler of /api requests: `shape` is the server's shaping of the answer (answers.ts), made per request. */
export function apiDoor(
  { api, clientAddress, refuseCrossSiteWrites }: ApiDoorOptions,
  shapeFor: (req: IncomingMessage) => (response: Response) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const listener = getRequestListener(
    async (request, env) => {
      const { incoming, outgoing } = env as { incoming: IncomingMessage; outgoing: ServerResponse };
      // Made before the API answers: the page cache's mark is taken then.
      const shape = shapeFor(incoming);
      const url = new URL(request.url);
      const response =
        refuseCrossSiteWrites && isCrossSiteWrite(request, url.origin)
          ? crossSiteWriteRefused(request, url.pathname)
          : await api(request, clientAddress(incoming));
      if (response.status === 413 && !incoming.complete) await readRefusedBody(incoming, outgoing, url.pathname);
      return shape(response);
    },
    // The listener's Request (a subclass of Node's, which reads the socket only when the body is asked for) is made the
    // process's global one, as `serve` of @hono/node-server does: Hono's body limit makes a Request of it. Node drops
    // what a handler left unread.
    {
      autoCleanupIncoming: false,
      // The API answers its own errors (src/server/app.ts); what throws here is the server's, logged with its stack.
      errorHandler: (error) => {
        logServerError('[server]', error);
        return Response.json(errorBody('internal', 'Something went wrong on our side. Please try again.'), { status: 500 });
      },
    },
  );
  return (req, res) => void listener(req, res);
}
