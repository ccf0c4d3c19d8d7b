// What a load balancer needs of the built server: /healthz and /readyz, a drain on SIGTERM that resets no
// connection, and a 413 for an oversized body that arrives as a 413, not as a reset. Needs `npm run build`.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, root, run, type Child } from './processes.ts';

const entry = path.join(root, 'dist/server/entry.mjs');
let tempDir = '';
const children: Child[] = [];

beforeAll(() => {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` before the server tests.`);
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-balancer-'));
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  fs.rmSync(tempDir, { recursive: true, force: true });
});

async function startShop(env: NodeJS.ProcessEnv = {}): Promise<{ shop: Child; port: number }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(tempDir, 'data-'));
  const shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ...env });
  children.push(shop);
  await shop.waitFor('[kirana] serving');
  return { shop, port };
}

interface Answer {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  error?: string;
  /** The request was written in full before the listener was seen closed. */
  sentAt?: number;
}

function request(port: number, options: http.RequestOptions & { body?: Buffer | string; chunked?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const answer: Answer = {};
    const req = http.request({ host: '127.0.0.1', port, ...options }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ ...answer, status: res.statusCode, headers: res.headers, body }));
      res.once('error', (error: NodeJS.ErrnoException) => resolve({ ...answer, error: error.code ?? error.message }));
    });
    req.once('finish', () => (answer.sentAt = Date.now()));
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ ...answer, error: error.code ?? error.message }));
    if (!options.chunked || typeof options.body !== 'object') return req.end(options.body);
    // As over a real network: the body leaves in pieces, the last ones after the server has seen the head.
    const body = options.body;
    const piece = 64 * 1024;
    let offset = 0;
    const next = () => {
      if (req.destroyed) return;
      if (offset >= body.length) return req.end();
      req.write(body.subarray(offset, (offset += piece)));
      setTimeout(next, 1);
    };
    next();
  });
}

