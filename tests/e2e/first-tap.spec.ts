// The first tap answers at once (issue 26): a signed-in shopper's 'Add to cart' pressed before its island has
// hydrated is sent without waiting for React (src/client/cart-controller.ts, with plain fetch; else through src/client/cart.ts), its form busy at
// once so a second press is not posted beside it but after it, and each tap counts once. React is held back here by holding the island's own script, so
// "before hydration" does not depend on how fast this machine is. How fast it answers is the bench's to measure
// (`npm run bench -- --slow-phone`), never a test's.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { allProducts, type ApiProduct } from './helpers.ts';
import { bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

/** Each test its own plain product in stock (a new shopper each time, so the cart starts empty). */
async function plainProducts(request: APIRequestContext): Promise<ApiProduct[]> {
  const products = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock);
  if (products.length < 4) throw new Error('the seed has too few plain products in stock');
  return products;
}

/** Holds every request for the product islands' script until `release` is called: the page stays unhydrated. */
async function holdIslands(page: Page): Promise<{ release: () => void }> {
  const island = page.locator('astro-island[ssr]:has(form[data-add-to-cart])').first();
  const componentUrl = await island.getAttribute('component-url');
  if (!componentUrl) throw new Error('no product island waiting to hydrate');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname === componentUrl, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** Holds the cart's POSTs (adds) on their way to the API until the returned function is called. */
async function holdCartPosts(page: Page): Promise<() => void> {
  let letGo!: () => void;
  const mayGo = new Promise<void>((resolve) => (letGo = resolve));
  await page.route('**/api/app/Carts', async (route) => {
    if (route.request().method() === 'POST') await mayGo;
    await route.continue();
  });
  return letGo;
}

/** The cart's POSTs (an add), counted as they leave the page. */
function countAdds(page: Page): () => number {
  let adds = 0;
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/app/Carts') adds++;
  });
  return () => adds;
}

async function cartQty(request: APIRequestContext, token: string, userId: number, productId: number): Promise<number> {
  const res = await request.get(`/api/app/Carts/GetCartsByUser/${userId}`, { headers: bearer(token) });
  expect(res.status()).toBe(200);
  const cart = (await res.json()) as CartDto;
  return cart.lines.filter((l) => l.productsId === productId).reduce((sum, l) => sum + l.qty, 0);
}

/** The buy box's island (the product page's first; the related products' cards have their own). */
const buyIsland = (page: Page) => page.locator('astro-island:has(form[data-add-to-cart])').first();
const buyBox = (page: Page) => page.locator('form[data-add-to-cart]').first();
const addButton = (page: Page) => buyBox(page).locator('[data-cart-add]').first();
const stepperQty = (page: Page) => buyBox(page).locator('[data-cart-stepper]:not([hidden]) [data-cart-qty]').first();

/**
 * A new shopper on a product page whose buy box has not hydrated (its script held) and whose add is held on its way
 * (`answerAdd` lets it go), after a press on 'Add to cart' that shows busy at once.
 */
async function pressedBeforeHydration(page: Page, request: APIRequestContext, product: ApiProduct) {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  const adds = countAdds(page);
  await page.goto(`/product-detail?id=${product.id}`);
  const held = await holdIslands(page);
  const answerAdd = await holdCartPosts(page);
  await addButton(page).click();
  // Busy at once: the form says so and its buttons are marked busy.
  await expect(buyBox(page)).toHaveAttribute('aria-busy', 'true');
  await expect(addButton(page)).toHaveAttribute('aria-disabled', 'true');
  return { session, adds, held, answerAdd };
}

