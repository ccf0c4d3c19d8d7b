// Search as shoppers type it (issue 24), against the built server and its seeded API: a Hindi word in Devanagari in
// the search box, suggestions with a picture, price and food mark, and a search that finds nothing offering a category.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { SuggestionDto } from '../../src/server/schemas.ts';
import { rupees } from './helpers.ts';

const searchBox = (page: Page) => page.locator('#site-search');
const listbox = (page: Page) => page.locator('#site-search-listbox');

async function typeInSearch(page: Page, text: string) {
  await page.goto('/');
  const input = searchBox(page);
  await input.click();
  await expect(page.locator('astro-island:has(#site-search)')).not.toHaveAttribute('ssr', /.*/);
  await input.pressSequentially(text);
  await expect(input).toHaveValue(text);
  return input;
}

test.describe('a Hindi word in the search box', () => {
  test('दाल suggests dals, each product with its picture and price', async ({ page, request }) => {
    await typeInSearch(page, 'दाल');
    const products = listbox(page).getByRole('option').filter({ hasText: 'Product' });
    await expect(products.first()).toBeVisible();
    await expect(products.filter({ hasText: /\bdal\b/i }).first()).toBeVisible();

    // What the API suggests is what the box shows: the picture, the price in rupees.
    const suggested = ((await (await request.get(`/api/app/Products/SearchProducts/${encodeURIComponent('दाल')}`)).json()) as SuggestionDto[])
      .filter((s) => s.type === 'products');
    const first = products.first();
    await expect(first).toContainText(suggested[0]!.name);
    await expect(first).toContainText(rupees(suggested[0]!.pricePaise!));
    const picture = first.locator('img');
    await expect(picture).toHaveAttribute('alt', '');
    await expect(picture).toHaveAttribute('width', '40');
    await expect(picture).toHaveAttribute('height', '40');
    await expect(picture).toHaveAttribute('loading', 'lazy');
    // The picture loaded: a broken one has no natural width.
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const count = await products.count();
    for (let i = 0; i < count; i++) await expect(products.nth(i)).toContainText('₹');
  });

  test('submitting दाल lists the dals', async ({ page }) => {
    const input = await typeInSearch(page, 'दाल');
    await expect(listbox(page).getByRole('option').first()).toBeVisible();
    await input.press('Enter');
    await expect(page).toHaveURL(/\/search\?name=%E0%A4%A6%E0%A4%BE%E0%A4%B2$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('दाल');
    const cards = page.getByTestId('product-card');
    await expect(cards.first()).toBeVisible();
    const names = await cards.locator('.name a').allInnerTexts();
    expect(names.filter((n) => /\bdal\b/i.test(n)).length, names.join(', ')).toBeGreaterThan(2);
  });

  test('the suggestions with pictures have no axe violations', async ({ page }) => {
    const input = await typeInSearch(page, 'दाल');
    await expect(listbox(page).getByRole('option').first()).toBeVisible();
    await input.press('ArrowDown');
    const { violations } = await new AxeBuilder({ page }).include('header').analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test.describe('a search that finds nothing', () => {
  test('offers the nearest category and says what it looked for', async ({ page }) => {
    const res = await page.goto(`/search?name=${encodeURIComponent('सब्ज़ी मंडी दिल्ली')}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId('no-products')).toBeVisible();
    const lookedFor = page.getByTestId('looked-for');
    await expect(lookedFor).toContainText('We looked for:');
    await expect(lookedFor).toContainText('vegetables');
    await expect(lookedFor.locator('q[lang="hi"]').first()).toBeVisible();
    const nearest = page.getByTestId('nearest-categories').getByRole('link');
    await expect(nearest.first()).toContainText('Fruits & Vegetables');
    await nearest.first().click();
    await expect(page).toHaveURL(/\/shop\?type=category&id=fruits-vegetables$/);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('a Hindi search lists its products, and one that finds nothing still offers the category', async ({ page }) => {
      await page.goto(`/search?name=${encodeURIComponent('चावल')}`);
      const names = await page.getByTestId('product-card').locator('.name a').allInnerTexts();
      expect(names.length).toBeGreaterThan(0);
      expect(names[0]).toMatch(/\brice\b/i);
      await page.goto(`/search?name=${encodeURIComponent('सब्ज़ी मंडी दिल्ली')}`);
      await expect(page.getByTestId('nearest-categories').getByRole('link').first()).toContainText('Fruits & Vegetables');
    });
  });
});
