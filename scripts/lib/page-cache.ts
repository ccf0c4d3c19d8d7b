// A short-lived cache of public pages in front of the Astro handler. A hit is answered from memory without
// entering Astro's request pipeline, which on its own costs about as much as rendering a cached page.
// Only answers that say they may be shared (Cache-Control: public, max-age=N, no Set-Cookie) are kept, for at
// most N seconds (capped), with their compressed forms, so a hit costs no compression either. A successful
// write declares the pages it changed (CHANGED_PAGES_HEADER); only those are forgotten, and a render of one of
// them that began before the write is not stored.
import type { OutgoingHttpHeaders } from 'node:http';
import { compressBody, type Encoding } from './compression.ts';
import { shareableSeconds } from '../../src/lib/api/headers.ts';

export interface PageCacheOptions {
  /** Upper bound on how long a page is kept, whatever its max-age says; 0 keeps nothing. */
  maxSeconds?: number;
  maxEntries?: number;
  maxBodyBytes?: number;
  now?: () => number;
}

export interface CachedPage {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  expires: number;
  /** Compressed forms, made once each. */
  encoded: Map<Encoding, Promise<Buffer>>;
  /** The head of a hit, as Node's writeHead takes it flat, made once per encoding ('' for none). */
  heads?: Map<Encoding | '', string[]>;
}

export const CACHE_HEADER = 'x-kirana-cache';


/** Whether the page at `url` is the declared `page` (same path, and every query parameter the page names). */
export function isSamePage(url: string, page: string): boolean {
  const a = new URL(url, 'http://x');
  const b = new URL(page, 'http://x');
  if (a.pathname !== b.pathname) return false;
  for (const [name, value] of b.searchParams) if (!a.searchParams.getAll(name).includes(value)) return false;
  return true;
}

export class PageCache {
  readonly maxSeconds: number;
  readonly maxBodyBytes: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, CachedPage>();
  /** Counts writes; a render remembers the count it began at. */
  private writes = 0;
  private readonly recentWrites: { at: number; pages: string[] }[] = [];

  constructor({ maxSeconds = 60, maxEntries = 500, maxBodyBytes = 1_000_000, now = Date.now }: PageCacheOptions = {}) {
    this.maxSeconds = maxSeconds;
    this.maxEntries = maxEntries;
    this.maxBodyBytes = maxBodyBytes;
    this.now = now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live entry for `url`, most recently used last so the oldest is evicted first. */
  get(url: string): CachedPage | undefined {
    const hit = this.entries.get(url);
    if (!hit) return undefined;
    this.entries.delete(url);
    if (hit.expires <= this.now()) return undefined;
    this.entries.set(url, hit);
    return hit;
  }

  /** A mark to hand back to `put`: which writes a render has already seen. */
  mark(): number {
    return this.writes;
  }

  /** Seconds an answer may be kept here (0: not at all). */
  keepSeconds(cacheControl: string | undefined): number {
    return Math.min(this.maxSeconds, shareableSeconds(cacheControl));
  }

  /** Stores a page rendered since `mark`, unless a write since then changed it. */
  put(url: string, mark: number, page: Omit<CachedPage, 'expires' | 'encoded'>, seconds: number): CachedPage {
    const entry: CachedPage = { ...page, expires: this.now() + seconds * 1000, encoded: new Map() };
    const stale = this.recentWrites.some((w) => w.at > mark && w.pages.some((p) => isSamePage(url, p)));
    if (seconds <= 0 || stale) return entry;
    this.entries.set(url, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /** Forgets the pages a successful write changed. */
  forget(pages: string[]) {
    if (pages.length === 0) return;
    this.writes++;
    this.recentWrites.push({ at: this.writes, pages });
    // A render takes well under a second; the last hundred writes cover every render in flight.
    if (this.recentWrites.length > 100) this.recentWrites.shift();
    for (const url of this.entries.keys()) if (pages.some((p) => isSamePage(url, p))) this.entries.delete(url);
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
