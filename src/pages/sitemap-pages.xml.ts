// Every page of the shop but the products': home, listings, content pages, brands and categories.
import type { APIRoute } from 'astro';
import { storefrontOf } from '../lib/server/storefront.ts';
import { siteOrigin } from '../lib/server/site.ts';
import { pagesSitemap, sitemapResponse } from '../lib/server/sitemap.ts';

export const GET: APIRoute = async ({ site, locals, url }) =>
  sitemapResponse(await pagesSitemap(storefrontOf({ locals, url }).catalogue, siteOrigin({ site, locals })));