test.describe('the first tap, signed in', () => {
  test('a tap before hydration is sent without React: busy at once, then the count; React takes over after', async ({ page, request }) => {
    const product = (await plainProducts(request))[0]!;
    // The add's answer waits until the busy state has been seen (here it would otherwise come too soon to see).
    const { session, adds, held, answerAdd } = await pressedBeforeHydration(page, request, product);
    answerAdd();
    // The server's answer, drawn while the island is still waiting for its script (not hydrated).
    await expect(stepperQty(page)).toHaveText('1');
    await expect(buyIsland(page)).toHaveAttribute('ssr');
    await expect(buyBox(page)).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByTestId('cart-count')).toHaveText('1');
    expect(adds()).toBe(1);

    // React arrives; the island, hydrated, carries on from the count the early script drew.
    held.release();
    await expect(buyIsland(page)).not.toHaveAttribute('ssr');
    await buyBox(page).getByRole('button', { name: `Add one ${product.name}` }).first().click();
    await expect(stepperQty(page)).toHaveText('2');
    expect(adds()).toBe(1);
    expect(await cartQty(request, session.token, session.user.id, product.id)).toBe(2);
  });

  test('a press while the first is on its way is not posted at once, and is sent after it: two quick presses make two', async ({ page, request }) => {
    const product = (await plainProducts(request))[1]!;
    // The add itself is held too, so the second press certainly comes while the first is on its way.
    const { session, adds, held, answerAdd } = await pressedBeforeHydration(page, request, product);
    await expect.poll(adds).toBe(1);
    // An impatient second press on the busy button (force: Playwright would wait for it to be enabled): counted on
    // the form, not posted beside the first.
    await addButton(page).click({ force: true });
    await expect(buyBox(page)).toHaveAttribute('data-more', '1');
    expect(adds()).toBe(1);
    answerAdd();
    await expect(stepperQty(page)).toHaveText('2');
    await expect(buyBox(page)).not.toHaveAttribute('aria-busy', 'true');
    await expect(buyBox(page)).not.toHaveAttribute('data-more');
    expect(adds()).toBe(2);
    held.release();
    await expect(buyIsland(page)).not.toHaveAttribute('ssr');
    await expect(stepperQty(page)).toHaveText('2');
    expect(await cartQty(request, session.token, session.user.id, product.id)).toBe(2);
  });

  test('three impatient taps on the throttled phone (0, 1.5 and 3 s, wherever the button is) make three', async ({ browser, request }) => {
    const product = (await plainProducts(request))[2]!;
    const { session } = await registerByApi(request);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await useSession(page, session);
    // The profile: 4× CPU, 400 ms latency, 400 kbit/s each way.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 });
    let writes = 0;
    page.on('request', (req) => {
      if (['POST', 'PUT'].includes(req.method()) && /^\/api\/app\/Carts(\/\d+)?$/.test(new URL(req.url()).pathname)) writes++;
    });
    await page.goto(`/product-detail?id=${product.id}`, { waitUntil: 'commit' });

    // The finger taps the same place three times, whatever shows there: 'Add to cart', then '+' once the stepper
    // has taken its place. The pacing is the (not an assertion on time).
    const underFinger = () => buyBox(page).locator('[data-cart-more]:visible, [data-cart-add]:visible').first();
    await underFinger().tap();
    // The tap shows at once: busy, or already the count.
    await expect.poll(() => buyBox(page).evaluate((form) => form.getAttribute('aria-busy') === 'true' || !!form.querySelector('[data-cart-stepper]:not([hidden])'))).toBe(true);
    for (let tap = 2; tap <= 3; tap++) {
      await page.waitForTimeout(1500);
      await underFinger().tap({ force: true });
    }
    await expect(stepperQty(page)).toHaveText('3', { timeout: 30_000 });
    await expect(buyBox(page)).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
    expect(await cartQty(request, session.token, session.user.id, product.id)).toBe(3);
    // Three taps, three writes: none lost, none doubled.
    expect(writes).toBe(3);
    await context.close();
  });

  test('a tap before hydration on a stepper changes the line once', async ({ page, request }) => {
    const product = (await plainProducts(request))[3]!;
    const { session } = await registerByApi(request);
    const put = await request.post('/api/app/Carts', {
      headers: bearer(session.token),
      data: { productsId: product.id, usersId: session.user.id, productVariantsId: 0, productVariantPriceId: 0, packing: 'packaging', price: product.price, qty: 1 },
    });
    expect(put.status(), await put.text()).toBe(201);
    await useSession(page, session);
    await page.goto(`/product-detail?id=${product.id}`);
    await expect(stepperQty(page)).toHaveText('1');
    await holdIslands(page);

    await buyBox(page).getByRole('button', { name: `Add one ${product.name}` }).first().click();
    await expect(stepperQty(page)).toHaveText('2');
    await expect(buyIsland(page)).toHaveAttribute('ssr');
    expect(await cartQty(request, session.token, session.user.id, product.id)).toBe(2);
  });
});

