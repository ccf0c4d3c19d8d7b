import { expect, test } from '@playwright/test';
import type { CategoryDto } from '../../src/server/schemas.ts';

// Shoppers on slow phones and crawlers: everything here works before (or without) any JavaScript.
test.use({ javaScriptEnabled: false });

test('browse, search and open a product without JavaScript', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  const search = page.getByRole('search').first().locator('input[name="name"]');
  await search.fill('tomato');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/search\?name=tomato/);
  const first = page.getByTestId('product-card').first();
  const name = (await first.getByRole('heading').textContent())!.trim();
  await first.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(/\/product-detail\?id=\d+/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  // Both tab panels show, one after the other.
  await expect(page.getByRole('heading', { name: 'Description', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Reviews \(\d+\)$/, level: 2 })).toBeVisible();
});

test('Load More is a link to the next page', async ({ page, request }) => {
  const categories = (await (await request.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as CategoryDto[];
  expect(categories.length, 'the demo catalogue has two pages of categories').toBeGreaterThan(24);
  await page.goto('/');
  await page.getByTestId('load-more-categories').click();
  // Like Load More with JavaScript: the earlier categories stay, and the page opens at the first new one.
  await expect(page).toHaveURL(/\?categories=2#categories-page-2$/);
  const cards = page.getByTestId('category-card');
  await expect(cards).toHaveCount(categories.length);
  await expect(cards.nth(24)).toHaveAttribute('id', 'categories-page-2');
  await expect(cards.nth(24)).toContainText(categories[24]!.name);
  await expect(cards.nth(24)).toBeInViewport();
  await page.goto('/shop?type=hot');
  const more = page.getByTestId('load-more');
  await expect(more).toHaveAttribute('href', '/shop?type=hot&page=2');
  await more.click();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Previous page' })).toBeVisible();
});

test('a brand and a category are reachable through real links', async ({ page }) => {
  await page.goto('/brands');
  const brand = page.getByTestId('brand-list').getByRole('link').first();
  const brandName = (await brand.textContent())!.trim();
  await brand.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(brandName);
});

test('a review posts without JavaScript and shows on the page', async ({ page, request }) => {
  const hot = (await (await request.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number }[];
  const id = hot[5]!.id;
  await page.goto(`/product-detail?id=${id}`);
  await page.getByLabel('Comment').fill('Arrived fresh and on time');
  await page.getByLabel('Name').fill('Farhan');
  await page.getByRole('radio', { name: '5 stars' }).check();
  await page.getByRole('button', { name: 'Post review' }).click();
  await expect(page).toHaveURL(new RegExp(`/product-detail\\?id=${id}&reviewed=1#reviews$`));
  await expect(page.getByText('Thank you! Your review has been posted.')).toBeVisible();
  await expect(page.getByTestId('review-list')).toContainText('Arrived fresh and on time');
});

test('a bad review without JavaScript is a 400 page that keeps the input', async ({ page, request }) => {
  const hot = (await (await request.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number }[];
  await page.goto(`/product-detail?id=${hot[6]!.id}`);
  await page.getByLabel('Comment').fill('Nice');
  await page.getByLabel('Name').fill('Z');
  await page.getByRole('radio', { name: '3 stars' }).check();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Post review' }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText('name must be at least 2 characters');
  await expect(page.getByLabel('Comment')).toHaveValue('Nice');
  await expect(page.getByRole('radio', { name: '3 stars' })).toBeChecked();
});
