// The sitemap past 50,000 products: the ids-only call, and the index and files src/lib/server/sitemap.ts makes from it
// over HTTP (as a storefront with API_URL reads it; the embedded shop hands the same requests to the app in process).
import { createRequire } from 'node:module';
import { asc, sql } from 'drizzle-orm';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, type Catalogue } from '../../src/lib/api/catalogue.ts';
import { MAX_SITEMAP_URLS, SITEMAP_PRODUCTS_PER_FILE } from '../../src/lib/paging.ts';
import { pagesSitemap, productSitemap, sitemapIndex } from '../../src/lib/server/sitemap.ts';
import { products } from '../../src/server/db/schema.ts';
import { startTestApi, type TestApi } from './harness.ts';

/** sax (through svgo), strict: throws on XML that is not well formed. */
const sax = createRequire(import.meta.url)('sax') as {
  parser(strict: true): { onerror: (e: Error) => void; write(text: string): { close(): void } };
};

/** The <loc>s of a well-formed sitemap file whose root is `root`. */
function locsOf(xml: string, root: 'urlset' | 'sitemapindex'): string[] {
  const parser = sax.parser(true);
  parser.onerror = (error) => {
    throw error;
  };
  parser.write(xml).close();
  expect(xml).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?>\\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`));
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
}

const BASE = new URL('https://shop.example.in');
const EXTRA = 50_000;
let api: TestApi;
let shop: Catalogue;
let allIds: number[];

beforeAll(async () => {
  api = await startTestApi({ products: 30 });
  // 50,030 products in all: past the protocol's 50,000 URLs in one file. Copies of the first, made in one statement.
  await api.db.execute(sql`
    insert into products (name, short_name, short_code, description, price_paise, mrp_paise, type, brand_id, category_id, stock)
    select p.name || ' ' || n, p.short_name, p.short_code || n, p.description, p.price_paise, p.mrp_paise, 'normal',
           p.brand_id, p.category_id, 5
    from (select * from products order by id limit 1) p, generate_series(1, ${EXTRA}) n`);
  allIds = (await api.db.select({ id: products.id }).from(products).orderBy(asc(products.id))).map((r) => r.id);
  shop = catalogue(ky.create({ baseUrl: `${api.baseUrl}/api/`, retry: 0 }));
}, 180_000);
afterAll(() => api?.close());

describe('the ids-only call', () => {
  it('gives product ids in id order by skip and take, with the count', async () => {
    expect(allIds.length).toBe(30 + EXTRA);
    const first = await shop.productIds(0, 5);
    expect(first).toEqual({ ids: allIds.slice(0, 5), total: allIds.length });
    expect((await shop.productIds(49_998, 4)).ids).toEqual(allIds.slice(49_998, 50_002));
    expect(await shop.productIds(allIds.length, 10)).toEqual({ ids: [], total: allIds.length });
  });

  it('gives at most one sitemap file of them, and refuses more', async () => {
    expect((await shop.productIds(0, MAX_SITEMAP_URLS)).ids).toHaveLength(MAX_SITEMAP_URLS);
    expect((await api.get(`/api/app/Products/Ids?take=${MAX_SITEMAP_URLS + 1}`)).status).toBe(400);
    expect((await api.get('/api/app/Products/Ids?skip=-1')).status).toBe(400);
    const byDefault = await api.get('/api/app/Products/Ids');
    expect(((await byDefault.json()) as number[]).length).toBe(SITEMAP_PRODUCTS_PER_FILE);
    expect(byDefault.headers.get('x-total-count')).toBe(String(allIds.length));
  });
});

describe('the sitemap', () => {
  it('is an index of the pages file and product files, every product in exactly one, none over 50,000', async () => {
    const files = locsOf(await sitemapIndex(shop, BASE), 'sitemapindex');
    const parts = Math.ceil(allIds.length / SITEMAP_PRODUCTS_PER_FILE);
    expect(parts).toBeGreaterThan(1);
    expect(files).toEqual([
      'https://shop.example.in/sitemap-pages.xml',
      ...Array.from({ length: parts }, (_, i) => `https://shop.example.in/sitemap-products-${i + 1}.xml`),
    ]);
    const seen: number[] = [];
    for (let part = 1; part <= parts; part++) {
      const locs = locsOf((await productSitemap(shop, BASE, part))!, 'urlset');
      expect(locs.length).toBeLessThanOrEqual(MAX_SITEMAP_URLS);
      for (const l of locs) seen.push(Number(/^https:\/\/shop\.example\.in\/product-detail\?id=(\d+)$/.exec(l)![1]));
    }
    expect(seen).toEqual(allIds);
    // A file the index does not name is none.
    expect(await productSitemap(shop, BASE, parts + 1)).toBeNull();
    expect(await productSitemap(shop, BASE, 0)).toBeNull();
  }, 60_000);

  it('splits at the protocol’s 50,000 URLs too, with files that large', async () => {
    const files = locsOf(await sitemapIndex(shop, BASE, MAX_SITEMAP_URLS), 'sitemapindex');
    expect(files.slice(1)).toEqual(['https://shop.example.in/sitemap-products-1.xml', 'https://shop.example.in/sitemap-products-2.xml']);
    const first = locsOf((await productSitemap(shop, BASE, 1, MAX_SITEMAP_URLS))!, 'urlset');
    const second = locsOf((await productSitemap(shop, BASE, 2, MAX_SITEMAP_URLS))!, 'urlset');
    expect([first.length, second.length]).toEqual([MAX_SITEMAP_URLS, allIds.length - MAX_SITEMAP_URLS]);
  }, 60_000);

  it('lists the shop’s other pages once, in their own file, and no product', async () => {
    const locs = locsOf(await pagesSitemap(shop, BASE), 'urlset');
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.filter((l) => l.includes('/product-detail'))).toEqual([]);
    const categories = (await shop.categories(0, 100)).total;
    expect(locs.filter((l) => l.includes('type=category'))).toHaveLength(categories);
    expect(locs).toContain('https://shop.example.in/about');
  });
});
