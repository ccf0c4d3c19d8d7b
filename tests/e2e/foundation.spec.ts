import { expect, test } from '@playwright/test';

test('the home page server-renders the hot products of the seeded catalogue', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Kirana/);
  await expect(page.getByRole('heading', { name: 'Popular Products' })).toBeVisible();
  const popular = page.locator('section', { has: page.getByRole('heading', { name: 'Popular Products' }) });
  const cards = popular.getByTestId('product-card');
  await expect(cards).toHaveCount(10);
  await expect(cards.first().getByText('Hot', { exact: true })).toBeVisible();
  await expect(cards.first().getByTestId('price')).toHaveText(/^₹[\d,]+(\.\d{2})?$/);
});

test('the embedded API answers at /api with 16 brands', async ({ request }) => {
  const res = await request.get('/api/app/Brands/LoadBrandsByPriority?skip=0&take=16');
  expect(res.status()).toBe(200);
  const brands = (await res.json()) as { id: number; name: string }[];
  expect(brands).toHaveLength(16);
});

test('bad input to the API is a 400 with a JSON error, not a crash', async ({ request }) => {
  const res = await request.get('/api/app/Products/not-a-number');
  expect(res.status()).toBe(400);
  expect(await res.json()).toEqual({ error: { code: 'bad_request', message: 'id must be a positive whole number' } });
});
