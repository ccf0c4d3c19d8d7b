// The storefront's /api when API_URL names the API host: each request passed on to it, so browsers need no other address.
import { errorBody } from './errors.ts';

/** Request headers a pass-through must not copy: they describe this hop, not the request. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length'];

/**
 * The API host's URL for an /api route path: each segment decoded and re-encoded, dot segments refused,
 * and the result required to stay under API_URL, so a crafted path (`//other-host/…`, `../`) cannot make
 * the storefront fetch anything else. Null when the path is not one the API can have.
 */
export function upstreamUrl(apiUrl: string, path: string | undefined, search: string): URL | null {
  const base = new URL(apiUrl.replace(/\/?$/, '/'));
  let segments: string[];
  try {
    segments = (path ?? '').split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (segments.some((s) => s === '.' || s === '..')) return null;
  const target = new URL(segments.map(encodeURIComponent).join('/') + search, base);
  return target.origin === base.origin && target.pathname.startsWith(base.pathname) ? target : null;
}

/** `request` (to this shop's /api/…) passed to the API host, with the shopper's address as the hop it came from. */
export async function passToApiHost(apiUrl: string, request: Request, clientAddress: string): Promise<Response> {
  const url = new URL(request.url);
  const target = upstreamUrl(apiUrl, url.pathname.replace(/^\/api\/?/, ''), url.search);
  if (!target) return Response.json(errorBody('bad_request', 'Not an API path'), { status: 400 });
  const headers = new Headers(request.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  headers.set('x-forwarded-for', clientAddress);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    console.error(`[kirana] the API at ${target.origin} did not answer`, error);
    return Response.json(errorBody('unavailable', 'The shop cannot reach its catalogue right now. Please try again shortly.'), {
      status: 503,
      headers: { 'Retry-After': '30' },
    });
  }
  // fetch has already decoded the body: the length and encoding of the upstream bytes no longer apply.
  const responseHeaders = new Headers(upstream.headers);
  responseHeaders.delete('content-encoding');
  responseHeaders.delete('content-length');
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}
