// The build's files in front of the renderer (src/http/static-files.ts), on a folder of a few files and a real HTTP
// server: a file's path sends it (hashed assets for a year), a pre-rendered page's folder its index.html, any other
// path goes to the renderer without a look at the disk; a path with an escape, a dot segment or a doubled slash is
// looked up by `send`, which never leaves the folder, and a miss of it is rendered too.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildPaths, staticFiles } from '../../src/http/static-files.ts';
import { IMMUTABLE_CACHE_CONTROL } from '../../src/http/compression.ts';

const RENDERED = 'rendered by the renderer';
const files: Record<string, string> = {
  'index.html': '<h1>home page file</h1>',
  'about/index.html': '<h1>about page file</h1>',
  '_astro/app.abc.js': 'console.log("hashed asset");',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"><title>icon file</title></svg>',
};
/** A file beside the build's folder: no path may reach it. */
const OUTSIDE = 'a secret outside the build folder';

let work: string;
let clientDir: string;
let server: http.Server;
let port: number;
/** The paths the renderer was handed, in order. */
let rendered: string[] = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-static-files-'));
  clientDir = path.join(work, 'client');
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(clientDir, name)), { recursive: true });
    fs.writeFileSync(path.join(clientDir, name), body);
  }
  fs.writeFileSync(path.join(work, 'secret.txt'), OUTSIDE);
  const handler = staticFiles(clientDir, (req, res) => {
    rendered.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Rendered': 'yes' });
    res.end(RENDERED);
  });
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  rendered = [];
});

/** A GET of `rawPath` exactly as written: fetch would normalise dot segments and escapes before sending. */
function get(rawPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('buildPaths', () => {
  it("lists each file, and each folder with and without its '/'", () => {
    expect([...buildPaths(clientDir)].sort()).toEqual(
      ['/', '/_astro', '/_astro/', '/_astro/app.abc.js', '/about', '/about/', '/about/index.html', '/favicon.svg', '/index.html'].sort(),
    );
  });
});

describe('a file of the build', () => {
  it.each([
    ['/favicon.svg', 'favicon.svg'],
    ['/_astro/app.abc.js', '_astro/app.abc.js'],
    ['/index.html', 'index.html'],
    ['/', 'index.html'],
    ['/about/index.html', 'about/index.html'],
  ])('%s sends %s, not the renderer', async (urlPath, file) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.body).toBe(files[file]);
    expect(res.headers['x-rendered']).toBeUndefined();
    expect(rendered).toEqual([]);
  });

  it('sends a hashed asset to be kept a year, unchanged; other files not', async () => {
    const asset = await get('/_astro/app.abc.js');
    expect(asset.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    const icon = await get('/favicon.svg');
    expect(icon.headers['cache-control']).not.toContain('immutable');
  });

  it('sends a file asked with a query string', async () => {
    const res = await get('/favicon.svg?v=2');
    expect(res.status).toBe(200);
    expect(res.body).toBe(files['favicon.svg']);
    expect(rendered).toEqual([]);
  });

  it.each(['/about', '/about/', '/about?from=home'])("%s sends the pre-rendered page's about/index.html", async (urlPath) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.body).toBe(files['about/index.html']);
    expect(rendered).toEqual([]);
  });
});

describe('any other path', () => {
  it.each(['/product-detail?id=3', '/shop', '/missing.svg', '/about/missing', '/favicon.svg/', '/_astro', '/_astro/', '/api/app/Products/1'])(
    '%s goes to the renderer, no file sent',
    async (urlPath) => {
      const res = await get(urlPath);
      expect(res.status).toBe(200);
      expect(res.body).toBe(RENDERED);
      expect(res.headers['x-rendered']).toBe('yes');
      expect(rendered).toEqual([urlPath]);
    },
  );
});

describe('a path with an escape, a dot segment or a doubled slash', () => {
  it.each([
    ['/fav%69con.svg', 'favicon.svg'],
    ['/x/../favicon.svg', 'favicon.svg'],
    ['/about/./index.html', 'about/index.html'],
    ['//favicon.svg', 'favicon.svg'],
    ['/_astro//app.abc.js', '_astro/app.abc.js'],
    ['/%5fastro/app.abc.js', '_astro/app.abc.js'],
    ['/ab%6fut/', 'about/index.html'],
  ])('%s is looked up by send and sends %s', async (urlPath, file) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.body).toBe(files[file]);
    expect(rendered).toEqual([]);
  });

  it.each(['/miss%69ng.svg', '/x/../missing.svg', '//missing.svg', '/about%2fmissing'])('%s, a missing file, goes to the renderer', async (urlPath) => {
    const res = await get(urlPath);
    expect(res.status).toBe(200);
    expect(res.body).toBe(RENDERED);
    expect(rendered).toEqual([urlPath]);
  });

  it.each([
    '/..%2fsecret.txt',
    '/..%2f..%2fetc/passwd',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/x/../../secret.txt',
    '/../secret.txt',
    '/_astro/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/favicon.svg%00.txt',
  ])('%s never sends a file outside the folder: it renders or refuses', async (urlPath) => {
    const res = await get(urlPath);
    expect(res.body).not.toContain(OUTSIDE);
    expect(res.body).not.toMatch(/root:.*:0:0:/);
    if (res.status === 200) {
      expect(res.body).toBe(RENDERED);
      expect(rendered).toEqual([urlPath]);
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('folders reached by an unusual spelling', () => {
  // send would redirect such a path to its own spelling plus '/': with a backslash, a browser reads that Location as
  // another host ('/\\evil.example/…' is '//evil.example/…'). The renderer answers them instead, with no redirect.
  it.each(['/ab%6fut', '//evil.example/..%2fabout', '/\\evil.example/..%2fabout', '/\\evil.example/%2e%2e/about'])(
    '%s is rendered, never redirected',
    async (urlPath) => {
      const res = await get(urlPath);
      expect(res.headers.location).toBeUndefined();
      expect(rendered).toContain(urlPath);
    },
  );
});

describe('dot files', () => {
  beforeAll(() => {
    fs.mkdirSync(path.join(clientDir, '.well-known'), { recursive: true });
    fs.writeFileSync(path.join(clientDir, '.well-known', 'security.txt'), 'Contact: mailto:security@example.in');
    fs.writeFileSync(path.join(clientDir, '.env'), 'SECRET=1');
  });
  afterAll(() => {
    fs.rmSync(path.join(clientDir, '.well-known'), { recursive: true, force: true });
    fs.rmSync(path.join(clientDir, '.env'), { force: true });
  });

  it('sends a file under /.well-known/ but never another dot file (the renderer answers)', async () => {
    // Listed at start: files added later are found by send (a path with '/.' is never taken by its spelling).
    const wellKnown = await get('/.well-known/security.txt');
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.body).toBe('Contact: mailto:security@example.in');
    const env = await get('/.env');
    expect(env.body).not.toContain('SECRET');
    expect(env.body).toBe(RENDERED);
  });
});
