// The page cache's and the server layer's rules, as pure functions. Their behaviour in the real built server
// (OPTIONS, reviews, Cookie, compression, headers) is tested in tests/e2e/serving.spec.ts.
import { describe, expect, it } from 'vitest';
import { chooseEncoding, isCompressible } from '../../src/http/compression.ts';
import { API_ANSWERS_TAG, PageCache } from '../../src/http/page-cache.ts';
import { shareableSeconds } from '../../src/lib/api/headers.ts';
import { CATALOGUE_TAG, LISTINGS_TAG, listingTags, productTag, staleAfter } from '../../src/server/cache/stale-after.ts';
import { isValidHost } from '../../src/http/shop-handler.ts';

describe('shareableSeconds', () => {
  it.each([
    ['public, max-age=60, stale-while-revalidate=600', 60],
    ['public, max-age=0', 0],
    ['max-age=60', 0],
    ['public, max-age=60, private', 0],
    ['no-store', 0],
    [undefined, 0],
  ])('%s → %i', (header, seconds) => {
    expect(shareableSeconds(header)).toBe(seconds);
  });
});

describe('PageCache', () => {
  const page = { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>page</p>') };
  const put = (cache: PageCache, url: string, tags: string[], mark = cache.mark()) => cache.put(url, mark, page, 60, tags);

  it('keeps a page until its time is up', () => {
    const clock = { now: 0 };
    const cache = new PageCache({ maxSeconds: 60, now: () => clock.now });
    cache.put('/shop?type=hot', cache.mark(), page, cache.keepSeconds('public, max-age=30'), [LISTINGS_TAG]);
    expect(cache.get('/shop?type=hot')?.body.toString()).toBe('<p>page</p>');
    clock.now += 31_000;
    expect(cache.get('/shop?type=hot')).toBeUndefined();
  });

  it('keeps nothing when its time is 0', () => {
    const cache = new PageCache({ maxSeconds: 0 });
    put(cache, '/', [LISTINGS_TAG]);
    cache.put('/brands', cache.mark(), page, cache.keepSeconds('public, max-age=60'), [CATALOGUE_TAG]);
    expect(cache.size).toBe(0);
  });

  it('drops only the pages showing what a write made stale', () => {
    const cache = new PageCache();
    put(cache, '/product-detail?id=5', [productTag(5)]);
    put(cache, '/product-detail?id=6', [productTag(6)]);
    put(cache, '/api/app/Products/LoadProductsByCategory/dairy?pageNo=0', listingTags([5, 7]));
    put(cache, '/api/app/Products/LoadProductsByCategory/fruit?pageNo=0', listingTags([8]));
    put(cache, '/brands', [CATALOGUE_TAG]);
    cache.invalidate(staleAfter.reviewAdded(5));
    expect(cache.get('/product-detail?id=5')).toBeUndefined();
    expect(cache.get('/api/app/Products/LoadProductsByCategory/dairy?pageNo=0'), 'a card of product 5').toBeUndefined();
    expect(cache.get('/product-detail?id=6')).toBeDefined();
    expect(cache.get('/api/app/Products/LoadProductsByCategory/fruit?pageNo=0')).toBeDefined();
    expect(cache.get('/brands')).toBeDefined();

    cache.invalidate(staleAfter.shelfChanged([6]));
    expect(cache.get('/product-detail?id=6')).toBeUndefined();
    expect(cache.get('/api/app/Products/LoadProductsByCategory/fruit?pageNo=0'), 'every listing').toBeUndefined();
    expect(cache.get('/brands')).toBeDefined();

    cache.invalidate(staleAfter.catalogueImported());
    expect(cache.size).toBe(0);
  });

  it("an API answer kept under API_ANSWERS_TAG goes with any write that names it", () => {
    const cache = new PageCache();
    put(cache, '/api/app/Products/5', [API_ANSWERS_TAG]);
    put(cache, '/brands', [CATALOGUE_TAG]);
    cache.invalidate([...staleAfter.reviewAdded(9), API_ANSWERS_TAG]);
    expect(cache.get('/api/app/Products/5')).toBeUndefined();
    expect(cache.get('/brands')).toBeDefined();
  });

  it('drops every page on "all"', () => {
    const cache = new PageCache();
    put(cache, '/product-detail?id=5', [productTag(5)]);
    put(cache, '/brands', [CATALOGUE_TAG]);
    cache.invalidate('all');
    expect(cache.size).toBe(0);
  });

  it('does not store a render that began before a write made its page stale', () => {
    const cache = new PageCache();
    const before = cache.mark();
    cache.invalidate(staleAfter.reviewAdded(5));
    put(cache, '/product-detail?id=5', [productTag(5)], before);
    put(cache, '/product-detail?id=6', [productTag(6)], before);
    expect(cache.get('/product-detail?id=5')).toBeUndefined();
    expect(cache.get('/product-detail?id=6')).toBeDefined();
  });

  it('keeps the compressed forms with the entry', async () => {
    const cache = new PageCache();
    const entry = cache.put('/', cache.mark(), { ...page, body: Buffer.from('<p>x</p>'.repeat(500)) }, 60, [LISTINGS_TAG]);
    expect(cache.get('/')).toBe(entry);
    const first = cache.encodedBody(entry, 'br');
    expect(cache.encodedBody(entry, 'br')).toBe(first);
    expect((await first).length).toBeLessThan(entry.body.length);
  });
});

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['identity', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});

describe('isCompressible', () => {
  it.each([
    ['text/html', true],
    ['text/html; charset=utf-8', true],
    ['application/json', true],
    ['application/ld+json', true],
    ['image/svg+xml', true],
    ['application/xml; charset=utf-8', true],
    ['image/png', false],
    ['image/avif', false],
    ['application/octet-stream', false],
    [undefined, false],
  ])('%s → %s', (type, compressible) => {
    expect(isCompressible(type)).toBe(compressible);
  });
});

describe('isValidHost', () => {
  it.each([
    ['localhost:4321', true],
    ['127.0.0.1:4321', true],
    ['[::1]:4321', true],
    ['Shop.Example.in', true],
    ['evil.example', true],
    ['a@b', false],
    ['a/b', false],
    ['shop.example.in:99999', false],
    ['shop example', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (host, valid) => {
    expect(isValidHost(host)).toBe(valid);
  });
});
