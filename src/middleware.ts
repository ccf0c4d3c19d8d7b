import { defineMiddleware } from 'astro:middleware';
import { isApiUnavailable } from './lib/api/errors.ts';

// A page that cannot reach the API answers 503 with a friendly page rather than the 500 page.
export const onRequest = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    if (!isApiUnavailable(error) || context.url.pathname === '/503') throw error;
    console.error(`[kirana] ${context.url.pathname}${context.url.search}: the API is unavailable`, error);
    return context.rewrite('/503');
  }
});
