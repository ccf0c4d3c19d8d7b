// Issue 32: a client that sends half its headers and then nothing is let go within the headers timeout, by the shop
// and by `npm run api` (before, such connections were held past 110 s). Needs `npm run build`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, TIMEOUT_CHECK_INTERVAL_MS } from '../../src/http/server-timeouts.ts';
import { freePort, root, run, type Child } from './processes.ts';

let work = '';
const children: Child[] = [];

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` before the server tests.');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-timeouts-'));
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

/** Sends the first half of a request's headers, then nothing; resolves with when and how the server let it go. */
function sendHalfTheHeaders(port: number): Promise<{ afterMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sentAt = 0;
    socket.once('connect', () => {
      socket.write('GET /favicon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      sentAt = performance.now();
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('close', () => resolve({ afterMs: performance.now() - sentAt, answer }));
    socket.once('error', reject);
  });
}

it('closes a connection that sent half its headers within the headers timeout, on the shop and on `npm run api`', async () => {
  const [shopPort, apiPort] = [await freePort(), await freePort()];
  const shop = run('scripts/serve.ts', { DATA_DIR: path.join(work, 'shop-data'), HOST: '127.0.0.1', PORT: String(shopPort) });
  const api = run('scripts/api.ts', { DATA_DIR: path.join(work, 'api-data'), HOST: '127.0.0.1', API_PORT: String(apiPort), DATABASE_URL: '', API_URL: '' });
  children.push(shop, api);
  await Promise.all([shop.waitFor('[kirana] serving'), api.waitFor('[kirana-api] listening')]);

  // Both at once: each waits out the real timeout (15 s).
  const outcomes = await Promise.all([sendHalfTheHeaders(shopPort), sendHalfTheHeaders(apiPort)]);
  for (const { afterMs, answer } of outcomes) {
    // Not before the timeout (a shopper on a bad line gets the whole of it), and within a check's interval after.
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + TIMEOUT_CHECK_INTERVAL_MS + 2_000);
    // Node says why before it closes.
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }
}, 60_000);
