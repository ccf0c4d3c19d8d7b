// The sitemap index, for crawlers (robots.txt names it): the shop's pages and the product files (src/lib/server/sitemap.ts).
import type { APIRoute } from 'astro';
import { storefrontOf } from '../lib/server/storefront.ts';
import { siteOrigin } from '../lib/server/site.ts';
import { sitemapIndex, sitemapResponse } from '../lib/server/sitemap.ts';

export const GET: APIRoute = async ({ site, locals, url }) =>
  sitemapResponse(await sitemapIndex(storefrontOf({ locals, url }).catalogue, siteOrigin({ site, locals })));
