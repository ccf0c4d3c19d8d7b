// The storefront as a pure front end (API_URL) of an API host that is down, or broken: shoppers get a
// friendly 503, or SPEC §2's 500 page, and never a stack trace.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

async function startStorefront(apiUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, API_URL: apiUrl, HOST: '127.0.0.1', PORT: String(port) },
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/robots.txt`).then(() => true, () => false);
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the storefront did not start');
}

test.describe('when the API host is unreachable', () => {
  let storefront: ChildProcess;
  test.beforeAll(async () => {
    // Nothing listens on this port: every API call is refused.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    storefront = await startStorefront(`http://127.0.0.1:${port}/api`, 4411);
  });
  test.afterAll(() => {
    storefront?.kill();
  });

  test('catalogue pages answer 503 with a friendly message and a Refresh Page button', async ({ page }) => {
    for (const path of ['/', '/shop?type=hot', '/product-detail?id=1']) {
      const res = await page.goto(`http://127.0.0.1:4411${path}`);
      expect(res?.status(), path).toBe(503);
      await expect(page.getByRole('heading', { name: 'Sorry, something went wrong.' })).toBeVisible();
      await expect(page.getByTestId('error-message')).toContainText('cannot reach its catalogue');
      await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
      expect(await page.content()).not.toMatch(/ECONNREFUSED|at .*\.mjs:\d+/);
    }
  });

  test('its /api answers a JSON 503, not an HTML page', async ({ request }) => {
    const res = await request.get('http://127.0.0.1:4411/api/app/Brands/LoadBrandsByPriority');
    expect(res.status()).toBe(503);
    expect(res.headers()['retry-after']).toBe('30');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unavailable');
  });
});

test.describe('when a page crashes while rendering', () => {
  let storefront: ChildProcess;
  let broken: http.Server;
  test.beforeAll(async () => {
    // An API host that answers every call with a body of the wrong shape.
    broken = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"unexpected":true}');
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    storefront = await startStorefront(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/api`, 4412);
  });
  test.afterAll(() => {
    storefront?.kill();
    broken?.close();
  });

  test('the 500 page shows, without a stack trace, and Refresh Page reloads', async ({ page }) => {
    const res = await page.goto('http://127.0.0.1:4412/shop?type=hot');
    expect(res?.status()).toBe(500);
    await expect(page.getByRole('heading', { name: 'Sorry, something went wrong.' })).toBeVisible();
    expect(await page.content()).not.toMatch(/TypeError|at .*\.mjs:\d+/);
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Refresh Page' }).click();
    await reloaded;
    await expect(page).toHaveURL('http://127.0.0.1:4412/shop?type=hot');
  });
});
