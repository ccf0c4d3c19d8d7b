// The shop split in two: the API alone (`npm run api`) and a storefront that is a pure front end of it
// (API_URL). Both are real servers of ours on loopback, on their own fresh database.
import { expect, test } from '@playwright/test';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';

let api: BuiltServer;
let storefront: BuiltServer;
let shop: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  api = await startBuiltServer({ script: 'api', env: { TRUST_PROXY: 'true' } });
  storefront = await startBuiltServer({ env: { API_URL: `${api.url}/api` }, readyPath: '/robots.txt' });
  shop = storefront.url;
});

test.afterAll(async () => {
  await storefront?.stop();
  await api?.stop();
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
  const hot = (await (await request.get(`${api.url}/api/app/Products/LoadProductsByPriorityTag`)).json()) as { id: number }[];
  const id = hot[2]!.id;
  await page.goto(`${shop}/product-detail?id=${id}#reviews`);
  await page.getByLabel('Comment').fill('Fresh stock, delivered on time');
  await page.getByLabel('Name').fill('Kavya');
  await page.getByRole('radio', { name: '5 stars' }).check();
  await page.getByRole('button', { name: 'Post review' }).click();
  await expect(page.getByText('Thank you! Your review has been posted.')).toBeVisible();
  const stored = (await (await request.get(`${api.url}/api/Reviews/${id}`)).json()) as { description: string }[];
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
