// The built shop on a PostgreSQL server that stops and starts again: while it is down, pages answer the friendly 503
// page within 3 s, the API a JSON 503 with Retry-After, /readyz 503 (and /healthz 200); once it is back, the same
// process serves again. The server here is a throwaway one of this test's own (scripts/lib/postgres.ts, as
// scripts/test-pg.ts starts its own), since stopping the suite's shared one would fail the other tests. Needs dist/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ThrowawayPostgres } from '../../scripts/lib/postgres.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { freePort, root, run, type Child } from '../server/processes.ts';

const postgres = new ThrowawayPostgres({ prefix: 'kirana-pg-down-', log: () => {} });
const shops: Child[] = [];

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first.');
  await postgres.init();
}, 120_000);

afterAll(async () => {
  for (const shop of shops) {
    if (shop.process.exitCode === null && shop.process.signalCode === null) shop.process.kill('SIGKILL');
    await shop.exited;
  }
  postgres.remove();
});

async function get(port: number, pathname: string) {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { signal: AbortSignal.timeout(20_000) });
  return { status: res.status, headers: res.headers, body: await res.text(), ms: Date.now() - started };
}

async function waitFor(port: number, pathname: string, status: number, withinMs: number) {
  const until = Date.now() + withinMs;
  for (;;) {
    const answer = await get(port, pathname).catch(() => undefined);
    if (answer?.status === status) return answer;
    if (Date.now() > until) throw new Error(`${pathname} still ${answer?.status} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function startShop() {
  const port = await freePort();
  const shop = run('scripts/serve.ts', {
    DATABASE_URL: postgres.url,
    JWT_SECRET: 'a secret of the database-down test',
    DATA_DIR: path.join(postgres.tempDir, 'shop'),
    HOST: '127.0.0.1',
    PORT: String(port),
    // Every request reaches the database: no page or read cache to answer for it.
    PAGE_CACHE_SECONDS: '0',
    READ_CACHE_SECONDS: '0',
  });
  shops.push(shop);
  await shop.waitFor('[kirana] serving');
  return { shop, port };
}

const api = '/api/app/Products/LoadProductsByPriorityTag';

/** What a shop on a stopped server answers: the 503 page, the API's JSON 503, /readyz 503, all within 3 s. */
async function expectUnavailable(port: number) {
  const page = await get(port, '/');
  expect(page.status).toBe(503);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.body).toContain('Shop unavailable');
  expect(page.ms).toBeLessThan(3_000);
  const listing = await get(port, '/shop?type=hot');
  expect(listing.status).toBe(503);
  expect(listing.ms).toBeLessThan(3_000);
  const json = await get(port, api);
  expect(json.status).toBe(503);
  expect(json.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(JSON.parse(json.body)).toMatchObject({ error: { code: 'unavailable' } });
  expect(json.ms).toBeLessThan(3_000);
  const readyz = await get(port, '/readyz');
  expect(readyz.status).toBe(503);
  expect(readyz.ms).toBeLessThan(3_000);
  expect((await get(port, '/healthz')).status).toBe(200);
}

/** The server is up again: the same shop process serves pages and the API once /readyz says so. */
async function expectServingAgain(port: number) {
  await waitFor(port, '/readyz', 200, 15_000);
  expect((await get(port, '/')).status).toBe(200);
  expect((await get(port, api)).status).toBe(200);
}

it('answers 503 while PostgreSQL is down, quickly, and serves again when it is back, without a restart', async () => {
  const { shop, port } = await startShop();
  await waitFor(port, '/readyz', 200, 60_000);
  expect((await get(port, '/')).status).toBe(200);
  expect((await get(port, api)).status).toBe(200);

  postgres.stop();
  await expectUnavailable(port);

  postgres.start();
  await expectServingAgain(port);

  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('starts while PostgreSQL is down, answers 503, and opens the database when it comes up', async () => {
  // The database of the test above, migrated and seeded; its server stopped before this shop starts.
  postgres.stop();
  const { shop, port } = await startShop();
  await expectUnavailable(port);

  postgres.start();
  await expectServingAgain(port);
  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('survives the server ending a connection that is checked out between two queries of a transaction', async () => {
  // Before, pg-pool listened for errors only on idle connections: the server's 57P01 on a checked-out one was an
  // 'error' nobody heard, and the process died (two shops of `npm run load` did, at the database's stop).
  const handle = await openDatabase({ kind: 'postgres', url: postgres.url });
  const transaction = handle.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    postgres.stop();
    // The FATAL message arrives while no query runs on this connection.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await tx.execute(sql`select 1`);
  });
  await expect(transaction).rejects.toThrow();
  postgres.start();
  await handle.close();
});
