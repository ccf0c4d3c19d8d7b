import type { APIRoute } from 'astro';
import { siteOrigin } from '../lib/server/site.ts';
import { urls } from '../lib/urls.ts';

export const GET: APIRoute = ({ site, locals }) => {
  const sitemap = new URL(urls.sitemap(), siteOrigin({ site, locals })).toString();
  return new Response(`User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /cart\nDisallow: /checkout\nDisallow: /myaccount\nDisallow: /manage\n\nSitemap: ${sitemap}\n`, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};
