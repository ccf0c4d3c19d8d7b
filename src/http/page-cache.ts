// A short-lived cache of public pages in front of the Astro handler. A hit is answered from memory without
// entering Astro's request pipeline, which on its own costs about as much as rendering a cached page.
// Only answers that say they may be shared (Cache-Control: public, max-age=N, no Set-Cookie) are kept, for at
// most N seconds (capped), with their compressed forms, so a hit costs no compression either. Each page carries the
// tags of what it shows (src/server/cache/stale-after.ts); a write drops the pages whose tags it made stale, and a
// render that began before the write is not stored.
import type { OutgoingHttpHeaders } from 'node:http';
import { compressBody, type Encoding } from './compression.ts';
import { shareableSeconds } from '../lib/api/headers.ts';
import { TaggedCache } from '../server/cache/tagged-cache.ts';

export interface PageCacheOptions {
  /** Upper bound on how long a page is kept, whatever its max-age says; 0 keeps nothing. */
  maxSeconds?: number;
  maxEntries?: number;
  /** Memory the pages may take, their compressed forms counted. */
  maxBytes?: number;
  maxBodyBytes?: number;
  now?: () => number;
}

export interface CachedPage {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** Compressed forms, made once each. */
  encoded: Map<Encoding, Promise<Buffer>>;
  /** The head of a hit, as Node's writeHead takes it flat, made once per encoding ('' for none). */
  heads?: Map<Encoding | '', string[]>;
}

export const CACHE_HEADER = 'x-kirana-cache';

/**
 * The tag of the API's answers kept here: they carry no tags of what they show, so any write forgets them all (its
 * stale tags and this one), as the old cache forgot every /api/ answer on any change.
 */
export const API_ANSWERS_TAG = 'api-answers';

/** A page's share of maxBytes: its body and, made on first use, its compressed forms (together well under half of it). */
const pageBytes = (page: CachedPage) => Math.ceil(page.body.length * 1.5);

export class PageCache {
  readonly maxSeconds: number;
  readonly maxBodyBytes: number;
  readonly #pages: TaggedCache<CachedPage>;

  constructor({ maxSeconds = 60, maxEntries = 500, maxBytes = 64 * 1024 * 1024, maxBodyBytes = 1_000_000, now }: PageCacheOptions = {}) {
    this.maxSeconds = maxSeconds;
    this.maxBodyBytes = maxBodyBytes;
    this.#pages = new TaggedCache({ maxEntries, maxBytes, sizeOf: pageBytes, ttlSeconds: maxSeconds, now });
  }

  get size(): number {
    return this.#pages.size;
  }

  /** The live page for `url`, now the most recently used. */
  get(url: string): CachedPage | undefined {
    return this.#pages.get(url);
  }

  /** A mark to hand back to `put`: which invalidations a render has already seen. */
  mark(): number {
    return this.#pages.mark();
  }

  /** Seconds an answer may be kept here (0: not at all). */
  keepSeconds(cacheControl: string | undefined): number {
    return Math.min(this.maxSeconds, shareableSeconds(cacheControl));
  }

  /**
   * Stores a page rendered since `mark` for `seconds` (at most maxSeconds), with the tags of what it shows, unless a write since then made
   * one of them stale. The entry either way, for the answer being sent to share its compressed forms.
   */
  put(url: string, mark: number, page: Omit<CachedPage, 'encoded'>, seconds: number, tags: Iterable<string>): CachedPage {
    const entry: CachedPage = { ...page, encoded: new Map() };
    this.#pages.set(url, entry, tags, mark, Math.min(seconds, this.maxSeconds));
    return entry;
  }

  /** Drops the pages a write made stale (every page for 'all'). */
  invalidate(tags: readonly string[] | 'all') {
    this.#pages.invalidate(tags);
  }

  /** The body in `encoding`, compressed on first use and kept with the entry. */
  encodedBody(entry: CachedPage, encoding: Encoding): Promise<Buffer> {
    let body = entry.encoded.get(encoding);
    if (!body) {
      body = compressBody(entry.body, encoding);
      entry.encoded.set(encoding, body);
    }
    return body;
  }
}
