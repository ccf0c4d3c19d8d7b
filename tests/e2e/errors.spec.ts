// The storefront as a pure front end (API_URL) of an API host that is down, or broken: shoppers get a
// friendly 503, or SPEC §2's 500 page, and never a stack trace.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';

/** A storefront of the API host at `apiUrl`, on a free port; it is up when it answers a page that needs no API. */
const startStorefront = (apiUrl: string) => startBuiltServer({ env: { API_URL: apiUrl }, readyPath: '/robots.txt' });

test.describe('when the API host is unreachable', () => {
  let storefront: BuiltServer;
  test.beforeAll(async () => {
    // Nothing listens on this port: every API call is refused.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    storefront = await startStorefront(`http://127.0.0.1:${port}/api`);
  });
  test.afterAll(async () => {
    await storefront?.stop();
  });

  test('catalogue pages answer 503 with a friendly message and a Refresh Page button', async ({ page }) => {
    for (const path of ['/', '/shop?type=hot', '/product-detail?id=1']) {
      const res = await page.goto(`${storefront.url}${path}`);
      expect(res?.status(), path).toBe(503);
      await expect(page.getByRole('heading', { name: 'Sorry, something went wrong.' })).toBeVisible();
      await expect(page.getByTestId('error-message')).toContainText('cannot reach its catalogue');
      await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();
      expect(await page.content()).not.toMatch(/ECONNREFUSED|at .*\.mjs:\d+/);
    }
  });

  test('its /api answers a JSON 503, not an HTML page', async ({ request }) => {
    const res = await request.get(`${storefront.url}/api/app/Brands/LoadBrandsByPriority`);
    expect(res.status()).toBe(503);
    expect(res.headers()['retry-after']).toBe('30');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unavailable');
  });
});

test.describe('when a page crashes while rendering', () => {
  let storefront: BuiltServer;
  let broken: http.Server;
  test.beforeAll(async () => {
    // An API host that answers every call with a body of the wrong shape.
    broken = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"unexpected":true}');
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    storefront = await startStorefront(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/api`);
  });
  test.afterAll(async () => {
    await storefront?.stop();
    broken?.close();
  });

  test('the 500 page shows, without a stack trace, and Refresh Page reloads', async ({ page }) => {
    const res = await page.goto(`${storefront.url}/shop?type=hot`);
    expect(res?.status()).toBe(500);
    await expect(page.getByRole('heading', { name: 'Sorry, something went wrong.' })).toBeVisible();
    expect(await page.content()).not.toMatch(/TypeError|at .*\.mjs:\d+/);
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Refresh Page' }).click();
    await reloaded;
    await expect(page).toHaveURL(`${storefront.url}/shop?type=hot`);
  });
});
