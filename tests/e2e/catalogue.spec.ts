import { expect, test } from '@playwright/test';
import { allProducts, rupees, type ApiProduct } from './helpers.ts';

let products: ApiProduct[];
test.beforeAll(async ({ request }) => {
  products = await allProducts(request);
});

test.describe('home', () => {
  test('shows Popular Products with Hot badges, Featured Categories and the product section', async ({ page }) => {
    const res = await page.goto('/');
    expect(res?.headers()['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const popular = page.locator('section', { has: page.getByRole('heading', { name: 'Popular Products' }) });
    await expect(popular.getByTestId('product-card').first()).toBeVisible();
    await expect(popular.getByText('Hot', { exact: true }).first()).toBeVisible();
    const categories = page.getByTestId('category-card');
    await expect(categories).toHaveCount(24);
    await expect(categories.first()).toContainText(/\d+ items/);
    await expect(page.getByTestId('product-section')).toBeVisible();
  });

  test('/home is the same page with its canonical at /', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { name: 'Featured Categories' })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/$/);
  });

  test('Load More Categories appends the second page, then disappears', async ({ page }) => {
    await page.goto('/');
    const cards = page.getByTestId('category-card');
    await expect(cards).toHaveCount(24);
    await page.getByTestId('load-more-categories').click();
    await expect(cards).toHaveCount(30);
    await expect(page.getByTestId('load-more-categories')).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
  });

  test('a category card opens /shop filtered by that category', async ({ page }) => {
    await page.goto('/');
    const first = page.getByTestId('category-card').first();
    const name = (await first.locator('.name').textContent())!.trim();
    await first.getByRole('link').click();
    await expect(page).toHaveURL(/\/shop\?type=category&id=[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  });
});

test.describe('shop', () => {
  test('hot listing pages 24 at a time and Load More appends the next page', async ({ page, request }) => {
    const total = Number((await request.get('/api/app/Products/LoadProductsByPriorityTag')).headers()['x-total-count']);
    await page.goto('/shop?type=hot');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Popular Products');
    const cards = page.getByTestId('product-card');
    await expect(cards).toHaveCount(Math.min(24, total));
    if (total > 24) {
      await page.getByTestId('load-more').click();
      await expect(cards).toHaveCount(Math.min(48, total));
    }
  });

  test('a brand page names the brand and lists only its products', async ({ page }) => {
    const product = products[0]!;
    await page.goto(`/shop?type=brand&id=${product.brandId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.brandName);
    const brandLinks = page.getByTestId('product-card').locator(`a[href="/shop?type=brand&id=${product.brandId}"]`);
    await expect(brandLinks.first()).toBeVisible();
    expect(await brandLinks.count()).toBe(await page.getByTestId('product-card').count());
  });

  test('a listing with nothing in it says No Products found with status 404', async ({ page }) => {
    const res = await page.goto('/shop?type=category&id=no-such-aisle');
    expect(res?.status()).toBe(404);
    // The reason phrase matches the status (Astro kept 'OK' when a page set only the status).
    expect(res?.statusText()).toBe('Not Found');
    await expect(page.getByTestId('no-products')).toHaveText('No Products found');
    await expect(page.locator('main').getByText('No Products found')).toHaveCount(1);
  });

  test('?page=2 is a real page with a link back', async ({ page, request }) => {
    const total = Number((await request.get('/api/app/Products/LoadProductsByPriorityTag')).headers()['x-total-count']);
    expect(total, 'the demo catalogue has more than one page of hot products').toBeGreaterThan(24);
    await page.goto('/shop?type=hot&page=2');
    await expect(page.getByTestId('product-card')).toHaveCount(Math.min(24, total - 24));
    await expect(page.getByRole('link', { name: 'Previous page' })).toHaveAttribute('href', '/shop?type=hot');
    await expect(page).toHaveTitle(/page 2/);
  });
});

test.describe('search', () => {
  test('finds products for a typo, lowercased', async ({ page }) => {
    await page.goto('/search?name=BUTER');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “buter”');
    await expect(page.getByTestId('product-card').first()).toContainText(/butter/i);
  });

  test('empty text shows a prompt, not results', async ({ page }) => {
    const res = await page.goto('/search?name=');
    expect(res?.status()).toBe(200);
    await expect(page.getByTestId('product-card')).toHaveCount(0);
    await expect(page.getByText('Type what you are looking for')).toBeVisible();
  });

  test('no match is No Products found with 404', async ({ page }) => {
    const res = await page.goto('/search?name=qqqzzzxxx');
    expect(res?.status()).toBe(404);
    await expect(page.getByText('No Products found')).toBeVisible();
  });

  test('no match offers the closest names and popular categories, as real links', async ({ page, request }) => {
    const res = await page.goto('/search?name=fresh%20tomatoes%20organic');
    expect(res?.status()).toBe(404);
    expect(res?.statusText()).toBe('Not Found');
    await expect(page.getByTestId('no-products')).toBeVisible();
    // Nothing matches the whole phrase; each word still has its closest names, taking turns.
    const closest = page.getByTestId('closest-matches').getByRole('link');
    await expect(closest.first()).toBeVisible();
    const names = await closest.allTextContents();
    expect(names.some((n) => /tomato/i.test(n)), names.join(', ')).toBe(true);
    expect(names.some((n) => /fresh/i.test(n)), names.join(', ')).toBe(true);
    const popular = (await (await request.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=6')).json()) as { id: string; name: string }[];
    const cards = page.getByTestId('popular-categories').getByTestId('category-card');
    await expect(cards).toHaveCount(popular.length);
    await expect(cards.first()).toContainText(popular[0]!.name);
    await closest.filter({ hasText: /tomato/i }).first().click();
    await expect(page).toHaveURL(/\/(product-detail|shop)\?/);
  });
});

test.describe('product card', () => {
  test('shows name, brand link, price and the struck MRP only when it differs', async ({ page }) => {
    const withMrp = products.find((p) => p.type === 'normal' && p.mrpPaise > 0 && p.mrpPaise !== p.pricePaise)!;
    await page.goto(`/shop?type=brand&id=${withMrp.brandId}`);
    let card = page.locator(`[data-product-id="${withMrp.id}"]`);
    for (let more = 0; more < 10 && (await card.count()) === 0; more++) {
      await page.getByTestId('load-more').click();
      card = page.locator(`[data-product-id="${withMrp.id}"]`);
    }
    await expect(card.getByRole('heading')).toHaveText(withMrp.name);
    await expect(card.getByRole('link', { name: withMrp.brandName, exact: true })).toHaveAttribute('href', `/shop?type=brand&id=${withMrp.brandId}`);
    await expect(card.getByTestId('price')).toHaveText(rupees(withMrp.pricePaise));
    await expect(card.getByTestId('mrp')).toContainText(rupees(withMrp.mrpPaise));
    await expect(card.getByRole('button', { name: /Add to cart/ })).toBeVisible();
    const noMrp = products.find((p) => p.type === 'normal' && (p.mrpPaise === 0 || p.mrpPaise === p.pricePaise))!;
    await page.goto(`/product-detail?id=${noMrp.id}`);
    await expect(page.getByTestId('product-detail').getByTestId('mrp')).toHaveCount(0);
  });

  test('the variant selector starts at the first priced variant and changes price and MRP', async ({ page }) => {
    const product = products.find(
      (p) => p.type !== 'normal' && p.productVariants.filter((v) => v.productVariantPrice).length >= 2,
    )!;
    const priced = product.productVariants.filter((v) => v.productVariantPrice);
    await page.goto(`/product-detail?id=${product.id}`);
    const detail = page.getByTestId('product-detail');
    const select = detail.getByTestId('variant-select');
    await expect(select.locator('option')).toHaveCount(priced.length);
    await expect(select).toHaveValue(String(priced[0]!.id));
    await expect(detail.getByTestId('price')).toHaveText(rupees(priced[0]!.productVariantPrice!.salesPricePaise));
    await select.selectOption(String(priced[1]!.id));
    const second = priced[1]!.productVariantPrice!;
    await expect(detail.getByTestId('price')).toHaveText(rupees(second.salesPricePaise));
    if (second.mrpPaise > 0 && second.mrpPaise !== second.salesPricePaise) {
      await expect(detail.getByTestId('mrp')).toContainText(rupees(second.mrpPaise));
    } else {
      await expect(detail.getByTestId('mrp')).toHaveCount(0);
    }
  });

  test('a variant without a price is not offered', async ({ page }) => {
    const product = products.find((p) => p.type !== 'normal' && p.productVariants.some((v) => !v.productVariantPrice));
    expect(product, 'the demo catalogue has a variant without a price').toBeTruthy();
    await page.goto(`/product-detail?id=${product!.id}`);
    const unpriced = product!.productVariants.find((v) => !v.productVariantPrice)!;
    await expect(page.getByTestId('product-detail').locator(`option[value="${unpriced.id}"]`)).toHaveCount(0);
  });
});

test.describe('product page', () => {
  test('has breadcrumb, brand link, real percent off, tabs with the real review count', async ({ page, request }) => {
    const product = products.find(
      (p) => p.type === 'normal' && Math.floor(((p.mrpPaise - p.pricePaise) * 100) / p.mrpPaise) > 0 && p.reviewCount > 1,
    )!;
    expect(product, 'the demo catalogue has a reviewed product with a saving').toBeTruthy();
    const reviews = (await (await request.get(`/api/Reviews/${product.id}`)).json()) as { stars: number }[];
    expect(reviews.length).toBe(product.reviewCount);
    await page.goto(`/product?id=${product.id}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(crumbs.getByRole('link', { name: 'Shop' })).toBeVisible();
    await expect(crumbs).toContainText(product.name);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
    const off = Math.floor(((product.mrpPaise - product.pricePaise) * 100) / product.mrpPaise);
    await expect(page.getByTestId('percent-off')).toHaveText(`${off}% off`);
    await expect(page.getByRole('tab', { name: 'Description' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: `Reviews (${reviews.length})` }).click();
    const average = reviews.reduce((sum, r) => sum + r.stars, 0) / reviews.length;
    await expect(page.getByTestId('review-average')).toHaveText(`${(Math.round(average * 10) / 10).toFixed(1)} out of 5`);
    for (const stars of [5, 4, 3, 2, 1]) {
      await expect(page.getByTestId(`stars-${stars}-count`)).toHaveText(String(reviews.filter((r) => r.stars === stars).length));
    }
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/product-detail\\?id=${product.id}$`));
  });

  test('arrow keys move between the tabs', async ({ page }) => {
    await page.goto(`/product-detail?id=${products[0]!.id}`);
    await page.getByRole('tab', { name: 'Description' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: /Reviews/ })).toBeFocused();
    await expect(page.getByRole('tab', { name: /Reviews/ })).toHaveAttribute('aria-selected', 'true');
  });

  test('a review posts without an auth header, shows as text and counts', async ({ page }) => {
    const product = products[3]!;
    await page.goto(`/product-detail?id=${product.id}#reviews`);
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/Reviews') && r.method() === 'POST');
    await page.getByLabel('Comment').fill('<b>Crisp</b> and fresh, will order again');
    await page.getByLabel('Name').fill('Lakshmi');
    await page.getByRole('radio', { name: '4 stars' }).check();
    await page.getByRole('button', { name: 'Post review' }).click();
    const request = await posted;
    expect(request.headers()['authorization']).toBeUndefined();
    expect(request.headers()['content-type']).toContain('application/json');
    await expect(page.getByText('Thank you! Your review has been posted.')).toBeVisible();
    await expect(page.getByTestId('review-list').locator('li').first()).toContainText('<b>Crisp</b> and fresh');
    await page.reload();
    await page.getByRole('tab', { name: /Reviews/ }).click();
    await expect(page.getByTestId('review-list')).toContainText('<b>Crisp</b> and fresh, will order again');
  });

  test('after a review is posted, the tab, heading, average, star bars and header rating follow', async ({ page, request }) => {
    // A product nobody has reviewed yet: the numbers appear from nothing.
    const product = products.find((p) => p.reviewCount === 0)!;
    expect(product, 'the demo catalogue has a product without reviews').toBeTruthy();
    await page.goto(`/product-detail?id=${product.id}#reviews`);
    await expect(page.getByRole('tab', { name: 'Reviews (0)' })).toBeVisible();
    await expect(page.getByTestId('review-summary').getByText('No reviews yet')).toBeVisible();
    await page.getByLabel('Comment').fill('Fresh and well packed');
    await page.getByLabel('Name').fill('Meera');
    await page.getByRole('radio', { name: '4 stars' }).check();
    await page.getByRole('button', { name: 'Post review' }).click();
    await expect(page.getByRole('tab', { name: 'Reviews (1)' })).toBeVisible();
    await expect(page.getByTestId('review-average')).toHaveText('4.0 out of 5');
    await expect(page.getByTestId('stars-4-count')).toHaveText('1');
    await expect(page.getByTestId('stars-5-count')).toHaveText('0');
    await expect(page.getByTestId('review-summary').getByText('No reviews yet')).toBeHidden();
    await expect(page.locator('[data-review-row="4"] [data-review-bar]')).toHaveAttribute('width', '100');
    await expect(page.getByRole('link', { name: '4.0 ★ (1 review)' })).toBeVisible();
    // A second review, and the numbers are the API's, as a reload would show them.
    await page.getByLabel('Comment').fill('Good, a little pricey');
    await page.getByLabel('Name').fill('Imran');
    await page.getByRole('radio', { name: '1 star', exact: true }).check();
    await page.getByRole('button', { name: 'Post review' }).click();
    await expect(page.getByRole('tab', { name: 'Reviews (2)' })).toBeVisible();
    await expect(page.getByTestId('review-average')).toHaveText('2.5 out of 5');
    await expect(page.getByRole('link', { name: '2.5 ★ (2 reviews)' })).toBeVisible();
    const stored = (await (await request.get(`/api/Reviews/${product.id}`)).json()) as unknown[];
    expect(stored).toHaveLength(2);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Reviews (2)' })).toBeVisible();
    await expect(page.getByTestId('review-average')).toHaveText('2.5 out of 5');
  });

  test('bad review input gets a clear message and keeps what was typed', async ({ page }) => {
    await page.goto(`/product-detail?id=${products[4]!.id}#reviews`);
    await page.getByLabel('Comment').fill('Good');
    await page.getByRole('button', { name: 'Post review' }).click();
    await expect(page.getByRole('alert')).toContainText('Please give your name');
    await expect(page.getByLabel('Comment')).toHaveValue('Good');
  });

  test('shows related products from the same category', async ({ page }) => {
    const product = products[0]!;
    await page.goto(`/product-detail?id=${product.id}`);
    const related = page.locator('section', { has: page.getByRole('heading', { name: 'Related products' }) });
    await expect(related.getByTestId('product-card').first()).toBeVisible();
    await expect(related.locator(`[data-product-id="${product.id}"]`)).toHaveCount(0);
  });

  test('an unknown product is a 404 page', async ({ page }) => {
    const res = await page.goto('/product-detail?id=999999');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
  });
});

test('/brands lists every brand A–Z under its letter, with a letter index', async ({ page, request }) => {
  const brands = (await (await request.get('/api/app/Brands/LoadBrandsByPriority?skip=0&take=100')).json()) as { id: number; name: string }[];
  await page.goto('/brands');
  const links = page.getByTestId('brand-list').getByRole('link');
  await expect(links).toHaveCount(brands.length);
  const names = await links.allTextContents();
  const collator = new Intl.Collator('en-IN', { sensitivity: 'base', numeric: true });
  expect(names).toEqual(brands.map((b) => b.name).sort(collator.compare));
  // Every letter in the index leads to its heading, and every brand under it starts with that letter.
  const index = page.getByRole('navigation', { name: 'Brands by first letter' }).getByRole('link');
  const letters = await index.allTextContents();
  expect(letters).toEqual([...new Set(names.map((n) => n[0]!.toUpperCase()))]);
  const last = letters.at(-1)!;
  await index.filter({ hasText: new RegExp(`^${last}$`) }).click();
  await expect(page).toHaveURL(new RegExp(`#brands-${last.toLowerCase()}$`));
  const heading = page.getByRole('heading', { level: 2, name: last, exact: true });
  await expect(heading).toBeInViewport();
  const group = page.getByRole('region', { name: last, exact: true });
  for (const name of await group.getByRole('link').allTextContents()) expect(name[0]!.toUpperCase()).toBe(last);
});

test('the product section has its own page', async ({ page }) => {
  await page.goto('/productsection');
  await expect(page.getByRole('heading', { level: 1, name: 'Shop by aisle' })).toBeVisible();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test('an unknown page is the 404 page', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test.describe('odd input is a clear answer, never a 500', () => {
  test('a categories page past the end is a 404', async ({ page }) => {
    for (const n of [3, 417, 9999]) {
      const res = await page.goto(`/?categories=${n}`);
      expect(res?.status(), String(n)).toBe(404);
    }
  });

  test('search text with control characters or cut emoji still searches', async ({ page }) => {
    expect((await page.goto('/search?name=%00'))?.status()).toBe(200);
    const emoji = encodeURIComponent('🍅'.repeat(120));
    expect([200, 404]).toContain((await page.goto(`/search?name=${emoji}`))?.status());
    await expect(page.getByRole('heading', { level: 1 })).toContainText('🍅');
  });

  test('a same-site POST that is not a form gets a 400 page', async ({ request, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const review = await request.post('/product-detail?id=1', { data: { stars: 5 }, headers: { Origin: origin } });
    expect(review.status()).toBe(400);
    const contact = await request.post('/contact/send', { data: { name: 'x' }, headers: { Origin: origin } });
    expect(contact.status()).toBe(400);
  });
});
