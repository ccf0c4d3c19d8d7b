import { describe, expect, it } from 'vitest';
import { CATALOGUE_TAG, listingTags, productTag, staleAfter } from '../../src/server/cache/stale-after.ts';
import { TaggedCache } from '../../src/server/cache/tagged-cache.ts';

const cacheOf = (options: Partial<ConstructorParameters<typeof TaggedCache<{ text: string }>>[0]> = {}) =>
  new TaggedCache<{ text: string }>({ maxEntries: 100, ttlSeconds: 60, ...options });

describe('TaggedCache', () => {
  it('keeps a value for its time, the default or its own', () => {
    const clock = { now: 1_000 };
    const cache = cacheOf({ now: () => clock.now });
    expect(cache.set('a', { text: 'a' }, [productTag(1)], cache.mark())).toBe(true);
    expect(cache.set('b', { text: 'b' }, [productTag(2)], cache.mark(), 5)).toBe(true);
    clock.now += 5_001;
    expect(cache.get('a')).toEqual({ text: 'a' });
    expect(cache.get('b')).toBeUndefined();
    clock.now += 55_000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps nothing for 0 seconds', () => {
    const cache = cacheOf({ ttlSeconds: 0 });
    expect(cache.set('a', { text: 'a' }, [], cache.mark())).toBe(false);
    expect(cacheOf().set('a', { text: 'a' }, [], cache.mark(), 0)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used past maxEntries', () => {
    const cache = cacheOf({ maxEntries: 2 });
    cache.set('a', { text: 'a' }, [], cache.mark());
    cache.set('b', { text: 'b' }, [], cache.mark());
    cache.get('a');
    cache.set('c', { text: 'c' }, [], cache.mark());
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('drops the least recently used past maxBytes, and keeps no value larger than it', () => {
    const cache = cacheOf({ maxBytes: 10, sizeOf: (v) => v.text.length });
    cache.set('a', { text: 'aaaa' }, [], cache.mark());
    cache.set('b', { text: 'bbbb' }, [], cache.mark());
    cache.set('c', { text: 'cccc' }, [], cache.mark());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.set('big', { text: 'x'.repeat(11) }, [], cache.mark())).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    expect(() => cacheOf({ maxBytes: 10 })).toThrow(/sizeOf/);
  });

  it('drops the entries whose tags a write made stale', () => {
    const cache = cacheOf();
    cache.set('product 5', { text: '5' }, [productTag(5)], cache.mark());
    cache.set('product 6', { text: '6' }, [productTag(6)], cache.mark());
    cache.set('dairy', { text: 'dairy' }, listingTags([5, 7]), cache.mark());
    cache.set('brands', { text: 'brands' }, [CATALOGUE_TAG], cache.mark());
    cache.invalidate(staleAfter.reviewAdded(5));
    expect(cache.get('product 5')).toBeUndefined();
    expect(cache.get('dairy')).toBeUndefined();
    expect(cache.get('product 6')).toBeDefined();
    expect(cache.get('brands')).toBeDefined();
    cache.invalidate('all');
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before a write made it stale', () => {
    const cache = cacheOf();
    const before = cache.mark();
    cache.invalidate(staleAfter.reviewAdded(5));
    expect(cache.set('product 5', { text: 'old 5' }, [productTag(5)], before)).toBe(false);
    expect(cache.set('product 6', { text: '6' }, [productTag(6)], before)).toBe(true);
    cache.invalidate('all');
    expect(cache.set('product 6', { text: 'old 6' }, [productTag(6)], before)).toBe(false);
    expect(cache.set('product 6', { text: 'new 6' }, [productTag(6)], cache.mark())).toBe(true);
  });

  it('refuses a read older than the invalidations it remembers', () => {
    const cache = cacheOf();
    const before = cache.mark();
    for (let id = 1; id <= 100; id++) cache.invalidate([productTag(id)]);
    expect(cache.set('product 500', { text: '500' }, [productTag(500)], before), 'the last hundred are remembered').toBe(true);
    cache.invalidate([productTag(101)]);
    expect(cache.set('product 501', { text: '501' }, [productTag(501)], before)).toBe(false);
  });

  it('counts an invalidation only when it names something', () => {
    const cache = cacheOf();
    const before = cache.mark();
    cache.invalidate([]);
    expect(cache.mark()).toBe(before);
  });
});
