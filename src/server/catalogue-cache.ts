// An in-process cache of the API's public answers (catalogue JSON, drawn pictures). A page of the shop makes
// several API calls, and on the embedded database each query costs about a millisecond of CPU whatever it reads:
// a product page asked for again within a minute is served from memory instead. Any write that changes what the
// catalogue shows says so with CHANGED_PAGES_HEADER (reviews, orders that empty or refill a shelf, the grocer's
// import); the whole cache is then forgotten, and an answer read before that write is not kept.
import type { MiddlewareHandler } from 'hono';
import { CHANGED_PAGES_HEADER } from '../lib/api/headers.ts';

/** How long an answer is kept at most: writes made by another process (a shared PostgreSQL) show after this. */
const KEEP_SECONDS = 60;

interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  expires: number;
}

export interface CatalogueCacheOptions {
  /** Memory the kept bodies may take; the least recently used answers go first. */
  maxBytes?: number;
  /** A larger answer (a grocer's photo) is not kept. */
  maxBodyBytes?: number;
  now?: () => number;
}

export class CatalogueCache {
  readonly #answers = new Map<string, CachedAnswer>();
  readonly #maxBytes: number;
  readonly #maxBodyBytes: number;
  readonly #now: () => number;
  #bytes = 0;
  /** Bumped by every catalogue write, so an answer read before it is not stored after it. */
  #generation = 0;

  constructor({ maxBytes = 64 * 1024 * 1024, maxBodyBytes = 512 * 1024, now = Date.now }: CatalogueCacheOptions = {}) {
    this.#maxBytes = maxBytes;
    this.#maxBodyBytes = maxBodyBytes;
    this.#now = now;
  }

  get size() {
    return this.#answers.size;
  }

  forgetAll() {
    this.#generation += 1;
    this.#answers.clear();
    this.#bytes = 0;
  }

  middleware(): MiddlewareHandler {
    return async (c, next) => {
      if (c.req.method !== 'GET') {
        await next();
        if (c.res.headers.has(CHANGED_PAGES_HEADER)) this.forgetAll();
        return;
      }
      const url = new URL(c.req.url);
      const key = url.pathname + url.search;
      const hit = this.#answers.get(key);
      if (hit && hit.expires > this.#now()) {
        // Most recently used last: Map keeps insertion order, so the first entries are the ones to drop.
        this.#answers.delete(key);
        this.#answers.set(key, hit);
        return new Response(hit.body, { status: hit.status, headers: hit.headers });
      }
      const generation = this.#generation;
      await next();
      const seconds = keepableSeconds(c.req.raw, c.res);
      if (seconds === 0) return;
      const body = await c.res.clone().arrayBuffer();
      if (generation !== this.#generation || body.byteLength > this.#maxBodyBytes) return;
      this.#store(key, {
        status: c.res.status,
        headers: [...c.res.headers],
        body,
        expires: this.#now() + seconds * 1000,
      });
    };
  }

  #store(key: string, answer: CachedAnswer) {
    const previous = this.#answers.get(key);
    if (previous) {
      this.#answers.delete(key);
      this.#bytes -= previous.body.byteLength;
    }
    this.#answers.set(key, answer);
    this.#bytes += answer.body.byteLength;
    for (const [oldKey, old] of this.#answers) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#answers.delete(oldKey);
      this.#bytes -= old.body.byteLength;
    }
  }
}

/**
 * Seconds an answer may be kept: a public answer, the same for every visitor. One that browsers
 * must revalidate (reviews: `public, no-cache`) is kept too, since the writes that change it clear this cache.
 */
function keepableSeconds(request: Request, response: Response): number {
  if (response.status !== 200) return 0;
  if (request.headers.has('authorization') || response.headers.has('set-cookie') || response.headers.has('vary')) return 0;
  const directives = (response.headers.get('cache-control') ?? '').toLowerCase().split(',').map((d) => d.trim());
  return directives.includes('public') && !directives.includes('private') && !directives.includes('no-store') ? KEEP_SECONDS : 0;
}
