// /api inside the Astro server: the embedded Hono API by default (one process), or, when API_URL names an
// API host, a pass-through to it, so browsers need no other address.
import type { APIRoute } from 'astro';
import { shopSettings } from '../../server/config.ts';
import { errorBody } from '../../server/errors.ts';
import { CLIENT_IP_HEADER } from '../../lib/api/headers.ts';
import { fetchEmbedded } from '../../server/runtime.ts';
import { upstreamUrl } from '../../lib/server/upstream.ts';
import { shopperAddress } from '../../lib/server/client-address.ts';

export const prerender = false;

/** Request headers a pass-through must not copy: they describe this hop, not the request. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length'];

async function forward(request: Request, target: URL, clientAddress: string): Promise<Response> {
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

export const ALL: APIRoute = async ({ request, clientAddress: socketAddress, params, url }) => {
  const { apiUrl } = shopSettings();
  // The socket's peer, or behind a proxy of ours (TRUST_PROXY) the address it forwards: never what the client says.
  const clientAddress = shopperAddress(request.headers.get('x-forwarded-for'), socketAddress);
  if (apiUrl) {
    const target = upstreamUrl(apiUrl, params.path, url.search);
    if (!target) return Response.json(errorBody('bad_request', 'Not an API path'), { status: 400 });
    return forward(request, target, clientAddress);
  }
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, clientAddress);
  return fetchEmbedded(new Request(request, { headers }));
};
