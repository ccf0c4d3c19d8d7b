import { expect, test } from '@playwright/test';
import { allProducts } from './helpers.ts';

// Shoppers on small phones: nothing is cut off, nothing scrolls sideways.
test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('no kind of page scrolls sideways', async ({ page, request }) => {
    const hot = (await (await request.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as {
      id: number;
      brandId: number;
      categoryId: string;
    }[];
    // The longest product name makes the widest breadcrumb and heading.
    const longest = (await allProducts(request)).reduce((a, b) => (b.name.length > a.name.length ? b : a));
    const paths = [
      '/',
      '/?categories=2',
      '/shop?type=hot',
      `/shop?type=brand&id=${hot[0]!.brandId}`,
      `/shop?type=category&id=${hot[0]!.categoryId}`,
      '/shop?type=category&id=no-such-aisle',
      '/search?name=rice',
      '/search?name=fresh%20tomatoes%20organic',
      '/search',
      `/product-detail?id=${hot[0]!.id}`,
      `/product-detail?id=${longest.id}#reviews`,
      '/product-detail?id=999999',
      '/productsection',
      '/brands',
      '/about',
      '/privacy-policy',
      '/terms',
      '/refund-policy',
      '/cancellation-policy',
      '/contact',
      '/no-such-page',
    ];
    for (const path of paths) {
      await page.goto(path);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, `${path} is ${scrollWidth} px wide`).toBeLessThanOrEqual(clientWidth);
    }
  });

  test('a breadcrumb that wraps never starts a line with a separator', async ({ page, request }) => {
    const longest = (await allProducts(request)).reduce((a, b) => (b.name.length > a.name.length ? b : a));
    await page.goto(`/product-detail?id=${longest.id}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    // Each '›' is glued (no-break space) to the end of the item before it...
    const separators = await crumbs
      .locator('li:not(:last-child)')
      .evaluateAll((items) => items.map((li) => getComputedStyle(li, '::after').content));
    expect(separators).toEqual(['"\u00a0› "', '"\u00a0› "']);
    // ...and the trail flows as text: the name starts on the line of the '›' before it and wraps word by
    // word, instead of dropping whole to a line of its own that starts with the separator.
    const [shop, name] = await crumbs.locator('li').evaluateAll((items) =>
      items.slice(1).map((li) => [...li.getClientRects()].map((r) => ({ top: Math.round(r.top), width: r.width }))),
    );
    expect(name!.length, 'the long name wraps').toBeGreaterThan(1);
    expect(name![0]!.top).toBe(shop!.at(-1)!.top);
  });
});

test('a card without a pack-size selector shows its price right under the brand', async ({ page, request }) => {
  const products = await allProducts(request);
  const plain = products.find((p) => p.productVariants.length === 0 && p.inStock)!;
  await page.goto(`/shop?type=category&id=${plain.categoryId}`);
  const card = page.locator(`[data-testid="product-card"][data-product-id="${plain.id}"]`);
  await expect(card.getByTestId('variant-select')).toHaveCount(0);
  const brand = await card.locator('.brand').boundingBox();
  const price = await card.getByTestId('price').boundingBox();
  const button = await card.getByRole('button', { name: /Add to cart/ }).boundingBox();
  // Right under the brand: the card's 4 px gap plus the line's leading, not the height of a missing selector.
  expect(price!.y - (brand!.y + brand!.height)).toBeLessThan(16);
  // The button stays at the bottom, in line with the buttons of cards that do have a selector.
  const cardBox = await card.boundingBox();
  expect(cardBox!.y + cardBox!.height - (button!.y + button!.height)).toBeLessThan(16);
});
