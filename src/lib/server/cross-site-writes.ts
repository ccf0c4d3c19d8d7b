// The shop's CSRF check: Astro's `security.checkOrigin` rule, done in src/middleware.ts (the option is off in
// astro.config.mjs) so that the API refuses in its own JSON shape rather than Astro's text/plain 403.

/** What a form can send from another site without a CORS preflight. */
const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * A write this site's pages did not send: a form-like body, or no body at all, with an Origin other than the
 * shop's (or none). A JSON body cannot come from another site's form, and fetch sends its Origin anyway.
 */
export function isCrossSiteWrite(request: Request, origin: string): boolean {
  if (SAFE_METHODS.includes(request.method)) return false;
  if (request.headers.get('origin') === origin) return false;
  const type = request.headers.get('content-type');
  if (type === null) return true;
  return FORM_CONTENT_TYPES.some((form) => type.toLowerCase().includes(form));
}

/** The API's JSON error under /api; elsewhere the same text Astro's own check sends. */
export function crossSiteWriteRefused(request: Request, pathname: string): Response {
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    return Response.json(
      { error: { code: 'forbidden', message: `A ${request.method} from another site is refused: send it from the shop, with the shop's Origin header.` } },
      { status: 403, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  return new Response(`Cross-site ${request.method} form submissions are forbidden`, { status: 403 });
}
