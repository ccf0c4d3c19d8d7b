// The shop's HTTP stack, around whatever answers (the API, Astro, the build's files), on every request: the probes, the
// Host check, the security headers, allowed methods, the page cache's hits, and the answer's shaping (answers.ts). /api
// goes to the API before Astro (api-door.ts), which checks its own input; pages are checked here, once: the body's length
// before Astro reads it, and an address with a broken %-escape shown the 400 page. `npm run api` is the same stack
// without the site (api-server.ts); the shop's (shop-server.ts) has it.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { bodyLimitOf, tooLargeMessage } from '../server/body-limits.ts';
import { isWellEncoded } from '../server/errors.ts';
import { answerShaper, type AnswerContext } from './answers.ts';
import { apiDoor, REFUSED_BODY_DISCARD_BYTES, type ApiDoorOptions } from './api-door.ts';
import {
  chooseEncoding,
  HASHED_ASSETS_DIR,
  IMMUTABLE_CACHE_CONTROL,
  PRECOMPRESSED_TYPES,
  preCompressedPath,
  isCompressible,
  MIN_COMPRESS_BYTES,
  type Encoding,
} from './compression.ts';
import { CACHE_HEADER, API_ANSWERS_TAG, PageCache, type CachedPage } from './page-cache.ts';
import { NON_PAGE_CSP, prerenderedPolicies, securityHeaders, SVG_CSP } from './security-headers.ts';
import { staticFiles } from './static-files.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** An answer shaped by the server (answers.ts), with the tags of what it shows for the page cache. */
export type Answer = (response: Response, tags: Iterable<string>) => Promise<Response>;

/** The site: the build's files and Astro's pages. */
export interface Site {
  /** dist/client: the build's files, some with compressed twins. */
  clientDir: string;
  /** Renders a page; Astro hands its Response to `answer` (src/middleware.ts) before sending it. */
  render: (req: IncomingMessage, res: ServerResponse, answer: (response: Response, tags: Iterable<string>) => Promise<Response>) => void;
}

export interface ShopHandlerOptions {
  pageCache: PageCache;
  /** /api: the API, reached before the site. */
  api: ApiDoorOptions;
  /** The pages and files; unset (`npm run api`): anything but /api and the probes is a JSON 404. */
  site?: Site;
  /** SITE_URL: HSTS is sent when it is https. */
  siteUrl: string | undefined;
  /** /readyz: true when the shop can serve, else why not (draining, the database out of reach). Unset: always ready. */
  ready?: () => Promise<true | string>;
}

/** The page (src/pages/400.astro) a shopper sees for an address with a broken %-escape (the API answers its own). */
export const BAD_REQUEST_PAGE = '/400';

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
 * Why a page's form post is refused before Astro reads it, if it is: larger than a page takes (src/server/body-limits.ts),
 * or of a length not given. Node reads exactly Content-Length bytes, so the adapter's own limit is never reached; a
 * chunked body could only be counted while Astro reads it, and no form of the shop sends one.
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

export function createShopHandler({ pageCache, api, site, siteUrl, ready }: ShopHandlerOptions): NodeHandler {
  const security = Object.entries(securityHeaders(siteUrl));
  const pagePolicies = site ? prerenderedPolicies(site.clientDir) : new Map<string, string>();
  const validHost = hostChecker();
  const findAsset = site ? precompressedAssets(site.clientDir) : () => null;
  const shape = answerShaper(pageCache, security, pagePolicies);

  /** What the shaping of a request's answer needs to know of it, taken when it arrives (the page cache's mark). */
  const contexts = new WeakMap<IncomingMessage, Omit<AnswerContext, 'tags'>>();
  const contextOf = (req: IncomingMessage): Omit<AnswerContext, 'tags'> => {
    let context = contexts.get(req);
    if (!context) {
      const method = req.method ?? 'GET';
      // Credentials might get a personal answer: never from or into the cache. The shop sets no cookies for shoppers
      // (sign-in lives in localStorage), so a Cookie header changes nothing and does not bypass it.
      const cacheable = method === 'GET' && !req.headers.authorization && pageCache.maxSeconds > 0;
      context = { url: req.url ?? '/', method, encoding: chooseEncoding(req.headers['accept-encoding']), cacheable, mark: pageCache.mark() };
      contexts.set(req, context);
    }
    return context;
  };

  // The API's answers carry no tags of what they show: any write forgets them all (page-cache.ts).
  const toApi = apiDoor(api, (req) => {
    const context = contextOf(req);
    return (response) => shape(response, { ...context, tags: () => [API_ANSWERS_TAG] });
  });
  const toSite = site
    ? staticFiles(
        site.clientDir,
        (req, res) => {
          const context = contextOf(req);
          site.render(req, res, (response, tags) => shape(response, { ...context, tags: () => tags }));
        },
        { encodingOf: (req) => contextOf(req).encoding, pagePolicies },
      )
    : undefined;

  const sendCached = async (req: IncomingMessage, res: ServerResponse, entry: CachedPage, accepted: Encoding | undefined) => {
    const compress = accepted && isCompressible(String(entry.headers['content-type'])) && entry.body.length >= MIN_COMPRESS_BYTES;
    const body = compress ? await pageCache.encodedBody(entry, accepted) : entry.body;
    res.writeHead(entry.status, headOf(entry, compress ? accepted : undefined, body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
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
    const url = req.url ?? '/';
    // A hit first: its stored head already holds the security headers.
    const { cacheable, encoding } = contextOf(req);
    const hit = (cacheable || (method === 'HEAD' && !req.headers.authorization && pageCache.maxSeconds > 0)) ? pageCache.get(url) : undefined;
    if (hit) {
      void sendCached(req, res, hit, encoding).catch(() => res.destroy());
      return;
    }
    for (const [name, value] of security) res.setHeader(name, value);
    const api = isApiPath(url);
    if (!(api ? API_METHODS : PAGE_METHODS).includes(method)) return refuseMethod(res, method, api);
    if (api) return toApi(req, res);
    if (!toSite) return sendJsonError(res, 404, 'not_found', `No API route for ${method} ${url.split('?')[0]}`);
    if (method === 'OPTIONS') {
      res.writeHead(204, { Allow: PAGE_METHODS.join(', ') });
      return res.end();
    }
    const pathname = url.split('?')[0]!;
    const refusal = method === 'GET' || method === 'HEAD' ? undefined : bodyRefusal(req, pathname);
    if (refusal) return refuseBody(req, res, pathname, refusal);
    // Astro renders the 400 page in place of an address it could not read.
    if (!isWellEncoded(url)) req.url = BAD_REQUEST_PAGE;
    else if ((method === 'GET' || method === 'HEAD') && encoding) {
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
    toSite(req, res);
  };
}

/** The head of a hit, flat as writeHead takes it (the stored headers already hold the security headers), made once
 * per encoding. */
function headOf(entry: CachedPage, encoding: Encoding | undefined, length: number): string[] {
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
}
