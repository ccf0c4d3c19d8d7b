// One file of product pages (/sitemap-products-1.xml …), as the index names them; any other number is a 404.
import type { APIRoute } from 'astro';
import { storefrontOf } from '../lib/server/storefront.ts';
import { siteOrigin } from '../lib/server/site.ts';
import { productSitemap, sitemapResponse } from '../lib/server/sitemap.ts';

export const GET: APIRoute = async ({ params, site, locals, url }) => {
  const part = /^[1-9]\d{0,8}$/.test(params.part ?? '') ? Number(params.part) : 0;
  const xml = part ? await productSitemap(storefrontOf({ locals, url }).catalogue, siteOrigin({ site, locals }), part) : null;
  return xml ? sitemapResponse(xml) : new Response('No such sitemap', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
