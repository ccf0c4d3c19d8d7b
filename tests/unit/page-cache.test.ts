// The page cache's and the server layer's rules, as pure functions. Their behaviour in the real built server
// (OPTIONS, reviews, Cookie, compression, headers) is tested in tests/e2e/serving.spec.ts.
import { describe, expect, it } from 'vitest';
import { chooseEncoding, isCompressible } from '../../scripts/lib/compression.ts';
import { isSamePage, PageCache } from '../../scripts/lib/page-cache.ts';
import { shareableSeconds } from '../../src/lib/api/headers.ts';
import { isValidHost } from '../../scripts/lib/shop-handler.ts';

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

describe('isSamePage', () => {
  it.each([
    ['/product-detail?id=5', '/product-detail?id=5', true],
    ['/product-detail?id=5&reviewed=1', '/product-detail?id=5', true],
    ['/product-detail?reviewed=1&id=5', '/product-detail?id=5', true],
    ['/product-detail?id=50', '/product-detail?id=5', false],
    ['/product?id=5', '/product-detail?id=5', false],
    ['/product-detail', '/product-detail?id=5', false],
  ])('%s is %s: %s', (url, page, same) => {
    expect(isSamePage(url, page)).toBe(same);
  });
});

describe('PageCache', () => {
  const page = { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>page</p>') };

  it('keeps a page until its time is up', () => {
    const clock = { now: 0 };
    const cache = new PageCache({ maxSeconds: 60, now: () => clock.now });
    cache.put('/shop?type=hot', cache.mark(), page, cache.keepSeconds('public, max-age=30'));
    expect(cache.get('/shop?type=hot')?.body.toString()).toBe('<p>page</p>');
    clock.now += 31_000;
    expect(cache.get('/shop?type=hot')).toBeUndefined();
  });

  it('forgets only the pages a write declares', () => {
    const cache = new PageCache();
    for (const url of ['/product-detail?id=5', '/product?id=5', '/product-detail?id=6', '/']) cache.put(url, cache.mark(), page, 60);
    cache.forget(['/product-detail?id=5', '/product?id=5']);
    expect(cache.get('/product-detail?id=5')).toBeUndefined();
    expect(cache.get('/product?id=5')).toBeUndefined();
    expect(cache.get('/product-detail?id=6')).toBeDefined();
    expect(cache.get('/')).toBeDefined();
  });

  it('does not store a render that began before a write changed its page', () => {
    const cache = new PageCache();
    const before = cache.mark();
    cache.forget(['/product-detail?id=5']);
    cache.put('/product-detail?id=5', before, page, 60);
    cache.put('/product-detail?id=6', before, page, 60);
    expect(cache.get('/product-detail?id=5')).toBeUndefined();
    expect(cache.get('/product-detail?id=6')).toBeDefined();
  });

  it('keeps the compressed forms with the entry', async () => {
    const cache = new PageCache();
    const entry = cache.put('/', cache.mark(), { ...page, body: Buffer.from('<p>x</p>'.repeat(500)) }, 60);
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
