// The sitemap index, for crawlers (robots.txt names it): the shop's pages and the product files (src/lib/server/sitemap.ts).
import type { APIRoute } from 'astro';
import { serverCatalogue } from '../lib/server/api.ts';
import { siteOrigin } from '../lib/server/site.ts';
import { sitemapIndex, sitemapResponse } from '../lib/server/sitemap.ts';

export const GET: APIRoute = async ({ site, isPrerendered }) =>
  sitemapResponse(await sitemapIndex(serverCatalogue, siteOrigin({ site, isPrerendered })));