test.describe('the first heart, signed in', () => {
  test('a heart pressed before the hearts\' script has loaded is kept at once, once, and said when it arrives', async ({ page, request }) => {
    const product = (await plainProducts(request))[0]!;
    const { session } = await registerByApi(request);
    await useSession(page, session);
    let posts = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/app/Wishlists') posts++;
    });
    // The hearts' own script (src/client/wishlist-toggle.ts) is held: the press comes before it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_astro\/wishlist-toggle\.[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/product-detail?id=${product.id}`);
    const heart = page.getByTestId('product-detail').locator(`button[data-heart="${product.id}"]`);
    await expect(heart).toHaveAttribute('aria-pressed', 'false');

    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    expect(page.url()).not.toContain('/login');
    const kept = await request.get('/api/app/Wishlists/ProductIds', { headers: bearer(session.token) });
    expect(((await kept.json()) as { productIds: number[] }).productIds).toContain(product.id);

    release();
    await expect(page.locator('.Toastify').getByText('Added to your wishlist')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-hearts', '');
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    expect(posts).toBe(1);
  });
});

test.describe('the first keystroke', () => {
  test('suggestions typed before the search box wakes are drawn as links at once, and give way to the box', async ({ page }) => {
    await page.goto('/');
    const input = page.locator('#site-search');
    const island = page.locator('astro-island:has(#site-search)');
    const componentUrl = await island.getAttribute('component-url');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => url.pathname === componentUrl, async (route) => {
      await released;
      await route.continue();
    });

    await input.fill('rice');
    const early = page.locator('[data-early-suggestions]');
    await expect(early.getByRole('link').first()).toBeVisible();
    await expect(island).toHaveAttribute('ssr');
    // Each a real link to the page the box would open, with what it is.
    const first = early.getByRole('link').first();
    expect(await first.getAttribute('href')).toMatch(/^\/(product-detail\?id=\d+|shop\?type=brand&id=\d+|shop\?type=category&id=[\w%-]+)$/);
    await expect(first).toContainText(/rice/i);

    // React arrives: the box shows its own suggestions (the answer already asked for), the plain ones are gone.
    release();
    await expect(island).not.toHaveAttribute('ssr');
    await expect(early).toHaveCount(0);
    await input.press('End');
    await expect(page.locator('#site-search-listbox [role="option"]').first()).toBeVisible();
  });
});

test.describe('Save-Data and 2G', () => {
  test('on 2G the rail below the first screen loads its pictures only when scrolled to', async ({ browser, request }) => {
    const product = (await plainProducts(request))[0]!;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // What a phone on 2G reports (the browser's own estimate cannot be set from a test).
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', { value: { effectiveType: '2g', saveData: false }, configurable: true });
    });
    const page = await context.newPage();
    const answer = await page.goto(`/product-detail?id=${product.id}`);
    // The pictures' route reads the effective type on the requests that follow (2G: the smallest width).
    expect(answer?.headers()['accept-ch']).toBe('ECT');
    await expect(page.locator('html')).toHaveAttribute('data-saving', '');
    const rail = page.getByTestId('related-products');
    const pictures = rail.locator('img');
    expect(await pictures.count()).toBeGreaterThan(0);
    await page.waitForLoadState('load');
    const loadedCount = () => pictures.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length);
    expect(await loadedCount()).toBe(0);
    await rail.scrollIntoViewIfNeeded();
    await expect.poll(loadedCount).toBeGreaterThan(0);
    await context.close();
  });

  test('without data saver or 2G nothing is marked', async ({ page, request }) => {
    const product = (await plainProducts(request))[0]!;
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', { value: { effectiveType: '4g', saveData: false }, configurable: true });
    });
    await page.goto(`/product-detail?id=${product.id}`);
    await expect(page.getByTestId('related-products')).toBeVisible();
    await expect(page.locator('html')).not.toHaveAttribute('data-saving', /.*/);
  });
});
