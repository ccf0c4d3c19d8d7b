// A running shop serves the build it started with until it is restarted (issue 33, docs/architecture.md "Builds"):
// a refused second start, a second shop on another origin, and `npm run build` beside it leave it answering every page.
// Real `npm start` processes in a copy of the project, so the shared dist/ is left alone; the page cache is off, so
// every page is rendered from the build's files after the change beside it.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, root } from './processes.ts';

const PAGES = ['/', '/home', '/shop?type=hot', '/product-detail?id=3', '/search?name=dal', '/about'];
const NEW_SENTENCE = 'We now deliver to Mysuru too, from our new store on Sayyaji Rao Road.';

let copy: string;
let port: number;
interface StartedShop {
  /** Resolves once it serves; rejects if it exits first. */
  open: Promise<void>;
  exited: Promise<{ code: number | null; output: string }>;
  output: () => string;
  stop: () => Promise<void>;
}
const started: StartedShop[] = [];

/** The environment a build runs in from `npm run build`: vitest's own (NODE_ENV=test, DEV=1, …) would build astro dev's shop. */
function shopEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const test = ['NODE_ENV', 'VITE_USER_NODE_ENV', 'DEV', 'PROD', 'MODE', 'SSR', 'BASE_URL', 'TEST', 'VITEST', 'VITEST_MODE'];
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !test.includes(name)));
  return { ...base, ASTRO_TELEMETRY_DISABLED: '1', HOST: '127.0.0.1', DATABASE_URL: '', API_URL: '', SITE_URL: '', PAGE_CACHE_SECONDS: '0', ...env };
}

/** `npm start` in the copy; `open` resolves once it serves, `exited` with its exit code and output. */
function startShop(env: NodeJS.ProcessEnv): StartedShop {
  const child = spawn(process.execPath, [path.join(copy, 'scripts/start.ts')], { cwd: copy, env: shopEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  const open = new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[kirana] the shop is open at')) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then(({ code }) => reject(new Error(`npm start exited (${code}) before serving:\n${output}`)));
  });
  open.catch(() => {});
  const shop: StartedShop = {
    open,
    exited,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  started.push(shop);
  return shop;
}

/** Each page's status from the shop on `shopPort`, e.g. { '/home': 200, … }. */
async function statuses(shopPort: number): Promise<Record<string, number>> {
  const answers: Record<string, number> = {};
  for (const page of PAGES) {
    answers[page] = await fetch(`http://127.0.0.1:${shopPort}${page}`).then(
      (response) => response.status,
      (error: unknown) => { throw new Error(`${page}: ${String(error)}\n${started.map((shop) => shop.output()).join('\n----\n')}`); },
    );
  }
  return answers;
}
const allAnswer200 = Object.fromEntries(PAGES.map((page) => [page, 200]));

const about = async (shopPort: number) => (await fetch(`http://127.0.0.1:${shopPort}/about`)).text();
const builds = () => (fs.existsSync(path.join(copy, 'builds')) ? fs.readdirSync(path.join(copy, 'builds')).filter((name) => !name.startsWith('.')).sort() : []);

beforeAll(async () => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-builds-'));
  for (const entry of ['src', 'public', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
    fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  // Astro keeps its cache in node_modules/.astro by default: keep this copy's cache out of the shared folder.
  const config = path.join(copy, 'astro.config.mjs');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('defineConfig({', "defineConfig({\n  cacheDir: './.astro-cache',"));
  port = await freePort();
}, 60_000);

afterAll(async () => {
  for (const shop of started) await shop.stop();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

let first: StartedShop;

it('a refused second start on the same data folder (another port, so another origin) changes nothing', async () => {
  first = startShop({ PORT: String(port), DATA_DIR: path.join(copy, 'data') });
  await first.open;
  const buildsBefore = builds();
  const current = fs.realpathSync(path.join(copy, 'dist'));

  const second = startShop({ PORT: String(await freePort()), DATA_DIR: path.join(copy, 'data') });
  const refused = await second.exited;
  expect(await statuses(port)).toEqual(allAnswer200);
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/could not start: the data folder .* is in use by process \d+/);
  expect(refused.output).not.toContain('building');
  expect(builds()).toEqual(buildsBefore);
  expect(fs.realpathSync(path.join(copy, 'dist'))).toBe(current);
}, 300_000);

it('a second shop from the same folder on another origin and data folder leaves the first answering every page', async () => {
  const otherPort = await freePort();
  const other = startShop({ PORT: String(otherPort), DATA_DIR: path.join(copy, 'other-data') });
  await other.open;
  expect(other.output()).toContain("[kirana] the shop's origin is");
  expect(await statuses(port)).toEqual(allAnswer200);
  expect(await statuses(otherPort)).toEqual(allAnswer200);
  expect(await about(port)).toContain(`<link rel="canonical" href="http://127.0.0.1:${port}/about"`);
  expect(await about(otherPort)).toContain(`<link rel="canonical" href="http://127.0.0.1:${otherPort}/about"`);
  await other.stop();
}, 300_000);

it('`npm run build` beside a running shop leaves it answering every page; a restart serves the new build', async () => {
  const aboutPage = path.join(copy, 'src/content/pages/about.md');
  fs.appendFileSync(aboutPage, `\n\n${NEW_SENTENCE}\n`);
  const served = fs.realpathSync(path.join(copy, 'dist'));
  // As `npm run build` runs it, for this shop's origin. Not spawnSync: a test blocked that long misses the shop closing
  // its idle kept-alive connections, and its next fetch would go out on a closed one.
  await promisify(execFile)(process.execPath, [path.join(copy, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: copy,
    env: shopEnv({ PORT: String(port) }),
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(await statuses(port)).toEqual(allAnswer200);
  expect(await about(port)).not.toContain(NEW_SENTENCE);
  expect(fs.realpathSync(path.join(copy, 'dist'))).not.toBe(served);

  await first.stop();
  const restarted = startShop({ PORT: String(port), DATA_DIR: path.join(copy, 'data') });
  await restarted.open;
  expect(restarted.output()).toContain('[kirana] build is up to date');
  expect(await statuses(port)).toEqual(allAnswer200);
  expect(await about(port)).toContain(NEW_SENTENCE);
  // The build the first shop served is gone once no process uses it; the one now served stays.
  expect(fs.existsSync(served)).toBe(false);
  expect(builds()).toEqual([path.basename(fs.realpathSync(path.join(copy, 'dist')))]);
}, 300_000);
