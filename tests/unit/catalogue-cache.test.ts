import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { CHANGED_PAGES_HEADER } from '../../src/lib/api/headers.ts';
import { CatalogueCache } from '../../src/server/catalogue-cache.ts';

/** An API whose answers count how often they were made; `/slow` waits until `release()` before reading. */
function countingApi(cache: CatalogueCache) {
  const made = new Map<string, number>();
  let release = () => {};
  const app = new Hono();
  app.use('*', cache.middleware());
  app.get('/slow', async (c) => {
    const count = (made.get('/slow') ?? 0) + 1;
    made.set('/slow', count);
    await new Promise<void>((resolve) => (release = resolve));
    return c.text(`slow ${count}`, 200, { 'Cache-Control': 'public, max-age=60' });
  });
  app.get('/item/:id', (c) => {
    const count = (made.get(c.req.path) ?? 0) + 1;
    made.set(c.req.path, count);
    return c.text(`${c.req.param('id')}:${count}`.padEnd(100, '.'), 200, { 'Cache-Control': 'public, max-age=60' });
  });
  app.post('/write', (c) => c.text('ok', 201, { [CHANGED_PAGES_HEADER]: '/product-detail?id=1' }));
  const get = async (path: string) => (await app.request(path)).text();
  return { app, get, made, release: () => release() };
}

describe('CatalogueCache', () => {
  it('drops the least recently used answers past its memory bound', async () => {
    const cache = new CatalogueCache({ maxBytes: 250 });
    const api = countingApi(cache);
    await api.get('/item/1');
    await api.get('/item/2');
    await api.get('/item/1'); // 1 is now the most recently used
    await api.get('/item/3'); // 300 bytes: 2 goes
    expect(cache.size).toBe(2);
    await api.get('/item/1');
    await api.get('/item/2');
    expect([api.made.get('/item/1'), api.made.get('/item/2')]).toEqual([1, 2]);
  });

  it('reads again once an answer is older than its time', async () => {
    let now = 0;
    const api = countingApi(new CatalogueCache({ now: () => now }));
    await api.get('/item/7');
    now = 59_000;
    await api.get('/item/7');
    now = 61_000;
    expect(await api.get('/item/7')).toMatch(/^7:2/);
  });

  it('does not keep an answer read before a write that changed the catalogue', async () => {
    const cache = new CatalogueCache();
    const api = countingApi(cache);
    const reading = api.get('/slow');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await api.app.request('/write', { method: 'POST' })).status).toBe(201);
    api.release();
    expect(await reading).toBe('slow 1');
    expect(cache.size).toBe(0);
    const next = api.get('/slow');
    await new Promise((resolve) => setTimeout(resolve, 0));
    api.release();
    expect(await next).toBe('slow 2');
  });
});
