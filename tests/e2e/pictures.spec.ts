// Photos in the browser (issue 13): a shop of its own whose products show stored photos (tests/server/fixtures/
// photo-shop.ts), so the sized pictures are what Chromium loads: AVIF at the width the srcset picks, the gallery's
// thumbnails swapping the main picture's sizes, the islands' pictures sized too, and Save-Data taking the smallest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';
import type { SavedImage } from '../../src/server/services/image-files.ts';
import { preparePhotoShop } from '../server/fixtures/photo-shop.ts';
import { addToCartByApi, bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import type { ApiProduct } from './helpers.ts';

let parent: string;
let shop: BuiltServer;
let photos: SavedImage[];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-e2e-pictures-'));
  const dataDir = path.join(parent, 'data');
  photos = await preparePhotoShop(dataDir);
  shop = await startBuiltServer({ env: { DATA_DIR: dataDir } });
});
test.afterAll(async () => {
  await shop?.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const shaOf = (url: string) => fileOf(url).split('.')[0];

/** The picture an <img> shows once loaded: the URL Chromium chose from the srcset, and its width in CSS pixels at
 * the density the srcset promised (a 160 px file for a 480w entry shown at 1x is 160). */
async function loaded(page: Page, selector: string) {
  const img = page.locator(selector).first();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  return img.evaluate((el: HTMLImageElement) => ({ currentSrc: el.currentSrc, naturalWidth: el.naturalWidth }));
}

test('the product page shows its photo as AVIF and a thumbnail swaps in the sizes of its own photo', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const avif = page.waitForResponse((res) => /\/api\/images\/\d+\//.test(res.url()));
  await page.goto(`${shop.url}/product-detail?id=1`);
  expect((await avif).headers()['content-type']).toBe('image/avif');
  const main = page.getByTestId('gallery-main');
  const first = await loaded(page, '[data-testid="gallery-main"]');
  // 390 px wide at 1x: the picture is 260 px wide on a phone, and 320 the first width that covers it.
  expect(first.currentSrc).toMatch(/\/api\/images\/320\//);

  const thumbs = page.locator('a[data-gallery-thumb]');
  await expect(thumbs).toHaveCount(3);
  await expect(thumbs.nth(1)).toHaveAttribute('href', '#picture-2');
  const second = (await page.locator('#picture-2').getAttribute('src'))!;
  expect(shaOf(second)).not.toBe(shaOf(first.currentSrc));
  await thumbs.nth(1).click();
  await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(main).toHaveAttribute('srcset', new RegExp(`^/api/images/160/${fileOf(second).replace('.', '\\.')} 160w`));
  await expect.poll(async () => shaOf((await loaded(page, '[data-testid="gallery-main"]')).currentSrc)).toBe(shaOf(second));
  // The address stays the product's (no #picture-2 to scroll to).
  expect(new URL(page.url()).hash).toBe('');
});

test('without JavaScript a thumbnail shows its photo on the page, sized, and the shopper stays in the shop', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${shop.url}/product-detail?id=1`);
  const third = page.locator('#picture-3');
  await expect(third).toBeHidden();
  await page.locator('a[data-gallery-thumb]').nth(2).click();
  await expect(page).toHaveURL(`${shop.url}/product-detail?id=1#picture-3`);
  await expect(third).toBeVisible();
  await expect(page.getByTestId('gallery-main')).toBeHidden();
  const shown = await loaded(page, '#picture-3');
  expect(shown.currentSrc).toMatch(/\/api\/images\/320\//);
  await context.close();
});

test('the cart and wishlist islands show sized photos', async ({ page }) => {
  const api = await playwrightRequest.newContext({ baseURL: shop.url });
  const { session } = await registerByApi(api, shop.dataDir);
  const product = (await (await api.get('/api/app/Products/2')).json()) as ApiProduct;
  await addToCartByApi(api, session.token, product);
  const kept = await api.post('/api/app/Wishlists', { headers: bearer(session.token), data: { productsId: product.id } });
  expect(kept.status()).toBe(201);
  await api.dispose();
  // This shop is another origin than the suite's own server.
  await useSession(page, session, shop.url);

  await page.goto(`${shop.url}/cart`);
  const line = page.getByTestId('cart-line').locator('img');
  await expect(line).toHaveAttribute('srcset', /^\/api\/images\/160\/[0-9a-f]{64}\.jpg 160w$/);
  await expect(line).toHaveAttribute('sizes', '80px');
  expect((await loaded(page, '[data-testid="cart-line"] img')).currentSrc).toMatch(/\/api\/images\/160\//);

  await page.goto(`${shop.url}/wishlist`);
  const card = page.getByTestId('wishlist-item').locator('img');
  await expect(card).toHaveAttribute('srcset', /\/api\/images\/480\/[0-9a-f]{64}\.jpg 480w$/);
  expect((await loaded(page, '[data-testid="wishlist-item"] img')).naturalWidth).toBeGreaterThan(0);
});

test('a shopper with Save-Data on gets the smallest width of every picture', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Save-Data': 'on' }, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${shop.url}/product-detail?id=3`);
  const main = await loaded(page, '[data-testid="gallery-main"]');
  // The page asked for a wide one (480 px shown on a desktop); the API answered the 160 one.
  expect(main.currentSrc).toMatch(/\/api\/images\/(480|640|960)\//);
  expect(main.naturalWidth).toBe(160);
  await context.close();
});
