// Every page of the shop but the products': home, listings, content pages, brands and categories.
import type { APIRoute } from 'astro';
import { serverCatalogue } from '../lib/server/api.ts';
import { siteOrigin } from '../lib/server/site.ts';
import { pagesSitemap, sitemapResponse } from '../lib/server/sitemap.ts';

export const GET: APIRoute = async ({ site, isPrerendered }) =>
  sitemapResponse(await pagesSitemap(serverCatalogue, siteOrigin({ site, isPrerendered })));
