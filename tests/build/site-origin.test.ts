// Pre-rendered pages carry the running shop's origin (issue 23): `npm start` with a SITE_URL other than the build's
// rebuilds, and about's canonical link and og:url name it. A copy of the project, so the shared dist/ is left alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../server/processes.ts';

const root = path.resolve(import.meta.dirname, '../..');
let copy: string;
let dataDir: string;
let port: number;

beforeAll(async () => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-origin-'));
  dataDir = path.join(copy, 'data');
  for (const entry of ['src', 'public', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
    fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  // Astro keeps its cache in node_modules/.astro by default: keep this copy's cache out of the shared folder.
  const config = path.join(copy, 'astro.config.mjs');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('defineConfig({', "defineConfig({\n  cacheDir: './.astro-cache',"));
  port = await freePort();
});
afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

/** `npm start` in the copy with `env`, until the shop is open; then stopped. What it printed, and about's links. */
async function startOnce(env: NodeJS.ProcessEnv): Promise<{ output: string; canonical: string; ogUrl: string }> {
  const child = spawn(process.execPath, [path.join(copy, 'scripts/start.ts')], {
    cwd: copy,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', API_URL: '', SITE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (/\[kirana\] (the shop is open|serving) at/.test(output)) resolve();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
    });
    const html = await (await fetch(`http://127.0.0.1:${port}/about`)).text();
    return {
      output,
      canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? '',
      ogUrl: /<meta property="og:url" content="([^"]+)"/.exec(html)?.[1] ?? '',
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

it('builds with the address it listens on when no SITE_URL is set', async () => {
  const first = await startOnce({});
  expect(first.output).toContain('[kirana] first start: building the shop…');
  expect(first.canonical).toBe(`http://127.0.0.1:${port}/about`);
}, 300_000);

it('rebuilds when started with another SITE_URL, and the pre-rendered pages name it', async () => {
  const moved = await startOnce({ SITE_URL: 'https://shop.example.in' });
  expect(moved.output).toContain("[kirana] the shop's origin is https://shop.example.in/, the build's");
  expect(moved.output).not.toContain('build is up to date');
  expect(moved.canonical).toBe('https://shop.example.in/about');
  expect(moved.ogUrl).toBe('https://shop.example.in/about');
}, 300_000);

it('does not rebuild when started again with the same one', async () => {
  const again = await startOnce({ SITE_URL: 'https://shop.example.in' });
  expect(again.output).toContain('[kirana] build is up to date');
  expect(again.canonical).toBe('https://shop.example.in/about');
}, 120_000);
