// Pages rendered in arrival order, a few at a time (src/http/arrival-order.ts), on a real HTTP server.
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { inArrivalOrder } from '../../src/http/arrival-order.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

/** A server whose renders wait until the test ends them; it records the order requests arrived and started in. */
async function shop(rendersAtOnce: number) {
  const arrived: string[] = [];
  const started: string[] = [];
  const rendering = new Map<string, ServerResponse>();
  const rendered = new Map<string, () => void>();
  const pages = inArrivalOrder((req, res) => {
    started.push(req.url!);
    rendering.set(req.url!, res);
    return new Promise<void>((done) => rendered.set(req.url!, done));
  }, rendersAtOnce);
  const server = http.createServer((req, res) => {
    arrived.push(req.url!);
    pages(req, res);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const ask = (path: string, method = 'GET') => {
    const request = http.request({ host: '127.0.0.1', port, path, method, agent: false });
    request.end();
    const answer = new Promise<string>((resolve, reject) => {
      request.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      request.on('error', reject);
    });
    return { request, answer };
  };
  const finish = (path: string) => rendering.get(path)!.end(`page ${path}`);
  return { arrived, started, rendering, rendered, ask, finish };
}

describe('inArrivalOrder', () => {
  it('starts renders in the order requests arrived, no more than it allows at once', async () => {
    const s = await shop(2);
    const answers = [];
    for (const path of ['/a', '/b', '/c', '/d']) {
      answers.push(s.ask(path).answer);
      await until(() => s.arrived.includes(path));
    }
    await until(() => s.started.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.started).toEqual(['/a', '/b']);

    s.finish('/b');
    await until(() => s.started.length === 3);
    expect(s.started).toEqual(['/a', '/b', '/c']);
    s.finish('/a');
    await until(() => s.started.length === 4);
    s.finish('/c');
    s.finish('/d');
    expect(await Promise.all(answers)).toEqual(['page /a', 'page /b', 'page /c', 'page /d']);
  });

  it('gives a place up once its render is done, before the body has gone out', async () => {
    const s = await shop(1);
    const first = s.ask('/first');
    await until(() => s.started.length === 1);
    const second = s.ask('/second');
    await until(() => s.arrived.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.started).toEqual(['/first']);
    // The first page's headers go out: it still holds its place until its renderer says it is done.
    const res = s.rendering.get('/first')!;
    res.writeHead(200, { 'content-type': 'text/plain' });
    await new Promise((r) => setTimeout(r, 20));
    expect(s.started).toEqual(['/first']);
    // Rendered, its body not yet sent: the next render may start.
    s.rendered.get('/first')!();
    await until(() => s.started.length === 2);
    res.end('page /first');
    s.finish('/second');
    expect(await first.answer).toBe('page /first');
    expect(await second.answer).toBe('page /second');
  });

  it('does not render for a shopper who left while waiting, and their place goes to the next', async () => {
    const s = await shop(1);
    const first = s.ask('/first');
    await until(() => s.started.length === 1);
    const gone = s.ask('/gone');
    gone.answer.catch(() => {});
    await until(() => s.arrived.includes('/gone'));
    const third = s.ask('/third');
    await until(() => s.arrived.includes('/third'));
    gone.request.destroy();
    await new Promise((r) => setTimeout(r, 20));

    s.finish('/first');
    await until(() => s.started.length === 2);
    expect(s.started).toEqual(['/first', '/third']);
    s.finish('/third');
    expect(await first.answer).toBe('page /first');
    expect(await third.answer).toBe('page /third');
  });

  it('lets writes and pictures through at once: a body sent slowly, or a resize off the main thread, holds no place', async () => {
    const s = await shop(1);
    const page = s.ask('/page');
    await until(() => s.started.length === 1);
    const write = s.ask('/api/Cart/AddItem', 'POST');
    const picture = s.ask('/api/images/160/abc.svg');
    await until(() => s.started.length === 3);
    expect(s.started).toEqual(expect.arrayContaining(['/api/Cart/AddItem', '/api/images/160/abc.svg']));
    const late = s.ask('/later');
    await until(() => s.arrived.includes('/later'));
    await new Promise((r) => setTimeout(r, 20));
    expect(s.started).not.toContain('/later');
    for (const path of ['/page', '/api/Cart/AddItem', '/api/images/160/abc.svg']) s.finish(path);
    await until(() => s.started.includes('/later'));
    s.finish('/later');
    expect(await Promise.all([page.answer, write.answer, picture.answer, late.answer])).toEqual([
      'page /page',
      'page /api/Cart/AddItem',
      'page /api/images/160/abc.svg',
      'page /later',
    ]);
  });
});
