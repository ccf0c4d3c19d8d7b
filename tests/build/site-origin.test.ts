// Pre-rendered pages carry the running shop's origin (issue 23): `npm start` with a SITE_URL other than the build's
// rebuilds, and about's canonical link and og:url name it. A copy of the project, so the shared dist/ is left alone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyProject, npmStart } from '../helpers/project-copy.ts';
import { freePort } from '../server/processes.ts';

let copy: string;
let dataDir: string;
let port: number;

beforeAll(async () => {
  copy = copyProject('kirana-origin-');
  dataDir = path.join(copy, 'data');
  port = await freePort();
});
afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

/** `npm start` in the copy with `env`, until the shop is open; then stopped. What it printed, and about's links. */
async function startOnce(env: NodeJS.ProcessEnv): Promise<{ output: string; canonical: string; ogUrl: string }> {
  const shop = npmStart(copy, { PORT: String(port), DATA_DIR: dataDir, ...env });
  try {
    await shop.open;
    const html = await (await fetch(`http://127.0.0.1:${port}/about`)).text();
    return {
      output: shop.output(),
      canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? '',
      ogUrl: /<meta property="og:url" content="([^"]+)"/.exec(html)?.[1] ?? '',
    };
  } finally {
    await shop.stop();
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
