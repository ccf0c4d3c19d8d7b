// The shop split in two: the API alone (`npm run api`) and a storefront that is a pure front end of it
// (API_URL). Both are real servers of ours on loopback, on their own fresh database.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const API_PORT = 4421;
const SHOP_PORT = 4422;
const shop = `http://127.0.0.1:${SHOP_PORT}`;
let api: ChildProcess;
let storefront: ChildProcess;
let dataDir: string;

async function waitFor(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-split-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir };
  delete env.API_URL;
  api = spawn(process.execPath, ['scripts/api.ts'], { env: { ...env, API_PORT: String(API_PORT), TRUST_PROXY: 'true' }, stdio: 'ignore' });
  await waitFor(`http://127.0.0.1:${API_PORT}/api/app/Brands/LoadBrandsByPriority?take=1`, 60_000);
  storefront = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...env, PORT: String(SHOP_PORT), API_URL: `http://127.0.0.1:${API_PORT}/api` },
    stdio: 'ignore',
  });
  await waitFor(`${shop}/robots.txt`, 30_000);
});

test.afterAll(() => {
  storefront?.kill();
  api?.kill();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the storefront renders from the API host and passes /api through to it', async ({ page, request }) => {
  await page.goto(`${shop}/`);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  const brands = await request.get(`${shop}/api/app/Brands/LoadBrandsByPriority?skip=0&take=16`);
  expect(brands.status()).toBe(200);
  expect(await brands.json()).toHaveLength(16);
  const bad = await request.get(`${shop}/api/app/Products/abc`);
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ error: { code: 'bad_request', message: 'id must be a positive whole number' } });
});

test('search suggestions in the browser come through the storefront', async ({ page }) => {
  await page.goto(`${shop}/`);
  const box = page.getByRole('combobox', { name: 'Search products, brands and categories' }).first();
  await box.click();
  await box.pressSequentially('tomatoe');
  await expect(page.getByRole('option', { name: /tomato/i }).first()).toBeVisible();
});

test('a review posted in the browser is stored by the API host', async ({ page, request }) => {
  const hot = (await (await request.get(`http://127.0.0.1:${API_PORT}/api/app/Products/LoadProductsByPriorityTag`)).json()) as { id: number }[];
  const id = hot[2]!.id;
  await page.goto(`${shop}/product-detail?id=${id}#reviews`);
  await page.getByLabel('Comment').fill('Fresh stock, delivered on time');
  await page.getByLabel('Name').fill('Kavya');
  await page.getByRole('radio', { name: '5 stars' }).check();
  await page.getByRole('button', { name: 'Post review' }).click();
  await expect(page.getByText('Thank you! Your review has been posted.')).toBeVisible();
  const stored = (await (await request.get(`http://127.0.0.1:${API_PORT}/api/Reviews/${id}`)).json()) as { description: string }[];
  expect(stored[0]!.description).toBe('Fresh stock, delivered on time');
});

test('the contact limit counts the shopper, whatever address headers the client sends', async ({ request }) => {
  const message = { name: 'Ravi', email: 'ravi@example.in', message: 'Please add more millets to the shop.' };
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await request.post(`${shop}/api/app/ContactMessages`, {
      data: message,
      headers: { 'x-kirana-client-ip': `10.9.9.${i}`, 'x-forwarded-for': `10.8.8.${i}` },
    });
    statuses.push(res.status());
  }
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
});
