// SIGTERM to the built server while shoppers post reviews: nothing in flight is cut, every review answered
// 2xx is there after a restart, and the process closes its database and exits 0. Needs `npm run build`.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { root, run, type Child } from './processes.ts';

const entry = path.join(root, 'dist/server/entry.mjs');
let dataDir = '';
const children: Child[] = [];

beforeAll(() => {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` before the server tests.`);
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-shutdown-')), 'data');
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  // Without a dataDir (beforeAll refused: no build), path.dirname('') is '.', the working tree itself.
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startShop(port: number): Promise<Child> {
  const shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) });
  children.push(shop);
  await shop.waitFor('[kirana] serving');
  return shop;
}

interface Outcome {
  sentBeforeSignal: boolean;
  status?: number;
  error?: string;
}

/** Posts one review from `localAddress` (each loopback address has its own review limit). */
function postReview(port: number, agent: http.Agent, localAddress: string, body: object, signalled: () => boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { sentBeforeSignal: false };
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/Reviews', method: 'POST', agent, localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ ...outcome, status: res.statusCode }));
        res.once('error', (error) => resolve({ ...outcome, error: error.message }));
      },
    );
    // Sent in full before SIGTERM: the server has it and must answer it.
    req.once('finish', () => (outcome.sentBeforeSignal = !signalled()));
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? error.message }));
    req.end(JSON.stringify(body));
  });
}

it('finishes the reviews in flight on SIGTERM, keeps every one it answered 2xx, and exits 0', async () => {
  const port = await freePort();
  const shop = await startShop(port);
  const base = `http://127.0.0.1:${port}`;
  // The first API call opens and seeds the database.
  const products = (await (await fetch(`${base}/api/app/Products/LoadProductsByPriorityTag`)).json()) as { id: number }[];
  const productId = products[0]!.id;
  const marker = `shutdown-test-${Date.now()}`;

  let signalled = false;
  let sent = 0;
  const outcomes: Outcome[] = [];
  const posters = Array.from({ length: 6 }, async (_, worker) => {
    const agent = new http.Agent({ keepAlive: true });
    for (let n = 0; ; n++) {
      const address = `127.0.${worker + 1}.${Math.floor(n / 10) + 2}`; // 10 reviews per address and window
      const outcome = await postReview(
        port,
        agent,
        address,
        { title: 'Asha', description: `${marker} review ${worker}-${n} was good`, stars: 4, productsId: productId },
        () => signalled,
      );
      outcomes.push(outcome);
      if (++sent === 60) {
        signalled = true;
        shop.process.kill('SIGTERM');
      }
      if (outcome.error) break; // the server is no longer accepting
    }
    agent.destroy();
  });
  await Promise.all(posters);
  const { code } = await shop.exited;

  expect(code).toBe(0);
  expect(shop.output()).toContain('SIGTERM: no new connections');
  expect(shop.output()).toContain('database closed; stopped');
  const inFlight = outcomes.filter((o) => o.sentBeforeSignal);
  expect(inFlight.length).toBeGreaterThanOrEqual(60);
  // No request the server had received was cut (no ECONNRESET, no socket hang up).
  expect(inFlight.filter((o) => o.error)).toEqual([]);
  const answered = outcomes.filter((o) => o.status === 201).length;
  expect(outcomes.filter((o) => o.status !== undefined && o.status !== 201)).toEqual([]);

  const restarted = await startShop(port);
  const reviews = (await (await fetch(`${base}/api/Reviews/${productId}`)).json()) as { description: string }[];
  expect(reviews.filter((r) => r.description.startsWith(marker))).toHaveLength(answered);
  restarted.process.kill('SIGTERM');
  expect((await restarted.exited).code).toBe(0);
});

interface KeptAlive {
  agent: http.Agent;
  socket: net.Socket;
  /** When the server ended the idle connection (a FIN), ms after the signal; or how it failed. */
  ended: Promise<{ afterMs?: number; error?: string }>;
}

/** One request answered on an agent that keeps its one connection alive, which then stays idle. */
function keptAlive(port: number, signalledAt: () => number): Promise<KeptAlive> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      const socket = res.socket;
      const ended = new Promise<{ afterMs?: number; error?: string }>((settle) => {
        socket.once('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
        socket.once('close', (hadError) => settle(hadError ? { error: 'closed with an error' } : { afterMs: Date.now() - signalledAt() }));
      });
      res.resume();
      res.once('end', () => resolve({ agent, socket, ended }));
    });
    req.once('error', reject);
  });
}

/** The next request on a kept-alive agent: answered, refused before it was sent (a new connection), or cut after. */
function nextRequest(port: number, agent: http.Agent): Promise<{ status?: number; error?: string; reusedSocket: boolean }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode, reusedSocket: req.reusedSocket }));
    });
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reusedSocket: req.reusedSocket }));
  });
}

it('on SIGTERM ends idle kept-alive connections within a second and cleanly, so no request is sent into a reset (5 runs)', async () => {
  const port = await freePort();
  for (let runNumber = 1; runNumber <= 5; runNumber++) {
    const shop = await startShop(port);
    let signalledAt = 0;
    const connections = await Promise.all(Array.from({ length: 4 }, () => keptAlive(port, () => signalledAt)));
    signalledAt = Date.now();
    shop.process.kill('SIGTERM');
    // Two clients send their next request during the drain, on the connection they kept.
    const [late, later] = await Promise.all([
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => nextRequest(port, connections[0]!.agent)),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() => nextRequest(port, connections[1]!.agent)),
    ]);
    const ends = await Promise.all(connections.map((c) => c.ended));
    for (const c of connections) c.agent.destroy();
    expect((await shop.exited).code, `run ${runNumber}`).toBe(0);

    // Each idle connection got a FIN (no reset), within a second of the signal, not at its keep-alive timeout's end.
    for (const end of ends) {
      expect(end.error, `run ${runNumber}`).toBeUndefined();
      expect(end.afterMs, `run ${runNumber}`).toBeLessThan(1_000);
    }
    // A next request was never cut after it had been sent on a kept connection: answered, or refused before sending.
    for (const outcome of [late, later]) {
      if (outcome.error) expect(outcome, `run ${runNumber}`).toMatchObject({ reusedSocket: false });
      else expect(outcome.status, `run ${runNumber}`).toBe(200);
    }
  }
}, 240_000);
