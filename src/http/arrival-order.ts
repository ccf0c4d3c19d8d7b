// Pages are rendered in the order their requests arrived, a few at a time.
//
// On the embedded database a page render is one unbroken run of JavaScript: PGlite answers in-process, so the
// render of the request read first runs to its end before the event loop reads another socket. Which socket that
// is was up to the kernel's list of ready sockets, not the order of arrival: under load some shoppers waited two or
// three times as long as others (product pages read from the database, 32 connections: p50 0.19 s, p99 1.4 s).
// Queued here, each render starts in a turn of the event loop of its own (setImmediate), after the requests that
// arrived meanwhile have been read and queued behind it. A render gives its place up when the renderer says it is done
// (its promise settles: Astro renders the whole page, then hands it to the socket), so a shopper on a slow line holds
// no place while the page downloads.
//
// It is for the embedded shop alone (scripts/serve.ts): where a render waits on a network (PostgreSQL, or the API
// on another host by API_URL), a few places would hold everyone behind a slow server.
import type { IncomingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';

/** A renderer whose promise settles when it has handed its answer to the response. */
export type Renderer = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** How many renders may run at once: on PGlite one at a time is all that happens anyway; 8 covers a few awaits. */
export const RENDERS_AT_ONCE = 8;

/**
 * Which requests wait their turn: reads (GET, HEAD). A write's body is read inside its render, so a body sent
 * slowly would hold a place until it arrived; a picture is resized by sharp off the main thread, and waits on that.
 */
export function waitsItsTurn(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && !(req.url ?? '').startsWith('/api/images/');
}

interface Waiting {
  render: () => void;
  /** Counted among the running ones (set when it leaves the queue). */
  started: boolean;
}

export function inArrivalOrder(handler: Renderer, rendersAtOnce = RENDERS_AT_ONCE): (req: IncomingMessage, res: ServerResponse) => void {
  const queue: Waiting[] = [];
  let running = 0;
  const startNext = () => {
    while (running < rendersAtOnce && queue.length > 0) {
      const next = queue.shift()!;
      next.started = true;
      running += 1;
      setImmediate(next.render);
    }
  };
  return (req, res) => {
    if (!waitsItsTurn(req)) return void handler(req, res);
    /** Its place given up: rendered, or the shopper gone. */
    let left = false;
    const waiting: Waiting = {
      started: false,
      // A shopper who left before their turn is not rendered for.
      render: () => {
        if (left) return;
        Promise.resolve(handler(req, res)).then(leave, leave);
      },
    };
    const leave = () => {
      if (left) return;
      left = true;
      if (waiting.started) {
        running -= 1;
        startNext();
      } else {
        const place = queue.indexOf(waiting);
        if (place >= 0) queue.splice(place, 1);
      }
    };
    // A renderer that answered without saying so is seen at 'finish'; a shopper who went away, at 'close'.
    res.once('finish', leave);
    res.once('close', leave);
    queue.push(waiting);
    startNext();
  };
}
