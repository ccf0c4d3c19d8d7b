// The built shop's answers to odd methods and to cross-site writes (issue 22). The adapter turns every request into
// a fetch Request, which cannot carry TRACE or TRACK: TRACE was a 500 with a stack trace in the log, and static files
// answered it with the file. Astro's origin check answered a body-less API write without an Origin header with a
// text/plain 403, where the API promises { error: { code, message } }. Raw HTTP (node:http): fetch cannot send TRACE.
// Needs `npm run build` (the origin check is in the build).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, run, type Child } from './processes.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(pathAndQuery: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${base}${pathAndQuery}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let dataDir = '';
let shop: Child | undefined;
let base = '';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-methods-'));
  const port = await freePort();
  shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '', API_URL: '', SITE_URL: '' });
  await shop.waitFor('[kirana] serving');
  base = `http://127.0.0.1:${port}`;
  // Opens (and seeds) the database, so the answers below are the shop's, not a first start's.
  expect((await send('/api/app/Brands/LoadBrandsByPriority?take=1')).status).toBe(200);
});

afterAll(async () => {
  if (shop && shop.process.exitCode === null) {
    shop.process.kill('SIGTERM');
    await shop.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('methods the shop does not take', () => {
  it('TRACE, PROPFIND and PATCH are a 405 with Allow on pages, files and the API; the API says so in JSON', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'PATCH']) {
      for (const pagePath of ['/', '/cart', '/about', '/favicon.svg', '/no-such-page']) {
        const answer = await send(pagePath, { method });
        expect(answer.status, `${method} ${pagePath}`).toBe(405);
        expect(answer.headers.allow, `${method} ${pagePath}`).toBe('GET, HEAD, POST, OPTIONS');
        expect(answer.text, `${method} ${pagePath}`).toContain(`${method} is not allowed`);
      }
      for (const apiPath of ['/api/app/Products/LoadProductsByPriorityTag', '/api/app/Carts/1', '/api/no-such-route']) {
        const answer = await send(apiPath, { method });
        expect(answer.status, `${method} ${apiPath}`).toBe(405);
        expect(answer.headers.allow, `${method} ${apiPath}`).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
        expect(answer.headers['content-type'], `${method} ${apiPath}`).toMatch(/^application\/json/);
        expect(JSON.parse(answer.text), `${method} ${apiPath}`).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining(method) } });
      }
    }
    expect(shop!.output()).not.toMatch(/Could not render|HTTP method is unsupported/);
  });

  it('the API’s Allow names every method of its routes (a new PATCH route must be added there)', async () => {
    const document = JSON.parse((await send('/api/openapi.json')).text) as { paths: Record<string, Record<string, unknown>> };
    const methods = new Set(Object.values(document.paths).flatMap((operations) => Object.keys(operations).map((m) => m.toUpperCase())));
    const allow = (await send('/api/app/Carts/1', { method: 'TRACE' })).headers.allow!.split(', ');
    expect(methods.size).toBeGreaterThan(2);
    for (const method of methods) expect(allow).toContain(method);
  });

  it('CONNECT is a 405 too, not a dropped connection', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(base, { method: 'CONNECT', path: 'example.com:443' });
      req.on('connect', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toBe(405);
  });
});

describe('writes from another site (CSRF)', () => {
  const json = (answer: Answer) => {
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    return JSON.parse(answer.text) as unknown;
  };

  it('a body-less API write without an Origin header is refused in the API’s JSON shape', async () => {
    for (const [method, apiPath] of [['POST', '/api/Authenticate/Logout'], ['DELETE', '/api/app/Carts/1'], ['PUT', '/api/app/Addresses/1']]) {
      const answer = await send(apiPath!, { method });
      expect(answer.status, `${method} ${apiPath}`).toBe(403);
      expect(json(answer), `${method} ${apiPath}`).toEqual({ error: { code: 'forbidden', message: expect.stringMatching(/Origin/) } });
    }
  });

  it('a cross-site form post to the API is still refused, in JSON', async () => {
    const answer = await send('/api/Reviews', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'title=Meera&description=Fresh%20and%20well%20packed&stars=5&productsId=1',
    });
    expect(answer.status).toBe(403);
    expect(json(answer)).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
  });

  it('a cross-site form post to a page is still refused', async () => {
    const answer = await send('/product-detail?id=1', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'title=Meera&description=Fresh%20and%20well%20packed&stars=5',
    });
    expect(answer.status).toBe(403);
  });

  it('the shop’s own writes pass: same Origin, or a JSON body', async () => {
    // Past the origin check, the API itself answers: no token, so 401.
    const signedOut = await send('/api/app/Carts/1', { method: 'DELETE', headers: { origin: base } });
    expect(signedOut.status).toBe(401);
    expect(json(signedOut)).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    const invalid = await send('/api/Reviews', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(invalid.status).toBe(400);
  });
});
