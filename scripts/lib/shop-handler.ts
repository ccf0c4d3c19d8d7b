// What the shop's server does around the Astro handler on every request: refuse a malformed Host, set the
// security headers, answer OPTIONS briefly, send pre-compressed build assets, answer shared pages from the
// page cache (which the invalidation bus empties of what each write made stale: scripts/serve.ts), compress text
// answers.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { bodyLimitOf, tooLargeMessage } from '../../src/server/body-limits.ts';
import {
  chooseEncoding,
  compressStream,
  HASHED_ASSETS_DIR,
  IMMUTABLE_CACHE_CONTROL,
  isCompressible,
  MIN_COMPRESS_BYTES,
  PRECOMPRESSED_TYPES,
  preCompressedPath,
  type Encoding,
} from './compression.ts';
import { CACHE_HEADER, PageCache, type CachedPage } from './page-cache.ts';
import { addVary, onResponseHead, type BodySink, type RawResponse } from './response-hook.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ShopHandlerOptions {
  /** dist/client: where the pre-compressed assets are. */
  clientDir: string;
  pageCache: PageCache;
  /** SITE_URL: HSTS is sent when it is https. */
  siteUrl: string | undefined;
  /** /readyz: true when the shop can serve, else why not (draining, the database out of reach). Unset: always ready. */
  ready?: () => Promise<true | string>;
  /** The tags of what a request's answer shows, to keep it under in the page cache (src/server/cache/stale-after.ts). */
  cacheTags?: (req: IncomingMessage) => Iterable<string>;
}

/**
 * How much more than its route takes a refused body may be and still be read (and thrown away) before its 413, so
 * that the client, still sending, reads the answer rather than a reset: a server that closes a connection with unread
 * bytes makes the kernel send a reset, which also drops the answer the client had not read yet. 8 MB over covers any
 * body sent by mistake (a phone photo in a form, 2 to 6 MB; a grocer's photo just over its 25 MB) at a cost of
 * bandwidth only; past it, or for a length that is not given, the shop answers at once and closes, and the client may
 * then see a reset.
 */
export const REFUSED_BODY_DISCARD_BYTES = 8 * 1024 * 1024;

const NO_FRAMING = "frame-ancestors 'none';";
const META_CSP = /<meta http-equiv="content-security-policy" content="([^"]*)"/i;

/**
 * The CSP of each pre-rendered page (dist/client/**\/index.html), read once from its <meta>, to be sent as a header
 * too, with frame-ancestors: a <meta> policy cannot forbid framing.
 */
export function prerenderedPolicies(clientDir: string): Map<string, string> {
  const policies = new Map<string, string>();
  for (const file of fs.readdirSync(clientDir, { recursive: true }) as string[]) {
    if (path.basename(file) !== 'index.html') continue;
    const policy = META_CSP.exec(fs.readFileSync(path.join(clientDir, file), 'utf8'))?.[1];
    if (!policy) continue;
    const dir = path.dirname(file).split(path.sep).join('/');
    const withFraming = `${policy.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/;?\s*$/, ';')} ${NO_FRAMING}`;
    for (const pathname of dir === '.' ? ['/'] : [`/${dir}`, `/${dir}/`]) policies.set(pathname, withFraming);
  }
  return policies;
}

/** Features the shop never uses, turned off for it and anything it might embed (only features Chromium knows: an
 * unknown one is a console warning on every page). */
const PERMISSIONS_POLICY = [
  'accelerometer', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'hid', 'magnetometer',
  'microphone', 'midi', 'payment', 'serial', 'usb', 'xr-spatial-tracking', 'browsing-topics',
].map((feature) => `${feature}=()`).join(', ');

/** For answers that are not pages (API JSON, files): they load nothing and may not be framed. */
const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";
/** An SVG opened by itself may use its own styles, nothing else. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
/** The service worker (issue 26): its script's policy is the worker's own, and it fetches the shop's files to keep them. */
export const SERVICE_WORKER_PATH = '/sw.js';
const SERVICE_WORKER_CSP = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

