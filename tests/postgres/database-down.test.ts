// The built shop on a PostgreSQL server that stops and starts again: while it is down, pages answer the friendly 503
// page within 3 s, the API a JSON 503 with Retry-After, /readyz 503 (and /healthz 200); once it is back, the same
// process serves again. The server here is a throwaway one of this test's own (Debian's binaries, as
// scripts/test-pg.ts starts its own), since stopping the suite's shared one would fail the other tests. Needs dist/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findOnPath } from '../../scripts/lib/system.ts';
import { freePort, root, run, type Child } from '../server/processes.ts';

const PG_ROOT = '/usr/lib/postgresql';
const isRoot = process.getuid?.() === 0;
let bin = '';
let tempDir = '';
let pgPort = 0;
const shops: Child[] = [];

/** Runs a PostgreSQL tool (as the postgres user when we are root, which PostgreSQL refuses to run as). */
function pgTool(tool: string, args: string[]): string {
  const [command, argv] = isRoot ? [findOnPath('runuser') ?? 'runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
  const result = spawnSync(command, argv, { encoding: 'utf8', cwd: '/', env: { ...process.env, LC_ALL: 'C' } });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

const dataDir = () => path.join(tempDir, 'data');
const startPostgres = () =>
  pgTool('pg_ctl', [
    '-D', dataDir(), '-l', path.join(tempDir, 'postgres.log'), '-w', '-t', '60', 'start',
    '-o', `-p ${pgPort} -k ${path.join(tempDir, 'sock')} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
  ]);
const stopPostgres = () => pgTool('pg_ctl', ['-D', dataDir(), '-m', 'fast', '-w', '-t', '60', 'stop']);

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first.');
  const version = fs.readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!version) throw new Error(`No PostgreSQL in ${PG_ROOT}: run this with \`npm run test:pg\`, which installs it.`);
  bin = path.join(PG_ROOT, version, 'bin');
  tempDir = fs.mkdtempSync(path.join(isRoot ? '/tmp' : os.tmpdir(), 'kirana-pg-down-'));
  fs.mkdirSync(path.join(tempDir, 'sock'));
  if (isRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    for (const dir of [tempDir, path.join(tempDir, 'sock')]) fs.chownSync(dir, id('-u'), id('-g'));
  }
  fs.chmodSync(tempDir, 0o700);
  pgTool('initdb', ['-D', dataDir(), '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
});

afterAll(async () => {
  for (const shop of shops) {
    if (shop.process.exitCode === null && shop.process.signalCode === null) shop.process.kill('SIGKILL');
    await shop.exited;
  }
  if (fs.existsSync(path.join(dataDir(), 'postmaster.pid'))) stopPostgres();
  fs.rmSync(tempDir, { recursive: true, force: true });
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
    DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/kirana`,
    JWT_SECRET: 'a secret of the database-down test',
    DATA_DIR: path.join(tempDir, 'shop'),
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

it('answers 503 while PostgreSQL is down, quickly, and serves again when it is back, without a restart', async () => {
  pgPort = await freePort();
  startPostgres();
  pgTool('psql', ['-X', '-q', '-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-d', 'postgres', '-c', 'CREATE DATABASE kirana']);

  const { shop, port } = await startShop();
  await waitFor(port, '/readyz', 200, 60_000);
  expect((await get(port, '/')).status).toBe(200);
  expect((await get(port, api)).status).toBe(200);

  stopPostgres();
  await expectUnavailable(port);

  startPostgres();
  await waitFor(port, '/readyz', 200, 15_000);
  expect((await get(port, '/')).status).toBe(200);
  expect((await get(port, api)).status).toBe(200);

  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});

it('starts while PostgreSQL is down, answers 503, and opens the database when it comes up', async () => {
  // The database of the test above, migrated and seeded; its server stopped before this shop starts.
  stopPostgres();
  const { shop, port } = await startShop();
  await expectUnavailable(port);

  startPostgres();
  await waitFor(port, '/readyz', 200, 15_000);
  expect((await get(port, '/')).status).toBe(200);
  expect((await get(port, api)).status).toBe(200);
  shop.process.kill('SIGTERM');
  expect((await shop.exited).code).toBe(0);
});
