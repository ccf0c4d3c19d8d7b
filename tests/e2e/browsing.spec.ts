// Browsing like the best grocery apps (issue 24): the Categories menu of the header and of the drawer, sort and filters
// on the listings as links that work without JavaScript (and are not indexed), and the discount badge on cards.
// Against the built server and the real, seeded API.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { CategoryDto, ListingFacetsDto, ProductDto } from '../../src/server/schemas.ts';
import { cardDiscount, discountLabel } from '../../src/lib/discount.ts';

/** The API's answer to a listing call: every product of its first page. */
async function apiListing(request: APIRequestContext, path: string): Promise<ProductDto[]> {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as ProductDto[];
}

async function categoriesWithProducts(request: APIRequestContext): Promise<CategoryDto[]> {
  const all = (await (await request.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as CategoryDto[];
  return all.filter((c) => c.count > 0);
}

const cardIds = async (page: Page) =>
  (await page.getByTestId('product-card').evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-product-id')))));

/** The page's robots meta (null: none) and its canonical URL's path and query. */
async function robotsAndCanonical(page: Page) {
  const robots = page.locator('meta[name="robots"]');
  const canonical = new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!);
  return {
    robots: (await robots.count()) > 0 ? await robots.getAttribute('content') : null,
    canonical: `${canonical.pathname}${canonical.search}`,
  };
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('sort and filter a category by links: the results change, and the page is noindex with the plain listing as canonical', async ({
    page,
    request,
  }) => {
    const [aisle] = (await categoriesWithProducts(request)).sort((a, b) => b.count - a.count);
    const plainPath = `/shop?type=category&id=${aisle!.id}`;
    await page.goto(plainPath);
    expect(await robotsAndCanonical(page)).toEqual({ robots: null, canonical: plainPath });
    const own = await cardIds(page);

    // Sort: a menu of links (a <details> opens without JavaScript).
    const controls = page.getByTestId('listing-controls');
    await controls.getByTestId('sort-menu').click();
    await controls.getByRole('link', { name: 'Price: high to low' }).click();
    await expect(page).toHaveURL(`${plainPath}&sort=price-desc`);
    const byPrice = await apiListing(request, `/api/app/Products/LoadProductsByCategory/${aisle!.id}?sort=price-desc`);
    expect(byPrice.every((p, i) => i === 0 || p.pricePaise <= byPrice[i - 1]!.pricePaise)).toBe(true);
    const sorted = await cardIds(page);
    expect(sorted).toEqual(byPrice.map((p) => p.id));
    expect(sorted).not.toEqual(own);
    await expect(page.getByTestId('sort-menu')).toContainText('Price: high to low');
    expect(await robotsAndCanonical(page)).toEqual({ robots: 'noindex,follow', canonical: plainPath });

    // Filter by a brand: the sort is kept, every card is of that brand.
    const facets = (await (await request.get(`/api/app/Products/ListingFacets?type=category&id=${aisle!.id}`)).json()) as ListingFacetsDto;
    const { id: brandId, name: brandName, count } = facets.brands[0]!;
    await controls.getByTestId('brand-filter').click();
    const brandLink = controls.getByRole('list', { name: 'Brands' }).getByRole('link', { name: `${brandName} ${count} product` });
    await brandLink.click();
    await expect(page).toHaveURL(`${plainPath}&sort=price-desc&brand=${brandId}`);
    const ofBrand = await apiListing(request, `/api/app/Products/LoadProductsByCategory/${aisle!.id}?sort=price-desc&brand=${brandId}`);
    expect(await cardIds(page)).toEqual(ofBrand.map((p) => p.id));
    for (const brand of await page.getByTestId('product-card').locator('.brand').allInnerTexts()) expect(brand).toBe(brandName);
    expect(await robotsAndCanonical(page)).toEqual({ robots: 'noindex,follow', canonical: plainPath });

    // In stock only, then the brand's chip takes the brand away again and keeps the rest.
    await controls.getByTestId('in-stock-filter').click();
    await expect(page).toHaveURL(new RegExp(`brand=${brandId}&instock=1$`));
    await expect(controls.getByTestId('in-stock-filter')).toHaveAttribute('aria-current', 'true');
    const active = page.getByTestId('active-filters');
    await active.getByRole('link', { name: `Remove filter: ${brandName}` }).click();
    await expect(page).toHaveURL(`${plainPath}&sort=price-desc&instock=1`);
    await page.getByTestId('active-filters').getByRole('link', { name: 'Clear all filters' }).click();
    await expect(page).toHaveURL(`${plainPath}&sort=price-desc`);
  });

  test('a price band keeps its prices, and paging keeps the sort and filters', async ({ page, request }) => {
    const hot = await apiListing(request, '/api/app/Products/LoadProductsByPriorityTag?pageSize=100&price=100-250');
    expect(hot.length, 'hot products from ₹100 to ₹250').toBeGreaterThan(0);
    await page.goto('/shop?type=hot');
    const controls = page.getByTestId('listing-controls');
    await controls.getByTestId('price-filter').click();
    await controls.getByRole('link', { name: /^₹100 – ₹250/ }).click();
    await expect(page).toHaveURL('/shop?type=hot&price=100-250');
    expect(new Set(await cardIds(page))).toEqual(new Set(hot.slice(0, 24).map((p) => p.id)));
    expect(hot.every((p) => p.pricePaise >= 10_000 && p.pricePaise < 25_000)).toBe(true);

    // The hot listing has more than one page: Load More and the previous page keep what was chosen.
    await page.goto('/shop?type=hot&sort=discount');
    const more = page.getByTestId('load-more');
    await expect(more).toHaveAttribute('href', '/shop?type=hot&sort=discount&page=2');
    await more.click();
    await expect(page.getByRole('link', { name: 'Previous page' })).toHaveAttribute('href', '/shop?type=hot&sort=discount');
    const second = await apiListing(request, '/api/app/Products/LoadProductsByPriorityTag?sort=discount&pageNo=1');
    expect(await cardIds(page)).toEqual(second.map((p) => p.id));
  });

  test('a search sorts and filters too, and stays the plain search’s', async ({ page, request }) => {
    await page.goto('/search?name=rice');
    await page.getByTestId('sort-menu').click();
    await expect(page.getByTestId('listing-controls').getByRole('link', { name: 'Relevance' })).toHaveAttribute('aria-current', 'true');
    await page.getByTestId('listing-controls').getByRole('link', { name: 'Price: low to high' }).click();
    await expect(page).toHaveURL('/search?name=rice&sort=price-asc');
    const cheapFirst = await apiListing(request, '/api/app/Products/SearchResults/rice?sort=price-asc');
    expect(cheapFirst.every((p, i) => i === 0 || p.pricePaise >= cheapFirst[i - 1]!.pricePaise)).toBe(true);
    expect(await cardIds(page)).toEqual(cheapFirst.map((p) => p.id));
    expect(await robotsAndCanonical(page)).toEqual({ robots: 'noindex,follow', canonical: '/search?name=rice' });
  });

  test('Categories in the header is a link to every category', async ({ page, request }) => {
    const categories = await categoriesWithProducts(request);
    await page.goto('/');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories', exact: true });
    await expect(link).toHaveAttribute('href', '/categories');
    await link.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('All categories');
    const links = page.getByTestId('category-list').getByRole('link');
    await expect(links).toHaveCount(categories.length);
    const first = links.first();
    const name = (await first.innerText()).trim();
    const category = categories.find((c) => c.name === name)!;
    await expect(first).toHaveAttribute('href', `/shop?type=category&id=${category.id}`);
    await first.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  });

  test('on a phone, Categories is among the browse links', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Browse' }).getByRole('link', { name: 'Categories' })).toHaveAttribute('href', '/categories');
    await context.close();
  });

  test('a card shows its discount as a badge in words: "N% OFF"', async ({ page, request }) => {
    const hot = await apiListing(request, '/api/app/Products/LoadProductsByPriorityTag');
    const discounted = hot.filter((p) => cardDiscount(p));
    expect(discounted.length, 'hot products with something off').toBeGreaterThan(0);
    await page.goto('/shop?type=hot');
    for (const product of hot) {
      const badge = page.locator(`[data-testid="product-card"][data-product-id="${product.id}"]`).getByTestId('discount-badge');
      const discount = cardDiscount(product);
      if (discount) await expect(badge).toHaveText(discountLabel(discount));
      else await expect(badge).toHaveCount(0);
    }
    await expect(page.getByTestId('discount-badge').first()).toHaveText(/^(Up to )?\d+% OFF$/);
  });
});

