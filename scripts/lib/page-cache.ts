// A short-lived cache of public pages in front of the Astro handler. A hit is answered from memory without
// entering Astro's request pipeline, which on its own costs about as much as rendering a cached page.
// Only responses that say they may be shared (Cache-Control: public, max-age=N, no Set-Cookie) are kept,
// for at most N seconds (capped). A successful write that changes pages (`changesPages`, e.g. a new review)
// empties the cache, and a page whose render began before that write is not stored.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageCacheOptions {
  /** Upper bound on how long a page is kept, whatever its max-age says. */
  maxSeconds?: number;
  maxEntries?: number;
  maxBodyBytes?: number;
  now?: () => number;
  /** Whether a successful non-GET request may have changed pages (default: any). */
  changesPages?: (req: IncomingMessage) => boolean;
}

interface Entry {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  expires: number;
}

export const CACHE_HEADER = 'x-kirana-cache';

/** Seconds a response may be shared for, or 0 when it must not be kept. */
export function shareableSeconds(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (!directives.includes('public') || directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number.parseInt(maxAge.slice(8), 10) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

export function withPageCache(handler: NodeHandler, options: PageCacheOptions = {}): NodeHandler & { clear(): void } {
  const { maxSeconds = 60, maxEntries = 500, maxBodyBytes = 1_000_000, now = Date.now, changesPages = () => true } = options;
  const entries = new Map<string, Entry>();
  // Bumped by every clear: a render that began in an older generation may show what the write changed.
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
  };

  const cached: NodeHandler = (req, res) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      if (changesPages(req)) {
        res.on('finish', () => {
          if (res.statusCode < 400) clear();
        });
      }
      return handler(req, res);
    }
    // Requests that carry credentials might get a personal answer: never from or into the cache.
    if (req.headers.authorization || req.headers.cookie) return handler(req, res);

    const key = `${req.headers.host ?? ''}${req.url ?? '/'}`;
    const hit = entries.get(key);
    if (hit && hit.expires > now()) {
      // Most recently used last, so the oldest entry is the first one evicted.
      entries.delete(key);
      entries.set(key, hit);
      res.writeHead(hit.status, { ...hit.headers, [CACHE_HEADER]: 'HIT', 'content-length': hit.body.length });
      res.end(method === 'HEAD' ? undefined : hit.body);
      return;
    }
    if (hit) entries.delete(key);
    if (method === 'HEAD') return handler(req, res);

    res.setHeader(CACHE_HEADER, 'MISS');
    const startedIn = generation;
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size <= maxBodyBytes) chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      collect(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      collect(args[0], args[1]);
      const seconds = Math.min(maxSeconds, shareableSeconds(String(res.getHeader('cache-control') ?? '')));
      const storable = res.statusCode === 200 && seconds > 0 && size <= maxBodyBytes && !res.hasHeader('set-cookie');
      if (storable && startedIn === generation) {
        const headers = res.getHeaders();
        delete headers['transfer-encoding'];
        delete headers[CACHE_HEADER];
        entries.set(key, { status: 200, headers, body: Buffer.concat(chunks), expires: now() + seconds * 1000 });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return end(...args);
    }) as typeof res.end;
    handler(req, res);
  };
  return Object.assign(cached, { clear });
}