export function securityHeaders(siteUrl: string | undefined): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'X-Frame-Options': 'DENY',
    // Pictures come smallest on a 2G connection (issue 26): the browser says its effective type on the requests that
    // follow (the ECT client hint), which the picture route reads like Save-Data. Pages themselves do not vary by it.
    'Accept-CH': 'ECT',
    ...(siteUrl?.startsWith('https:') ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** A Host header that is a host name or address with an optional port, and nothing else (no user, path, spaces). */
export function isValidHost(host: string | undefined): boolean {
  if (!host || host.length > 255) return false;
  try {
    return new URL(`http://${host}`).host === host.toLowerCase().replace(/:80$/, '');
  } catch {
    return false;
  }
}

/** isValidHost, remembered for the few hosts a shop sees (parsing a URL per request costs a hit a tenth of its rate). */
function hostChecker(): (host: string | undefined) => boolean {
  const known = new Map<string, boolean>();
  return (host) => {
    if (host === undefined) return false;
    let valid = known.get(host);
    if (valid === undefined) {
      valid = isValidHost(host);
      // Bounded: a client sending endless made-up hosts only makes them parsed again.
      if (known.size < 256) known.set(host, valid);
    }
    return valid;
  };
}

/** The page cache keeps one answer per URL: one that differs by other request headers (a picture's format by Accept,
 * its width by Save-Data) would be handed to the wrong browser. Accept-Encoding is the cache's own business. */
function variesOnlyByEncoding(res: ServerResponse): boolean {
  const vary = res.getHeader('vary');
  if (vary === undefined) return true;
  return String(vary).split(',').every((name) => ['', 'accept-encoding'].includes(name.trim().toLowerCase()));
}

function sendJsonError(res: ServerResponse, status: number, code: string, message: string) {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Content-Security-Policy': NON_PAGE_CSP });
  res.end(body);
}

/** A refused body's answer, after its bytes (up to REFUSED_BODY_DISCARD_BYTES over its route's limit) are read and
 * dropped; then the connection closes, as the refusal leaves nothing to go on with. */
function refuseBody(req: IncomingMessage, res: ServerResponse, pathname: string, refusal: { status: number; code: string; message: string }) {
  res.setHeader('Connection', 'close');
  const answer = () => {
    if (!res.headersSent) sendJsonError(res, refusal.status, refusal.code, refusal.message);
  };
  const length = Number(req.headers['content-length']);
  if (!(length <= bodyLimitOf(pathname) + REFUSED_BODY_DISCARD_BYTES)) return answer();
  req.on('data', () => {});
  req.once('end', answer);
  req.once('error', () => res.destroy());
}

/** /healthz: the process serves. /readyz: it can take shoppers (scripts/serve.ts says what that means). Plain text,
 * never kept by a cache, and never through the page cache or Astro. */
async function answerProbe(req: IncomingMessage, res: ServerResponse, probe: '/healthz' | '/readyz', ready: ShopHandlerOptions['ready']) {
  const verdict = probe === '/healthz' || !ready ? true : await ready();
  const body = verdict === true ? 'ok\n' : `not ready: ${verdict}\n`;
  res.writeHead(verdict === true ? 200 : 503, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': NON_PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** Pages take GET, HEAD and POST (forms); the API also PUT and DELETE (its routes in src/server/routes/). */
export const PAGE_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'];
export const API_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'];

/**
 * Any other method is a 405 here, before the adapter: it builds a fetch Request of every request, and the fetch
 * standard forbids TRACE and TRACK (a TypeError, so a 500 with a stack in the log), while static files answered
 * PROPFIND or TRACE with the file.
 */
function refuseMethod(res: ServerResponse, method: string, api: boolean) {
  const allow = (api ? API_METHODS : PAGE_METHODS).join(', ');
  res.setHeader('Allow', allow);
  if (api) return sendJsonError(res, 405, 'method_not_allowed', `The API does not take ${method} requests; it takes ${allow}.`);
  const body = `${method} is not allowed here; the shop's pages take ${allow}.`;
  res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Content-Security-Policy': NON_PAGE_CSP });
  res.end(body);
}

/** CONNECT never reaches the request handler (Node hands it the raw socket, and closes it when nobody listens). */
export function refuseConnect(_req: IncomingMessage, socket: Duplex) {
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${PAGE_METHODS.join(', ')}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}

/**
 * Why a request's body is refused before anything reads it, if it is: larger than its route takes (the grocer's
 * uploads take megabytes, a form kilobytes: src/server/body-limits.ts), or of a length not given. Node reads exactly
 * Content-Length bytes, so the adapter's own limit (the largest) is never reached; a chunked body could only be
 * counted while Astro reads it, and no client of the shop sends one.
 */
function bodyRefusal(req: IncomingMessage, pathname: string): { status: number; code: string; message: string } | undefined {
  const length = req.headers['content-length'];
  if (length === undefined) {
    return req.headers['transfer-encoding'] === undefined
      ? undefined
      : { status: 411, code: 'length_required', message: 'A request body needs its Content-Length' };
  }
  const max = bodyLimitOf(pathname);
  return Number(length) > max ? { status: 413, code: 'payload_too_large', message: tooLargeMessage(max) } : undefined;
}

/** /_astro/name.ext → its .br or .gz file, when the build wrote one (looked up once per file). */
function precompressedAssets(clientDir: string) {
  const found = new Map<string, { file: string; size: number } | null>();
  const ASSET = new RegExp(`^/${HASHED_ASSETS_DIR}/[\\w.-]+$`);
  return (pathname: string, encoding: Encoding) => {
    if (!ASSET.test(pathname)) return null;
    const file = preCompressedPath(path.join(clientDir, pathname), encoding);
    if (!found.has(file)) {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      found.set(file, stat?.isFile() ? { file, size: stat.size } : null);
    }
    return found.get(file)!;
  };
}

/** Sends the body through the compressor as it comes: its length is known only at the end. */
function streamOut(res: ServerResponse, raw: RawResponse, encoding: Encoding): BodySink {
  res.removeHeader('content-length');
  res.setHeader('Content-Encoding', encoding);
  raw.writeHead();
  const stream = compressStream(encoding);
  stream.on('data', (chunk: Buffer) => raw.write(chunk));
  stream.on('end', () => raw.end());
  return { write: (chunk) => void stream.write(chunk), end: () => void stream.end() };
}

function passThrough(raw: RawResponse): BodySink {
  raw.writeHead();
  return { write: (chunk) => raw.write(chunk), end: () => raw.end() };
}

export function createShopHandler(astro: NodeHandler, { clientDir, pageCache, siteUrl, ready, cacheTags = () => [] }: ShopHandlerOptions): NodeHandler {
  const security = Object.entries(securityHeaders(siteUrl));
  const pagePolicies = prerenderedPolicies(clientDir);
  const validHost = hostChecker();
  const findAsset = precompressedAssets(clientDir);

  /** The entry's body as this shopper takes it: compressed (once per encoding) when it is text worth it. */
  const bodyFor = async (entry: CachedPage, encoding: Encoding | undefined) => {
    const compress = encoding && isCompressible(String(entry.headers['content-type'])) && entry.body.length >= MIN_COMPRESS_BYTES;
    return compress ? { body: await pageCache.encodedBody(entry, encoding), encoding } : { body: entry.body, encoding: undefined };
  };

  /** The head of a hit, flat as writeHead takes it (the stored headers already hold the security headers). */
  const headOf = (entry: CachedPage, encoding: Encoding | undefined, length: number): string[] => {
    entry.heads ??= new Map();
    let head = entry.heads.get(encoding ?? '');
    if (!head) {
      head = [];
      for (const [name, value] of Object.entries(entry.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) head.push(name, String(one));
      }
      if (encoding) head.push('Content-Encoding', encoding);
      head.push('Content-Length', String(length), CACHE_HEADER, 'HIT');
      entry.heads.set(encoding ?? '', head);
    }
    return head;
  };

  const sendCached = async (req: IncomingMessage, res: ServerResponse, entry: CachedPage, accepted: Encoding | undefined) => {
    const { body, encoding } = await bodyFor(entry, accepted);
    res.writeHead(entry.status, headOf(entry, encoding, body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  /** Shapes Astro's answer at the moment it sends its head: cache it, compress it, or let it through. */
  const shapeAnswer = (req: IncomingMessage, res: ServerResponse, encoding: Encoding | undefined, cacheable: boolean) => {
    const url = req.url ?? '/';
    const mark = pageCache.mark();
    onResponseHead(res, (raw: RawResponse): BodySink | undefined => {
      const method = req.method ?? 'GET';

      const contentType = String(res.getHeader('content-type') ?? '');
      if (res.hasHeader('content-security-policy')) {
        // frame-ancestors is a header's alone (a <meta> policy may not carry it), so it is added here, not in Astro.
        res.setHeader('Content-Security-Policy', `${String(res.getHeader('content-security-policy')).replace(/;?\s*$/, ';')} ${NO_FRAMING}`);
      } else {
        // Astro puts the page's own policy (with its script and style hashes) on every page it renders; a
        // pre-rendered page has it in its <meta>, read at start.
        // A 304 carries no Content-Type, and the browser keeps the headers it stored with the body, policy included,
        // unless the 304 names another: so a 304 gets the page's own policy or none.
        const pagePolicy = pagePolicies.get(url.split('?')[0]!);
        if (pagePolicy && (res.statusCode === 304 || contentType.startsWith('text/html'))) res.setHeader('Content-Security-Policy', pagePolicy);
        else if (res.statusCode !== 304 && !contentType.startsWith('text/html')) {
          const policy = url.split('?')[0] === SERVICE_WORKER_PATH ? SERVICE_WORKER_CSP : NON_PAGE_CSP;
          res.setHeader('Content-Security-Policy', contentType.startsWith('image/svg') ? SVG_CSP : policy);
        }
      }
      const compressible = isCompressible(contentType) && !res.hasHeader('content-encoding') && res.statusCode !== 204 && res.statusCode !== 304;
      if (compressible) addVary(res, 'Accept-Encoding');
      const length = res.hasHeader('content-length') ? Number(res.getHeader('content-length')) : undefined;
      const worthIt = compressible && encoding !== undefined && method !== 'HEAD' && (length === undefined || length >= MIN_COMPRESS_BYTES);

      const seconds = pageCache.keepSeconds(String(res.getHeader('cache-control') ?? ''));
      const storable =
        cacheable && res.statusCode === 200 && seconds > 0 && !res.hasHeader('set-cookie') && !res.hasHeader('content-encoding') &&
        variesOnlyByEncoding(res) &&
        (length === undefined || length <= pageCache.maxBodyBytes);
      if (storable) return storeThenSend(res, raw, url, mark, seconds, cacheTags(req), worthIt ? encoding : undefined);
      return worthIt ? streamOut(res, raw, encoding) : undefined;
    });
  };

  /** Collects a page that will be kept, stores it, and sends it (compressed once if the shopper takes it). A body
   * of unknown length that outgrows the cache's limit is not kept: it goes out as it comes. */
  const storeThenSend = (
    res: ServerResponse, raw: RawResponse, url: string, mark: number, seconds: number, tags: Iterable<string>, encoding: Encoding | undefined,
  ): BodySink => {
    let chunks: Buffer[] = [];
    let size = 0;
    let overflow: BodySink | undefined;
    return {
      write: (chunk) => {
        if (overflow) return overflow.write(chunk);
        chunks.push(chunk);
        size += chunk.length;
        if (size <= pageCache.maxBodyBytes) return;
        overflow = encoding ? streamOut(res, raw, encoding) : passThrough(raw);
        for (const buffered of chunks) overflow.write(buffered);
        chunks = [];
      },
      end: () => {
        if (overflow) return overflow.end();
        const headers = res.getHeaders();
        for (const name of ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', CACHE_HEADER]) delete headers[name];
        const entry = pageCache.put(url, mark, { status: res.statusCode, headers, body: Buffer.concat(chunks) }, seconds, tags);
        res.setHeader(CACHE_HEADER, 'MISS');
        bodyFor(entry, encoding).then(
          ({ body, encoding }) => {
            if (encoding) res.setHeader('Content-Encoding', encoding);
            res.setHeader('Content-Length', body.length);
            raw.writeHead();
            raw.end(body);
          },
          () => res.destroy(),
        );
      },
    };
  };

  return (req, res) => {
    // First, and whatever the Host: a balancer's checks may name the instance by its address.
    if ((req.url === '/healthz' || req.url === '/readyz') && (req.method === 'GET' || req.method === 'HEAD')) {
      void answerProbe(req, res, req.url, ready).catch(() => res.destroy());
      return;
    }
    if (!validHost(req.headers.host)) {
      for (const [name, value] of security) res.setHeader(name, value);
      return sendJsonError(res, 400, 'bad_host', 'The Host header is not a valid host name.');
    }
    const method = req.method ?? 'GET';
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    // Credentials might get a personal answer: never from or into the cache. The shop sets no cookies
    // (sign-in lives in localStorage), so a Cookie header changes nothing and does not bypass it.
    const cacheable = (method === 'GET' || method === 'HEAD') && !req.headers.authorization && pageCache.maxSeconds > 0;
    // A hit first: its stored head already holds the security headers.
    const hit = cacheable ? pageCache.get(req.url ?? '/') : undefined;
    if (hit) {
      void sendCached(req, res, hit, encoding).catch(() => res.destroy());
      return;
    }
    for (const [name, value] of security) res.setHeader(name, value);
    const url = req.url ?? '/';
    const api = isApiPath(url);
    if (!(api ? API_METHODS : PAGE_METHODS).includes(method)) return refuseMethod(res, method, api);
    // The API answers its own OPTIONS (CORS preflight).
    if (method === 'OPTIONS' && !api) {
      res.writeHead(204, { Allow: PAGE_METHODS.join(', ') });
      return res.end();
    }
    const pathname = url.split('?')[0]!;
    const refusal = method === 'GET' || method === 'HEAD' ? undefined : bodyRefusal(req, pathname);
    if (refusal) return refuseBody(req, res, pathname, refusal);
    if ((method === 'GET' || method === 'HEAD') && encoding) {
      const asset = findAsset(pathname, encoding);
      const type = PRECOMPRESSED_TYPES[path.extname(pathname)];
      if (asset && type) {
        res.writeHead(200, {
          'Content-Type': type,
          'Content-Encoding': encoding,
          'Content-Length': asset.size,
          'Cache-Control': IMMUTABLE_CACHE_CONTROL,
          'Content-Security-Policy': type.startsWith('image/svg') ? SVG_CSP : NON_PAGE_CSP,
          Vary: 'Accept-Encoding',
        });
        if (method === 'HEAD') return res.end();
        fs.createReadStream(asset.file).on('error', () => res.destroy()).pipe(res);
        return;
      }
    }
    shapeAnswer(req, res, encoding, cacheable && method === 'GET');
    astro(req, res);
  };
}