test.describe('with JavaScript', () => {
  test('the Categories menu opens with every category; Escape closes it and returns focus', async ({ page, request }) => {
    const categories = await categoriesWithProducts(request);
    await page.goto('/');
    const button = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Categories', exact: true });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByTestId('category-menu');
    const links = panel.getByTestId('category-list').getByRole('link');
    await expect(links).toHaveCount(categories.length);
    await expect(links.first()).toHaveAttribute('href', /^\/shop\?type=category&id=[a-z0-9-]+$/);
    const { violations } = await new AxeBuilder({ page }).include('header').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);

    await links.nth(2).focus();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    // From the keyboard, and a press outside closes it.
    await page.keyboard.press('Enter');
    await expect(links.first()).toBeVisible();
    await page.mouse.click(10, 700);
    await expect(panel).toBeHidden();

    await button.click();
    const name = (await links.first().innerText()).trim();
    await links.first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  });

  test('the sort menu closes on Escape, focus back on it', async ({ page }) => {
    await page.goto('/shop?type=hot');
    const sort = page.getByTestId('sort-menu');
    await sort.click();
    const option = page.getByTestId('listing-controls').getByRole('link', { name: 'Discount' });
    await option.focus();
    await page.keyboard.press('Escape');
    await expect(option).toBeHidden();
    await expect(sort).toBeFocused();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

    test('the drawer lists the categories', async ({ page, request }) => {
      const categories = await categoriesWithProducts(request);
      await page.goto('/');
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      const toggle = drawer.getByRole('button', { name: 'Categories' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const links = page.getByTestId('drawer-categories').getByTestId('category-list').getByRole('link');
      await expect(links).toHaveCount(categories.length);
      const { violations } = await new AxeBuilder({ page }).include('#mobile-drawer').analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
      const name = (await links.nth(1).innerText()).trim();
      await links.nth(1).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    });

    test('the listing controls fit the screen', async ({ page }) => {
      await page.goto('/shop?type=hot');
      await page.getByTestId('price-filter').click();
      const options = page.getByTestId('listing-controls').getByRole('list', { name: 'Price' });
      await expect(options).toBeVisible();
      const box = (await options.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
});
