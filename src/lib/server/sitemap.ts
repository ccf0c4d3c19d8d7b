// The sitemap (sitemaps.org 0.9), split so that no file passes the protocol's 50,000 URLs however large the catalogue:
// /sitemap.xml is an index naming /sitemap-pages.xml (home, listings, content pages, every brand and category: few)
// and /sitemap-products-1.xml … -N.xml, SITEMAP_PRODUCTS_PER_FILE product pages each. Each file costs one ids-only
// call of the API (app/Products/Ids), in process or at API_URL alike; the index, one call that reads the count.
// Files are cut by offset in id order: a product added or removed between a crawler's reads of two files may move
// one place across their boundary, which the next crawl sets right; keyset bounds would need the index to know them.
import type { Catalogue } from '../api/catalogue.ts';
import { MAX_PRODUCT_ID_SKIP, SITEMAP_PRODUCTS_PER_FILE, sitemapFileCount } from '../paging.ts';
import { urls } from '../urls.ts';
import { escapeXml } from '../xml.ts';
import { CONTENT_PATHS } from './content-paths.ts';
import { allBrands, allCategories } from './catalogue-index.ts';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

const loc = (path: string, base: URL) => `<loc>${escapeXml(new URL(path, base).toString())}</loc>`;

function urlset(paths: string[], base: URL): string {
  const lines = paths.map((p) => `  <url>${loc(p, base)}</url>`);
  return `${XML_HEAD}<urlset ${NS}>\n${lines.join('\n')}${lines.length ? '\n' : ''}</urlset>\n`;
}

/** /sitemap.xml: the shop's pages, then one product file per `perFile` products. */
export async function sitemapIndex(catalogue: Catalogue, base: URL, perFile = SITEMAP_PRODUCTS_PER_FILE): Promise<string> {
  const { total } = await catalogue.productIds(0, 1);
  const files = [urls.sitemapPages(), ...Array.from({ length: sitemapFileCount(total, perFile) }, (_, i) => urls.sitemapProducts(i + 1))];
  const lines = files.map((f) => `  <sitemap>${loc(f, base)}</sitemap>`);
  return `${XML_HEAD}<sitemapindex ${NS}>\n${lines.join('\n')}\n</sitemapindex>\n`;
}

/** /sitemap-pages.xml: everything but the product pages. */
export async function pagesSitemap(catalogue: Catalogue, base: URL): Promise<string> {
  const [brands, categories] = await Promise.all([allBrands(catalogue), allCategories(catalogue)]);
  return urlset(
    [
      urls.home(),
      urls.hot(),
      urls.brands(),
      '/productsection',
      ...CONTENT_PATHS,
      ...categories.map((c) => urls.category(c.id)),
      ...brands.map((b) => urls.brand(b.id)),
    ],
    base,
  );
}

/** /sitemap-products-N.xml (`part` from 1): that file's product pages; null for a file the index does not name. */
export async function productSitemap(
  catalogue: Catalogue,
  base: URL,
  part: number,
  perFile = SITEMAP_PRODUCTS_PER_FILE,
): Promise<string | null> {
  const skip = (part - 1) * perFile;
  if (!Number.isSafeInteger(part) || part < 1 || skip > MAX_PRODUCT_ID_SKIP) return null;
  const { ids } = await catalogue.productIds(skip, perFile);
  return ids.length === 0 ? null : urlset(ids.map((id) => urls.product(id)), base);
}

/** How a sitemap file is sent: XML, kept an hour by crawlers and caches. */
export const sitemapResponse = (xml: string) =>
  new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
