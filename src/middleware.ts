import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { isApiUnavailable } from './lib/api/errors.ts';
import { crossSiteWriteRefused, isCrossSiteWrite } from './lib/server/cross-site-writes.ts';

/**
 * Astro's `Astro.response` starts as 200 'OK' and keeps that reason phrase when a page sets only the status
 * (`Astro.response.status = 404`), so Node sent `HTTP/1.1 404 OK`. An empty statusText lets Node write the
 * standard phrase for the status ('Not Found', 'Bad Request', 'Service Unavailable').
 */
function withStandardReason(response: Response): Response {
  if (response.status === 200 || response.statusText !== 'OK') return response;
  return new Response(response.body, { status: response.status, headers: response.headers });
}

async function devStorefront() {
  const { devShop } = await import('./dev-shop.ts');
  return (await devShop()).storefront();
}

// A page that cannot reach the API answers 503 with a friendly page rather than the 500 page. Every answer is handed
// to the server's shaping (Astro.locals.answer: src/http/answers.ts) before Astro sends it.
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await answer(context, next);
  return context.locals.answer ? context.locals.answer(response) : response;
});

async function answer(context: APIContext, next: MiddlewareNext): Promise<Response> {
  // The built shop gets its shop from its server (src/http/shop-server.ts); `astro dev` makes one here (left out of the build).
  if (import.meta.env.DEV && !context.isPrerendered) context.locals.shop ??= await devStorefront();
  // CSRF (Astro's checkOrigin, done here; the server does it for /api, in its JSON shape). Pre-rendered pages take no writes.
  if (!context.isPrerendered && isCrossSiteWrite(context.request, context.url.origin)) {
    return crossSiteWriteRefused(context.request, context.url.pathname);
  }
  try {
    return withStandardReason(await next());
  } catch (error) {
    const unavailable = isApiUnavailable(error) || context.locals.shop?.isUnavailable(error);
    if (!unavailable || context.url.pathname === '/503') throw error;
    console.error(`[kirana] ${context.url.pathname}${context.url.search}: the API is unavailable`, error);
    return withStandardReason(await context.rewrite('/503'));
  }
}
