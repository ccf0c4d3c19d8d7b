// The built server as a production web server: compression, security headers, an untrusted Host and a page
// cache nobody can abuse. Raw HTTP (node:http), so nothing decodes, adds or hides a header on the way.
import http from 'node:http';
import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent (still compressed). */
  raw: Buffer;
  /** Decoded. */
  text: string;
}

function send(url: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
        resolve({ status: res.statusCode!, headers: res.headers, raw, text: decoded.toString() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SITE = 'https://shop.example.in';
let shop: BuiltServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startBuiltServer({ env: { SITE_URL: SITE } });
});
test.afterAll(async () => {
  await shop?.stop();
});

async function someProductIds(count: number): Promise<number[]> {
  const hot = JSON.parse((await send(`${shop.url}/api/app/Products/LoadProductsByPriorityTag`)).text) as { id: number }[];
  return hot.slice(0, count).map((p) => p.id);
}

test.describe('compression', () => {
  test('pages, the API, files and errors are sent with brotli, or gzip when that is all the browser takes', async () => {
    const [id] = await someProductIds(1);
    for (const path of ['/', `/product-detail?id=${id}`, '/about', '/api/app/Products/LoadProductsByPriorityTag', '/sitemap-products-1.xml', '/no-such-page']) {
      const br = await send(`${shop.url}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers.vary, path).toMatch(/accept-encoding/i);
      expect(br.raw.length, path).toBeLessThan(Buffer.byteLength(br.text));
      const gzip = await send(`${shop.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(gzip.text, path).toBe(br.text);
      const plain = await send(`${shop.url}${path}`);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.text.length, path).toBe(br.text.length);
    }
  });

  test('a product page is under 15 KB on the wire, from the cache as on the first render', async () => {
    const [, id] = await someProductIds(2);
    const first = await send(`${shop.url}/product-detail?id=${id}`, { headers: { 'accept-encoding': 'br' } });
    const again = await send(`${shop.url}/product-detail?id=${id}`, { headers: { 'accept-encoding': 'br' } });
    expect(first.headers['x-kirana-cache']).toBe('MISS');
    expect(again.headers['x-kirana-cache']).toBe('HIT');
    expect(again.headers['content-encoding']).toBe('br');
    expect(Number(again.headers['content-length'])).toBe(again.raw.length);
    expect(again.raw.length).toBeLessThan(15_000);
    expect(again.text).toBe(first.text);
  });

  test('hashed build assets are pre-compressed and immutable', async () => {
    const home = (await send(`${shop.url}/`)).text;
    const asset = /\/_astro\/[\w.-]+\.js/.exec(home)?.[0];
    expect(asset).toBeDefined();
    const br = await send(`${shop.url}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await send(`${shop.url}${asset}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.text).toBe(plain.text);
  });
});

test.describe('security headers', () => {
  test('every kind of answer carries them, with HSTS as SITE_URL is https', async () => {
    const [id] = await someProductIds(1);
    const answers = await Promise.all(
      ['/', `/product-detail?id=${id}`, '/about', '/api/app/Brands/LoadBrandsByPriority?take=1', '/api/app/Products/abc', '/favicon.svg', '/no-such-page'].map(
        async (path) => [path, await send(`${shop.url}${path}`)] as const,
      ),
    );
    for (const [path, { headers }] of answers) {
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(headers['cross-origin-opener-policy'], path).toBe('same-origin');
      expect(headers['permissions-policy'], path).toContain('camera=()');
      expect(headers['strict-transport-security'], path).toMatch(/max-age=\d+/);
      expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(headers['x-kirana-changed-pages'], path).toBeUndefined();
    }
  });

  test("a 304 keeps the page's policy: a reload of a pre-rendered page still runs its scripts", async () => {
    for (const path of ['/about', '/myaccount']) {
      const first = await send(`${shop.url}${path}`);
      const etag = String(first.headers.etag);
      const again = await send(`${shop.url}${path}`, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      // The browser stores a 304's policy in place of the page's: it must be the page's own, never 'none'.
      expect(again.headers['content-security-policy'], path).toBe(first.headers['content-security-policy']);
    }
    const icon = await send(`${shop.url}/favicon.svg`);
    const iconAgain = await send(`${shop.url}/favicon.svg`, { headers: { 'if-none-match': String(icon.headers.etag) } });
    expect(iconAgain.status).toBe(304);
    expect(iconAgain.headers['content-security-policy']).toBeUndefined();
  });

  test("a page's policy is Astro's: hashes, no inline script, nothing framed, forms and calls only to the shop", async () => {
    for (const path of ['/', '/about']) {
      const csp = String((await send(`${shop.url}${path}`)).headers['content-security-policy']);
      const script = / script-src ([^;]+)/.exec(csp)?.[1] ?? '';
      expect(script, path).toContain("'sha256-");
      expect(script, path).not.toContain('unsafe-inline');
      for (const directive of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'", "connect-src 'self'"]) {
        expect(csp, path).toContain(directive);
      }
    }
  });
});

test.describe('the Host header is not trusted', () => {
  test('a foreign Host changes no link: canonical, og:url, JSON-LD, sitemap and robots.txt name SITE_URL', async () => {
    const [id] = await someProductIds(1);
    for (const path of [`/product-detail?id=${id}`, '/shop?type=hot', '/sitemap.xml', '/robots.txt']) {
      const answer = await send(`${shop.url}${path}`, { headers: { host: 'evil.example' } });
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).not.toContain('evil.example');
      expect(answer.text, path).toContain(SITE);
    }
    // Pre-rendered pages were written at build time, with the build's SITE_URL.
    expect((await send(`${shop.url}/about`, { headers: { host: 'evil.example' } })).text).not.toContain('evil.example');
  });

  test('without SITE_URL the links name the address the server listens on', async ({ baseURL }) => {
    const answer = await send(`${baseURL}/`, { headers: { host: 'evil.example' } });
    expect(answer.text).not.toContain('evil.example');
    expect(answer.text).toContain(`<link rel="canonical" href="${baseURL}/"`);
  });

  test('a malformed Host is a 400 with the JSON error shape, on pages and the API', async () => {
    for (const path of ['/', '/api/app/Brands/LoadBrandsByPriority', '/about']) {
      const answer = await send(`${shop.url}${path}`, { headers: { host: 'a@b' } });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.text), path).toEqual({ error: { code: 'bad_host', message: expect.any(String) } });
    }
  });
});

