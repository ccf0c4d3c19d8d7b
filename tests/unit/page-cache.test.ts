import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { shareableSeconds, withPageCache, type NodeHandler } from '../../scripts/lib/page-cache.ts';

let server: http.Server | undefined;
afterEach(() => server?.close());

/** Serves `handler` behind the page cache; `clock.now` is the cache's time in ms. */
async function serve(handler: NodeHandler, clock = { now: 0 }, changesPages?: (req: http.IncomingMessage) => boolean) {
  server = http.createServer(withPageCache(handler, { maxSeconds: 60, now: () => clock.now, ...(changesPages ? { changesPages } : {}) }));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, clock };
}

function countingPage(cacheControl: string, status = 200) {
  const calls = { n: 0 };
  const handler: NodeHandler = (req, res) => {
    if (req.method === 'POST') {
      res.statusCode = 201;
      res.end('stored');
      return;
    }
    calls.n++;
    res.statusCode = status;
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Content-Type', 'text/html');
    res.write('<p>page ');
    res.end(`${calls.n}</p>`);
  };
  return { handler, calls };
}

describe('shareableSeconds', () => {
  it.each([
    ['public, max-age=60, stale-while-revalidate=600', 60],
    ['public, max-age=0', 0],
    ['max-age=60', 0],
    ['public, max-age=60, private', 0],
    ['no-store', 0],
    [undefined, 0],
  ])('%s → %i', (header, seconds) => {
    expect(shareableSeconds(header)).toBe(seconds);
  });
});

describe('withPageCache', () => {
  it('answers a public page from memory until its max-age passes', async () => {
    const { handler, calls } = countingPage('public, max-age=30');
    const { base, clock } = await serve(handler);
    const first = await fetch(`${base}/shop?type=hot`);
    expect(first.headers.get('x-kirana-cache')).toBe('MISS');
    expect(await first.text()).toBe('<p>page 1</p>');
    const second = await fetch(`${base}/shop?type=hot`);
    expect(second.headers.get('x-kirana-cache')).toBe('HIT');
    expect(second.headers.get('content-type')).toBe('text/html');
    expect(await second.text()).toBe('<p>page 1</p>');
    expect(calls.n).toBe(1);
    clock.now += 31_000;
    expect(await (await fetch(`${base}/shop?type=hot`)).text()).toBe('<p>page 2</p>');
  });

  it('keeps pages apart by their query', async () => {
    const { handler, calls } = countingPage('public, max-age=30');
    const { base } = await serve(handler);
    await fetch(`${base}/product-detail?id=1`);
    await fetch(`${base}/product-detail?id=2`);
    expect(calls.n).toBe(2);
  });

  it('never keeps private pages, errors, or answers to requests with credentials', async () => {
    const priv = countingPage('private, max-age=30');
    let { base } = await serve(priv.handler);
    await fetch(`${base}/cart`);
    await fetch(`${base}/cart`);
    expect(priv.calls.n).toBe(2);
    server!.close();

    const missing = countingPage('public, max-age=30', 404);
    ({ base } = await serve(missing.handler));
    await fetch(`${base}/nothing`);
    await fetch(`${base}/nothing`);
    expect(missing.calls.n).toBe(2);
    server!.close();

    const page = countingPage('public, max-age=30');
    ({ base } = await serve(page.handler));
    await fetch(`${base}/`, { headers: { authorization: 'Bearer x' } });
    await fetch(`${base}/`, { headers: { authorization: 'Bearer x' } });
    expect(page.calls.n).toBe(2);
  });

  it('empties itself after a successful POST, which may have changed a page', async () => {
    const { handler, calls } = countingPage('public, max-age=30');
    const { base } = await serve(handler);
    await fetch(`${base}/product-detail?id=1`);
    await fetch(`${base}/api/Reviews`, { method: 'POST', body: '{}' });
    const after = await fetch(`${base}/product-detail?id=1`);
    expect(after.headers.get('x-kirana-cache')).toBe('MISS');
    expect(calls.n).toBe(2);
  });

  it('keeps its pages through writes that change no page', async () => {
    const { handler, calls } = countingPage('public, max-age=30');
    const { base } = await serve(handler, { now: 0 }, (req) => req.url === '/api/Reviews');
    await fetch(`${base}/`);
    await fetch(`${base}/api/app/ContactMessages`, { method: 'POST', body: '{}' });
    expect((await fetch(`${base}/`)).headers.get('x-kirana-cache')).toBe('HIT');
    expect(calls.n).toBe(1);
  });

  it('does not store a page whose render began before a write emptied the cache', async () => {
    let release: () => void = () => {};
    let renders = 0;
    const slowPage: NodeHandler = (req, res) => {
      if (req.method === 'POST') {
        res.statusCode = 201;
        res.end();
        return;
      }
      renders++;
      res.setHeader('Cache-Control', 'public, max-age=30');
      res.write('<p>old</p>');
      new Promise<void>((r) => (release = r)).then(() => res.end());
    };
    const { base } = await serve(slowPage);
    // The headers arrive once the render has begun (it has written its first chunk).
    const slow = await fetch(`${base}/product-detail?id=1`);
    await fetch(`${base}/api/Reviews`, { method: 'POST', body: '{}' });
    release();
    expect(await slow.text()).toBe('<p>old</p>');
    expect(renders).toBe(1);
    expect((await fetch(`${base}/product-detail?id=1`)).headers.get('x-kirana-cache')).toBe('MISS');
  });
});
