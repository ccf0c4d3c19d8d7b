// The phone layout of issue 13, measured in the browser (getBoundingClientRect through Playwright's boxes): what a
// shopper sees on the first screen of a 390×844 phone, category tiles several a row, two cards a row at 320 px,
// and the unit price (₹/kg, ₹/l, ₹ per piece) beside the price.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { allProducts, rupees, type ApiProduct } from './helpers.ts';
import { PICTURE_WIDTHS } from '../../src/lib/picture.ts';

const PHONE = { width: 390, height: 844 };

/** The element's box, asserted to lie wholly inside the first screen. */
async function onFirstScreen(locator: Locator, what: string, viewport: { width: number; height: number }) {
  const box = (await locator.boundingBox())!;
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box.y, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what} ends above the fold`).toBeLessThanOrEqual(viewport.height);
  expect(box.x + box.width, `${what} fits the width`).toBeLessThanOrEqual(viewport.width);
  return box;
}

/** How many of the locator's elements share the first one's row. */
async function perRow(items: Locator): Promise<number> {
  const tops = await items.evaluateAll((elements) => elements.map((e) => Math.round(e.getBoundingClientRect().top)));
  return tops.filter((top) => top === tops[0]).length;
}

/** The pack in a name or a pack's name ('Besan Ladoo 400 g', '500 ml') and the unit price text it makes. */
function unitPriceText(pricePaise: number, pack: string): string {
  const [, amount, unit] = /(\d+(?:\.\d+)?) (g|kg|ml|l)(?: |$)/.exec(pack)!;
  const perThousand = unit === 'g' || unit === 'ml';
  const paise = Math.round((pricePaise * (perThousand ? 1000 : 1)) / Number(amount));
  return `(${rupees(paise)}/${unit === 'g' || unit === 'kg' ? 'kg' : 'l'})`;
}

const longestName = (products: ApiProduct[]) => products.reduce((a, b) => (b.name.length > a.name.length ? b : a));

test.describe('a 390×844 phone', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  for (const kind of ['sold in pack sizes', 'plain'] as const) {
    test(`a product page ${kind}: picture, name, pack size, price and Add to cart on the first screen`, async ({ page, request }) => {
      const products = (await allProducts(request)).filter(
        (p) => p.inStock && p.productImages.length > 1 && (kind === 'plain' ? p.productVariants.length === 0 && /\d (g|kg|ml|l)\b/.test(p.name) : p.productVariants.length > 1),
      );
      // The longest name takes the most lines: the hardest case.
      const product = longestName(products);
      await page.goto(`/product-detail?id=${product.id}`);
      const detail = page.getByTestId('product-detail');
      await onFirstScreen(page.getByTestId('gallery-main'), 'the picture', PHONE);
      await onFirstScreen(detail.getByRole('heading', { level: 1, name: product.name }), 'the name', PHONE);
      // A plain product's pack is in its name; a product sold in sizes shows them in its selector.
      if (kind !== 'plain') await onFirstScreen(detail.getByTestId('variant-select'), 'the pack size', PHONE);
      await onFirstScreen(detail.getByTestId('price'), 'the price', PHONE);
      await onFirstScreen(detail.getByTestId('unit-price'), 'the unit price', PHONE);
      await onFirstScreen(detail.getByRole('button', { name: /Add to cart/ }), 'Add to cart', PHONE);
    });
  }

  test('a bar with the price and Add to cart stays at the bottom once they scroll away, and follows the pack', async ({ page, request }) => {
    const product = (await allProducts(request)).find((p) => p.inStock && p.productVariants.filter((v) => v.inStock && v.productVariantPrice).length > 1)!;
    const second = product.productVariants.filter((v) => v.inStock && v.productVariantPrice)[1]!;
    await page.goto(`/product-detail?id=${product.id}`);
    const bar = page.getByTestId('buy-bar');
    await expect(bar).toBeHidden();
    // A pack chosen up top is the one the bar offers.
    await page.getByTestId('product-detail').getByTestId('variant-select').selectOption(String(second.id));
    await page.getByRole('heading', { name: 'Related products' }).scrollIntoViewIfNeeded();
    await expect(bar).toBeVisible();
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBe(PHONE.height);
    expect(box.width).toBe(PHONE.width);
    await expect(bar).toContainText(`${second.name} · ${rupees(second.productVariantPrice!.salesPricePaise)}`);
    // Back up to the button: the bar goes.
    await page.getByTestId('product-detail').getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
    await expect(bar).toBeHidden();
  });

  test('without JavaScript the bar still shows, and its button asks the shopper to sign in like the one above', async ({ browser, request }) => {
    const product = (await allProducts(request)).find((p) => p.inStock && p.productVariants.length === 0)!;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`/product-detail?id=${product.id}`);
    const bar = page.getByTestId('buy-bar');
    await expect(bar).toBeHidden();
    await page.getByRole('heading', { name: 'Related products' }).scrollIntoViewIfNeeded();
    await expect(bar).toBeVisible();
    await bar.getByRole('button', { name: /Add to cart/ }).click();
    await expect(page).toHaveURL(/\/login\?next=/);
    await context.close();
  });

  test('the home page: category tiles four a row with the name under the picture, products in rows that swipe', async ({ page }) => {
    await page.goto('/');
    const tiles = page.getByTestId('category-card');
    expect(await perRow(tiles)).toBeGreaterThanOrEqual(4);
    const first = tiles.first();
    const picture = (await first.locator('img').boundingBox())!;
    const name = (await first.locator('.name').boundingBox())!;
    expect(name.y).toBeGreaterThanOrEqual(picture.y + picture.height);
    expect(name.x).toBeGreaterThanOrEqual(picture.x - 1);
    expect(name.x + name.width).toBeLessThanOrEqual(picture.x + picture.width + 1);
    // Every row of products is one card tall: its cards side by side, the rest a swipe away inside the row.
    for (const row of await page.getByTestId('product-grid').all()) {
      const cards = row.getByTestId('product-card');
      expect(await perRow(cards)).toBe(await cards.count());
      const scroll = await row.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
      expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
    }
    const widths = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
  });

  test('at a phone density the home loads each picture at the smallest width that covers it', async ({ browser }) => {
    // Lighthouse's phone (412 px at 1.75x): a rail card or a category tile fetched a size up costs bytes and paint.
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, hasTouch: true });
    const page = await context.newPage();
    await page.goto('/', { waitUntil: 'networkidle' });
    const shown = await page.locator('img[srcset]').evaluateAll((images) =>
      (images as HTMLImageElement[])
        .filter((img) => img.complete && img.naturalWidth > 0)
        .map((img) => ({ src: img.currentSrc, cssWidth: img.getBoundingClientRect().width })),
    );
    expect(shown.length).toBeGreaterThan(20);
    for (const { src, cssWidth } of shown) {
      const width = Number(/\/api\/images\/(\d+)\//.exec(src)?.[1]);
      const needed = cssWidth * 1.75;
      const smallerCovers = PICTURE_WIDTHS.some((w) => w < width && w >= needed);
      expect(width >= needed && !smallerCovers, `${src} for ${Math.round(needed)} device pixels`).toBe(true);
    }
    await context.close();
  });

  test('cards and the product page show the unit price, and the pack selector changes it', async ({ page, request }) => {
    const products = await allProducts(request);
    const plain = products.find((p) => p.productVariants.length === 0 && /\d (g|kg|ml|l)$/.test(p.name))!;
    await page.goto(`/product-detail?id=${plain.id}`);
    await expect(page.getByTestId('product-detail').getByTestId('unit-price')).toHaveText(unitPriceText(plain.pricePaise, plain.name));

    const sized = products.find((p) => p.productVariants.filter((v) => v.inStock && v.productVariantPrice).length > 1)!;
    const [first, second] = sized.productVariants.filter((v) => v.inStock && v.productVariantPrice);
    await page.goto(`/shop?type=category&id=${sized.categoryId}`);
    const card = page.locator(`[data-testid="product-card"][data-product-id="${sized.id}"]`);
    const unit = card.getByTestId('unit-price');
    await expect(unit).toHaveText(unitPriceText(first!.productVariantPrice!.salesPricePaise, first!.name));
    await card.getByTestId('variant-select').selectOption(String(second!.id));
    await expect(unit).toHaveText(unitPriceText(second!.productVariantPrice!.salesPricePaise, second!.name));
  });
});

test.describe('a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true });

  async function twoCardsARow(page: Page, path: string) {
    await page.goto(path);
    const cards = page.getByTestId('product-grid').first().getByTestId('product-card');
    expect(await cards.count()).toBeGreaterThan(2);
    const [a, b, c] = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())!));
    expect(Math.round(a!.y), `${path}: two cards side by side`).toBe(Math.round(b!.y));
    expect(c!.y, `${path}: the third starts the next row`).toBeGreaterThan(a!.y + a!.height - 1);
    expect(a!.x).toBeGreaterThanOrEqual(0);
    expect(b!.x + b!.width).toBeLessThanOrEqual(320);
    // Each card's parts fit inside it: nothing cut off, nothing pushing the page sideways.
    for (const part of ['price', 'variant-select']) {
      for (const box of await cards.first().getByTestId(part).evaluateAll((es) => es.map((e) => e.getBoundingClientRect().right))) {
        expect(box).toBeLessThanOrEqual(a!.x + a!.width);
      }
    }
  }

  test('listings show two cards a row', async ({ page }) => {
    await twoCardsARow(page, '/shop?type=hot');
    await twoCardsARow(page, '/search?name=rice');
  });

  test('the home page shows at least three category tiles a row', async ({ page }) => {
    await page.goto('/');
    expect(await perRow(page.getByTestId('category-card'))).toBeGreaterThanOrEqual(3);
  });
});