test.describe('the page cache', () => {
  test('OPTIONS gets a short answer and empties nothing', async () => {
    const [id] = await someProductIds(1);
    const page = `${shop.url}/product-detail?id=${id}`;
    await send(page);
    const options = await send(page, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toContain('GET');
    expect(options.raw.length).toBe(0);
    expect((await send(page)).headers['x-kirana-cache']).toBe('HIT');
  });

  test('a review empties only the pages that show its product, by the API and by the form without JavaScript', async () => {
    const [, , a, b] = await someProductIds(4);
    const pages = [`/product-detail?id=${a}`, `/product?id=${a}`, `/product-detail?id=${b}`, '/', '/shop?type=hot', '/brands'];
    // A listing that shows a card of the product (its stars) is made stale by the review too; one that does not, not.
    const showsA: boolean[] = [];
    for (const path of pages) showsA.push((await send(`${shop.url}${path}`)).text.includes(`data-product-id="${a}"`));
    const listings = showsA.slice(3).map((shown) => (shown ? 'MISS' : 'HIT'));
    const posted = await send(`${shop.url}/api/Reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Meera', description: 'Fresh and well packed, thank you', stars: 5, productsId: a }),
    });
    expect(posted.status).toBe(201);
    expect(posted.headers['x-kirana-changed-pages']).toBeUndefined();
    const after = await Promise.all(pages.map(async (path) => (await send(`${shop.url}${path}`)).headers['x-kirana-cache']));
    expect(after).toEqual(['MISS', 'MISS', 'HIT', ...listings]);
    expect((await send(`${shop.url}/product-detail?id=${a}`)).text).toContain('Fresh and well packed, thank you');

    const form = await send(`${shop.url}/product-detail?id=${b}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shop.url },
      body: new URLSearchParams({ title: 'Arjun', description: 'Good dal, cooks quickly', stars: '4' }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers['x-kirana-changed-pages']).toBeUndefined();
    expect((await send(`${shop.url}/product-detail?id=${b}`)).headers['x-kirana-cache']).toBe('MISS');
    expect((await send(`${shop.url}/product-detail?id=${a}`)).headers['x-kirana-cache']).toBe('HIT');
  });

  test('a Cookie header is still served from the cache; Authorization is not', async () => {
    const page = `${shop.url}/shop?type=hot&page=2`;
    await send(page);
    expect((await send(page, { headers: { cookie: 'session=anything' } })).headers['x-kirana-cache']).toBe('HIT');
    expect((await send(page, { headers: { authorization: 'Bearer x' } })).headers['x-kirana-cache']).toBeUndefined();
  });

  test('a failed write empties nothing', async () => {
    const [id] = await someProductIds(1);
    const page = `${shop.url}/product-detail?id=${id}`;
    await send(page);
    const bad = await send(`${shop.url}/api/Reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: '', description: '', stars: 9, productsId: id }),
    });
    expect(bad.status).toBe(400);
    expect((await send(page)).headers['x-kirana-cache']).toBe('HIT');
  });
});