/** Polls /readyz until it answers 200 (the API booted: the database open and migrated). */
async function waitReady(port: number, withinMs = 60_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const answer = await request(port, { path: '/readyz' });
    if (answer.status === 200) return;
    if (Date.now() > until) throw new Error(`/readyz still ${answer.status ?? answer.error} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('answers /healthz and /readyz plainly, uncached, before any page was asked for', async () => {
  const { shop, port } = await startShop();
  await waitReady(port);
  for (const probe of ['/healthz', '/readyz']) {
    const answer = await request(port, { path: probe });
    expect(answer.status, probe).toBe(200);
    expect(answer.headers?.['cache-control'], probe).toBe('no-store');
    expect(answer.headers?.['content-type'], probe).toMatch(/^text\/plain/);
    // Answered by the shop's own layer: the page cache never sees it.
    expect(answer.headers?.['x-kirana-cache'], probe).toBeUndefined();
    const head = await request(port, { path: probe, method: 'HEAD' });
    expect(head.status, `HEAD ${probe}`).toBe(200);
  }
  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('on SIGTERM turns /readyz to 503 first, keeps accepting for the grace, then closes with no connection reset', async () => {
  const graceSeconds = 2;
  const { shop, port } = await startShop({ SHUTDOWN_GRACE_SECONDS: String(graceSeconds) });
  await waitReady(port);
  const paths = ['/', '/api/app/Products/LoadProductsByPriorityTag', '/shop?type=hot', '/healthz'];
  for (const p of paths) expect((await request(port, { path: p })).status, p).toBe(200);

  let signalledAt = 0;
  let notReadyAt = 0;
  let refusedAt = 0;
  const answers: Answer[] = [];
  const stopBy = Date.now() + 20_000; // bounded whatever happens
  // The balancer's health check: every 200 ms, on a connection of its own each time, until the listener refuses.
  const checks: Answer[] = [];
  const checker = (async () => {
    while (Date.now() < stopBy) {
      const answer = await request(port, { path: '/readyz', agent: false });
      checks.push(answer);
      if (answer.status === 503 && !notReadyAt) notReadyAt = Date.now();
      if (answer.error === 'ECONNREFUSED') {
        refusedAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  // Shoppers through the balancer, 32 at a time (half on keep-alive connections, half on a new connection for each
  // request), sent until the balancer's check has seen 503 and it has taken the shop out (one check interval later).
  const workers = Array.from({ length: 32 }, async (_, n) => {
    const agent = n % 2 === 0 ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
    for (let i = 0; Date.now() < stopBy && !(notReadyAt && Date.now() > notReadyAt + 200); i++) {
      answers.push(await request(port, { path: paths[(n + i) % paths.length], agent }));
    }
    if (agent) agent.destroy();
  });
  setTimeout(() => {
    signalledAt = Date.now();
    shop.process.kill('SIGTERM');
  }, 500);
  await Promise.all([...workers, checker]);
  const { code } = await shop.exited;
  if (code !== 0) console.log(shop.output().slice(-3000));

  expect(code).toBe(0);
  expect(signalledAt).toBeGreaterThan(0);
  const resets = [...answers, ...checks].filter((a) => a.error && a.error !== 'ECONNREFUSED');
  const sentBeforeSignal = answers.filter((a) => a.sentAt && a.sentAt < signalledAt).length;
  const sentAfterSignal = answers.filter((a) => a.sentAt && a.sentAt >= signalledAt).length;
  console.log(
    `drain: ${answers.length} requests (${sentBeforeSignal} sent before SIGTERM, ${sentAfterSignal} after), ` +
      `${resets.length} reset (${[...new Set(resets.map((a) => a.error))].join(', ')}); ` +
      `/readyz 503 after ${notReadyAt - signalledAt} ms, listener closed after ${refusedAt - signalledAt} ms`,
  );
  // No request was cut: each one sent was answered (the shoppers' all 200), or refused outright once the listener closed.
  expect(resets).toEqual([]);
  expect(answers.map((a) => a.error ?? a.status).filter((outcome) => outcome !== 200)).toEqual([]);
  // /readyz said 503 first, and the listener kept accepting for the grace.
  expect(notReadyAt).toBeGreaterThan(0);
  expect(notReadyAt - signalledAt).toBeLessThan(500);
  expect(refusedAt - signalledAt).toBeGreaterThanOrEqual(graceSeconds * 1000);
  expect(sentAfterSignal).toBeGreaterThan(0);
});

it('answers a 2 MB post with its 413, never with a connection reset', async () => {
  const { shop, port } = await startShop();
  await waitReady(port);
  const body = Buffer.alloc(2 * 1024 * 1024, 'a');
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, n) =>
      request(port, {
        path: n % 2 ? '/api/Reviews' : '/contact',
        method: 'POST',
        agent: false,
        headers: { 'content-type': n % 2 ? 'application/json' : 'application/x-www-form-urlencoded', 'content-length': body.length },
        body,
        chunked: true,
      }),
    ),
  );
  console.log(`2 MB posts: ${answers.filter((a) => a.status === 413).length} × 413, ${answers.filter((a) => a.error).length} reset`);
  expect(answers.map((a) => a.error ?? a.status)).toEqual(answers.map(() => 413));
  for (const answer of answers) expect(answer.headers?.connection).toBe('close');
  const api = answers[1]!;
  expect(JSON.parse(api.body!)).toEqual({ error: { code: 'payload_too_large', message: 'The request body must be at most 16 KB' } });
  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('answers a body past the discard bound and closes (the client may see a reset then)', async () => {
  const { shop, port } = await startShop();
  // Headers only: the server must answer from Content-Length alone, without waiting for 100 MB.
  const socket = net.connect(port, '127.0.0.1');
  socket.write(`POST /api/Reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`);
  let head = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (head += chunk));
  await new Promise((resolve) => socket.once('close', resolve));
  expect(head).toMatch(/^HTTP\/1.1 413 /);
  expect(head.toLowerCase()).toContain('connection: close');
  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('behind a proxy (TRUST_PROXY=true) counts a limit by the address the proxy forwards, without it by the socket', async () => {
  const contact = (port: number, forwardedFor: string) =>
    fetch(`http://127.0.0.1:${port}/api/app/ContactMessages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ name: 'Ravi', email: 'ravi@example.in', message: 'Please add more millets to the shop.' }),
    }).then((res) => res.status);
  const behind = await startShop({ TRUST_PROXY: 'true' });
  // Six shoppers behind nginx, whatever each claimed before it: six limits. Then one shopper six times: its own limit.
  const shoppers = [];
  for (let i = 0; i < 6; i++) shoppers.push(await contact(behind.port, `192.0.2.1, 10.7.7.${i}`));
  expect(shoppers).toEqual([201, 201, 201, 201, 201, 201]);
  const one = [];
  for (let i = 0; i < 6; i++) one.push(await contact(behind.port, `192.0.2.${i}, 10.7.8.1`));
  expect(one).toEqual([201, 201, 201, 201, 201, 429]);
  // Reached directly, the shop ignores the header: everyone here is 127.0.0.1.
  const direct = await startShop();
  const claimed = [];
  for (let i = 0; i < 6; i++) claimed.push(await contact(direct.port, `10.7.9.${i}`));
  expect(claimed).toEqual([201, 201, 201, 201, 201, 429]);
  for (const { shop } of [behind, direct]) {
    shop.process.kill('SIGTERM');
    expect((await shop.exited).code).toBe(0);
  }
});
