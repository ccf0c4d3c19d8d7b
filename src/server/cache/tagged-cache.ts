// A least-recently-used cache (lru-cache) whose entries carry tags (src/server/cache/stale-after.ts), so that a write
// drops exactly the entries showing what it changed. Used for the API's read cache (service results) and the page
// cache in front of Astro (rendered pages).
import { LRUCache } from 'lru-cache';
import { staleTest } from './stale-after.ts';

export interface TaggedCacheOptions<V> {
  maxEntries: number;
  /** Memory the values may take, as `sizeOf` counts it; the least recently used go first. Unset: no bound. */
  maxBytes?: number;
  /** A value's size in bytes (required with maxBytes). A value larger than maxBytes is not kept. */
  sizeOf?: (value: V) => number;
  /** How long an entry is kept unless `set` says otherwise; 0 keeps nothing. */
  ttlSeconds: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  tags: readonly string[];
}

interface Invalidation {
  seq: number;
  isStale: (entryTags: Iterable<string>) => boolean;
}

/**
 * How many invalidations are remembered to refuse a value read before one of them. A read or a render takes well under
 * a second; a hundred writes cover every one in flight, and a mark older than that is refused outright.
 */
const REMEMBERED_INVALIDATIONS = 100;

export class TaggedCache<V extends {}> {
  readonly #entries: LRUCache<string, Entry<V>>;
  readonly #ttlSeconds: number;
  /** Counts invalidations; a read remembers the count it began at (`mark`). */
  #seq = 0;
  readonly #recent: Invalidation[] = [];

  constructor({ maxEntries, maxBytes, sizeOf, ttlSeconds, now }: TaggedCacheOptions<V>) {
    if (maxBytes !== undefined && !sizeOf) throw new TypeError('TaggedCache: maxBytes needs sizeOf');
    this.#ttlSeconds = ttlSeconds;
    this.#entries = new LRUCache<string, Entry<V>>({
      max: maxEntries,
      ...(maxBytes !== undefined && sizeOf
        ? // lru-cache takes only positive whole sizes.
          { maxSize: maxBytes, sizeCalculation: (entry: Entry<V>) => Math.max(1, Math.ceil(sizeOf(entry.value))) }
        : {}),
      // A test's clock jumps, so its readings must not be reused for a millisecond as lru-cache does by default; and
      // lru-cache takes an entry stored at time 0 for one without a time limit, so the clock reads from 1.
      ...(now ? { perf: { now: () => now() + 1 }, ttlResolution: 0 } : {}),
    });
  }

  /** Entries held, some possibly expired but not yet dropped. */
  get size(): number {
    return this.#entries.size;
  }

  /** The live value for `key`, now the most recently used. */
  get(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** To hand back to `set`: which invalidations a read that begins now has seen. */
  mark(): number {
    return this.#seq;
  }

  /**
   * Keeps `value`, read since `mark`, for `ttlSeconds` (the cache's own by default), unless an invalidation since
   * `mark` touched its tags: a read that began before a write must not be stored after it. Whether it was kept.
   */
  set(key: string, value: V, tags: Iterable<string>, mark: number, ttlSeconds = this.#ttlSeconds): boolean {
    if (ttlSeconds <= 0 || !this.#isFresh(tags, mark)) return false;
    const entry = { value, tags: [...tags] };
    this.#entries.set(key, entry, { ttl: ttlSeconds * 1000 });
    // lru-cache drops a value larger than maxBytes (and the key's old one) rather than keep it.
    return this.#entries.peek(key) === entry;
  }

  /** Drops every entry carrying one of `tags` (every entry for 'all' or the catalogue tag). */
  invalidate(tags: readonly string[] | 'all') {
    if (tags !== 'all' && tags.length === 0) return;
    const isStale = staleTest(tags);
    this.#seq++;
    this.#recent.push({ seq: this.#seq, isStale });
    if (this.#recent.length > REMEMBERED_INVALIDATIONS) this.#recent.shift();
    // A few thousand entries at most: testing each is cheaper to get right than an index from tag to keys kept in step
    // with lru-cache's evictions and expiries.
    const stale: string[] = [];
    for (const [key, entry] of this.#entries.entries()) if (isStale(entry.tags)) stale.push(key);
    for (const key of stale) this.#entries.delete(key);
  }

  /** Drops every entry, without counting an invalidation (a read in flight may still be stored). */
  clear() {
    this.#entries.clear();
  }

  #isFresh(tags: Iterable<string>, mark: number): boolean {
    if (mark === this.#seq) return true;
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    // Invalidations after `mark` that are no longer remembered may have touched anything.
    if (mark < oldest - 1) return false;
    const entryTags = [...tags];
    return !this.#recent.some((invalidation) => invalidation.seq > mark && invalidation.isStale(entryTags));
  }
}
