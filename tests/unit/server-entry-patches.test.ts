// The build-time edits of Astro's server output (src/lib/integrations/) and the routing they allow (scripts/lib).
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { digestOnce } from '../../src/lib/integrations/csp-digests-once.ts';
import { exportPageHandler } from '../../src/lib/integrations/page-handler-export.ts';
import { buildPaths, withPagesStraightToRenderer } from '../../scripts/lib/build-paths.ts';

describe('digestOnce', () => {
  const sequence = [
    'async function generateCspDigest(data, algorithm) {',
    '\tcalls.push(data);',
    '\treturn `${algorithm}-${data.length}`;',
    '}',
    'return generateCspDigest;',
  ].join('\n');

  it('hashes a text once per algorithm and answers the same digest after', async () => {
    const calls: string[] = [];
    const digest = new Function('calls', digestOnce(sequence))(calls) as (data: string, algorithm: string) => Promise<string>;
    const style = 'a{color:red}';
    expect(await digest(style, 'SHA-256')).toBe('SHA-256-12');
    expect(await digest(style, 'SHA-256')).toBe('SHA-256-12');
    expect(await digest(style, 'SHA-384')).toBe('SHA-384-12');
    expect(await digest('b{}', 'SHA-256')).toBe('SHA-256-3');
    expect(calls).toEqual([style, style, 'b{}']);
  });

  it('stops remembering at a bound, still answering every text', async () => {
    const calls: string[] = [];
    const digest = new Function('calls', digestOnce(sequence))(calls) as (data: string, algorithm: string) => Promise<string>;
    for (let i = 0; i < 300; i++) await digest(`island ${i}`, 'SHA-256');
    await digest('island 299', 'SHA-256');
    await digest('island 0', 'SHA-256');
    expect(calls.length).toBe(301);
  });

  it('leaves code of another shape as it is', () => {
    const other = 'function generateCspDigest(data) { return data; }';
    expect(digestOnce(other)).toBe(other);
  });
});

describe('exportPageHandler', () => {
  const entry = [
    'function createAppHandler(app, options) { return (req) => `page ${req}`; }',
    'function createStandaloneHandler(app, options, headersMap) { return (req) => `file or page ${req}`; }',
    'var handler = "standalone" === "middleware" ? createMiddleware(app, config) : createStandaloneHandler(app, config, headersMap);',
    'export { handler, config as options, startServer };',
  ].join('\n');

  it("exports the adapter's page handler beside its handler", () => {
    const code = exportPageHandler(entry);
    expect(code).toContain('export { handler, pageHandler, config as options');
    const body = code.replace(/^export .*$/m, 'return { handler, pageHandler };');
    const { handler, pageHandler } = new Function('app', 'config', 'headersMap', 'createMiddleware', body)({}, {}, [], null) as Record<string, (req: string) => string>;
    expect(handler!('/x')).toBe('file or page /x');
    expect(pageHandler!('/x')).toBe('page /x');
  });

  it('leaves code of another shape as it is', () => {
    const other = 'var handler = createHandler(app);\nexport { handler };';
    expect(exportPageHandler(other)).toBe(other);
  });
});

describe('withPagesStraightToRenderer', () => {
  const client = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-client-'));
  fs.mkdirSync(path.join(client, '_astro'));
  fs.writeFileSync(path.join(client, '_astro/app.js'), '');
  fs.mkdirSync(path.join(client, 'about'));
  fs.writeFileSync(path.join(client, 'about/index.html'), '');
  fs.writeFileSync(path.join(client, 'favicon.svg'), '');
  afterAll(() => fs.rmSync(client, { recursive: true, force: true }));

  const route = (url: string) => {
    let answeredBy = '';
    const handler = withPagesStraightToRenderer(
      () => (answeredBy = 'adapter'),
      () => (answeredBy = 'pages'),
      client,
    );
    handler({ url } as IncomingMessage, {} as ServerResponse);
    return answeredBy;
  };

  it("knows the build's files and folders", () => {
    expect([...buildPaths(client)].sort()).toEqual(['/', '/_astro', '/_astro/', '/_astro/app.js', '/about', '/about/', '/about/index.html', '/favicon.svg']);
  });

  it('sends the paths of files and folders to the adapter, and every other path to the pages', () => {
    for (const url of ['/favicon.svg', '/_astro/app.js?v=1', '/about', '/about/', '/']) expect(route(url), url).toBe('adapter');
    for (const url of ['/product-detail?id=3', '/search?name=dal', '/shop', '/about/more', '/api/app/Products/3']) expect(route(url), url).toBe('pages');
  });

  it('leaves to the adapter any path it would read differently', () => {
    for (const url of ['/%66avicon.svg', '/about#team', '/x/../favicon.svg', '//favicon.svg', '/.well-known/x', '/a\\b']) expect(route(url), url).toBe('adapter');
  });

  it('is the adapter alone when the build exports no page handler', () => {
    const adapter = () => undefined;
    expect(withPagesStraightToRenderer(adapter, undefined, client)).toBe(adapter);
  });
});
