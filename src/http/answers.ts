// What the shop's server does to an answer before it is sent, on the answer itself (a web Response): the page's CSP
// with frame-ancestors, Vary, keeping it in the page cache, compressing it. One function for both kinds of answer: the
// API's (the Hono app, called by api-door.ts) and Astro's (handed to src/middleware.ts as Astro.locals.answer, Astro's
// public hook on the Response it is about to send). Nothing here patches a ServerResponse.
import type { OutgoingHttpHeaders } from 'node:http';
import { compressStream, isCompressible, MIN_COMPRESS_BYTES, type Encoding } from './compression.ts';
import { CACHE_HEADER, type CachedPage, type PageCache } from './page-cache.ts';
import { NO_FRAMING, NON_PAGE_CSP, SERVICE_WORKER_CSP, SERVICE_WORKER_PATH, SVG_CSP } from './security-headers.ts';

/** What the server knew of the request when it handed it on. */
export interface AnswerContext {
  url: string;
  method: string;
  /** The encoding the client takes best, if any. */
  encoding: Encoding | undefined;
  /** A GET without credentials, with the page cache on. */
  cacheable: boolean;
  /** The page cache's mark, taken before the answer was made (page-cache.ts). */
  mark: number;
  /** The tags of what the answer shows, asked for once it is made. */
  tags: () => Iterable<string>;
}

export type Shape = (response: Response) => Promise<Response>;

/** The page cache keeps one answer per URL: one that differs by other request headers (a picture's format by Accept,
 * its width by Save-Data) would be handed to the wrong browser. Accept-Encoding is the cache's own business. */
function variesOnlyByEncoding(headers: Headers): boolean {
  const vary = headers.get('vary');
  if (vary === null) return true;
  return vary.split(',').every((name) => ['', 'accept-encoding'].includes(name.trim().toLowerCase()));
}

/** Adds `value` to the Vary header unless it is there already. */
export function addVary(headers: Headers, value: string) {
  const current = headers.get('vary') ?? '';
  const names = current.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (names.includes('*') || names.includes(value.toLowerCase())) return;
  headers.set('Vary', current ? `${current}, ${value}` : value);
}

/** A body compressed at run time, whole (pages are rendered whole, API answers are small). */
function compressed(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = compressStream(encoding);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
    stream.end(body);
  });
}

function toOutgoing(headers: Headers, extra: Iterable<[string, string]>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of extra) out[name.toLowerCase()] = value;
  for (const [name, value] of headers) out[name] = value;
  for (const name of ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', CACHE_HEADER]) delete out[name];
  return out;
}

/**
 * The shaper of one server: `security` are the headers it sets on every answer (kept with a page in the cache, whose
 * hits are sent as stored); `pagePolicies` the CSP of each pre-rendered page (for a 304 of one).
 */
export function answerShaper(pageCache: PageCache, security: [string, string][], pagePolicies: Map<string, string>) {
  /** The entry's body as this client takes it: compressed (once per encoding) when it is text worth it. */
  const bodyFor = async (entry: CachedPage, encoding: Encoding | undefined) => {
    const compress = encoding && isCompressible(String(entry.headers['content-type'])) && entry.body.length >= MIN_COMPRESS_BYTES;
    return compress ? { body: await pageCache.encodedBody(entry, encoding), encoding } : { body: entry.body, encoding: undefined };
  };

  return async (response: Response, context: AnswerContext): Promise<Response> => {
    const { url, method, encoding } = context;
    const pathname = url.split('?')[0]!;
    const { status, statusText } = response;
    const headers = new Headers(response.headers);
    const contentType = headers.get('content-type') ?? '';
    const policy = headers.get('content-security-policy');
    if (policy !== null && !policy.includes('frame-ancestors')) {
      // frame-ancestors is a header's alone (a <meta> policy may not carry it), so it is added here, not in Astro.
      headers.set('Content-Security-Policy', `${policy.replace(/;?\s*$/, ';')} ${NO_FRAMING}`);
    } else if (policy === null) {
      // A 304 carries no Content-Type, and the browser keeps the headers it stored with the body, policy included,
      // unless the 304 names another: so a 304 gets the page's own policy or none.
      const pagePolicy = pagePolicies.get(pathname);
      if (pagePolicy && (status === 304 || contentType.startsWith('text/html'))) headers.set('Content-Security-Policy', pagePolicy);
      else if (status !== 304 && !contentType.startsWith('text/html')) {
        const own = pathname === SERVICE_WORKER_PATH ? SERVICE_WORKER_CSP : NON_PAGE_CSP;
        headers.set('Content-Security-Policy', contentType.startsWith('image/svg') ? SVG_CSP : own);
      }
    }
    const compressible = isCompressible(contentType) && !headers.has('content-encoding') && status !== 204 && status !== 304;
    if (compressible) addVary(headers, 'Accept-Encoding');
    const declared = headers.get('content-length');
    const length = declared === null ? undefined : Number(declared);
    const worthIt = compressible && encoding !== undefined && method !== 'HEAD' && (length === undefined || length >= MIN_COMPRESS_BYTES);
    const seconds = pageCache.keepSeconds(headers.get('cache-control') ?? '');
    const storable =
      context.cacheable && status === 200 && seconds > 0 && !headers.has('set-cookie') && !headers.has('content-encoding') &&
      variesOnlyByEncoding(headers) && (length === undefined || length <= pageCache.maxBodyBytes);
    if (!storable && !worthIt) return new Response(response.body, { status, statusText, headers });

    const body = Buffer.from(await response.arrayBuffer());
    if (storable && body.length <= pageCache.maxBodyBytes) {
      const entry = pageCache.put(url, context.mark, { status, headers: toOutgoing(headers, security), body }, seconds, context.tags());
      const sent = await bodyFor(entry, worthIt ? encoding : undefined);
      if (sent.encoding) headers.set('Content-Encoding', sent.encoding);
      headers.set('Content-Length', String(sent.body.length));
      headers.set(CACHE_HEADER, 'MISS');
      return new Response(method === 'HEAD' ? null : new Uint8Array(sent.body), { status, statusText, headers });
    }
    if (worthIt && encoding && body.length >= MIN_COMPRESS_BYTES) {
      const out = await compressed(body, encoding);
      headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(out.length));
      return new Response(new Uint8Array(out), { status, statusText, headers });
    }
    headers.set('Content-Length', String(body.length));
    return new Response(method === 'HEAD' ? null : new Uint8Array(body), { status, statusText, headers });
  };
}
