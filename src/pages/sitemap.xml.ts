// Every product, brand, category and content page, for crawlers.
import { siteOrigin } from '../lib/server/site.ts';
import type { APIRoute } from 'astro';
import { serverCatalogue } from '../lib/server/api.ts';
import { CONTENT_PATHS } from '../lib/server/content-paths.ts';
import { urls } from '../lib/urls.ts';
import { allBrands, allCategories, allProductIds } from '../lib/server/catalogue-index.ts';
import { escapeXml } from '../lib/xml.ts';

export const GET: APIRoute = async ({ site, isPrerendered }) => {
  const base = siteOrigin({ site, isPrerendered });
  const [brands, categories, productIds] = await Promise.all([
    allBrands(serverCatalogue),
    allCategories(serverCatalogue),
    allProductIds(serverCatalogue),
  ]);
  const paths = [
    '/',
    urls.hot(),
    urls.brands(),
    '/productsection',
    ...CONTENT_PATHS,
    ...categories.map((c) => urls.category(c.id)),
    ...brands.map((b) => urls.brand(b.id)),
    ...productIds.map((id) => urls.product(id)),
  ];
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    paths.map((p) => `  <url><loc>${escapeXml(new URL(p, base).toString())}</loc></url>`).join('\n') +
    '\n</urlset>\n';
  return new Response(body, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};
