// Issue 24 in the browser: reviews a shopper can weigh (each dated, a certified buyer's marked in words and listed
// first, anonymous ones after) and the small things a shopper met: the 320 px signed-in header, the gallery without
// JavaScript, a cancelled order's colours, Undo on the wishlist and in place in the cart, /login while signed in, an
// empty registration, and a refused token refresh said in a toast. Built server, real API, fresh database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import type { ReviewDto } from '../../src/server/schemas.ts';
import { allProducts, type ApiProduct } from './helpers.ts';
import { addAddressByApi, addToCartByApi, bearer, expectAccessible, placedOrder } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import { grocerToken } from './grocer.ts';

// Outside test-results/, which the next Playwright run empties.
const SCREENSHOTS = path.join(os.tmpdir(), 'kirana-issue-24');

async function deliverByApi(request: APIRequestContext, orderId: number) {
  for (const step of ['packed', 'out_for_delivery', 'delivered']) {
    // A JSON body: a write with none is taken for another site's form (src/lib/server/cross-site-writes.ts).
    const res = await request.post(`/api/grocer/Orders/${orderId}/Advance`, { headers: { Authorization: `Grocer ${grocerToken()}` }, data: {} });
    expect(res.status(), await res.text()).toBe(200);
    expect(((await res.json()) as { order: OrderDto }).order.status).toBe(step);
  }
}

/** A shopper who has ordered the product and had it delivered. */
async function deliveredBuyer(request: APIRequestContext, product: ApiProduct) {
  const { session, shopper } = await registerByApi(request);
  await addToCartByApi(request, session.token, product);
  const order = await placedOrder(request, session.token, await addAddressByApi(request, session.token));
  await deliverByApi(request, order.id);
  return { session, shopper };
}

const plainInStock = async (request: APIRequestContext) => (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock && p.productVariants.length === 0);

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text).first();

/** Two boxes share no pixel. */
function apart(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
}

test.describe('reviews a shopper can weigh', () => {
  test('a certified buyer posts signed in: dated, marked in words, listed before signed-in and anonymous reviews', async ({ page, request }) => {
    const product = (await plainInStock(request)).at(-3)!;
    // The seed's reviews of it are anonymous, and older than today's.
    const seeded = ((await (await request.get(`/api/Reviews/${product.id}`)).json()) as ReviewDto[]).length;
    // An anonymous review and a signed-in non-buyer's come first in time.
    const anonymous = await request.post('/api/Reviews', { data: { title: 'Anon Arjun', description: 'Nice and fresh.', stars: 3, productsId: product.id } });
    expect(anonymous.status()).toBe(201);
    const { session: other } = await registerByApi(request);
    const signedIn = await request.post('/api/Reviews', {
      headers: bearer(other.token),
      data: { title: 'Signed Sunita', description: 'Good value for money.', stars: 4, productsId: product.id },
    });
    expect(((await signedIn.json()) as ReviewDto).signedIn).toBe(true);

    const { session } = await deliveredBuyer(request, product);
    await useSession(page, session);
    await page.goto(`/product-detail?id=${product.id}#reviews`);
    const list = page.getByTestId('review-list');
    const reviews = list.getByTestId('review');
    await expect(reviews).toHaveCount(seeded + 2);
    await expect(reviews.locator('strong').first()).toHaveText('Signed Sunita');
    await expect(reviews.locator('strong').nth(1)).toHaveText('Anon Arjun');

    const form = page.locator('form[data-review-form]');
    await expect(form.getByText('You post as a signed-in shopper')).toBeVisible();
    await form.getByLabel('Comment').fill('Delivered fresh, exactly as shown. Will order again.');
    await form.getByLabel('Name').fill('Bhavna Buyer');
    await form.getByLabel('5 stars').check();
    await form.getByRole('button', { name: 'Post review' }).click();
    await expect(form.getByText('Thank you! Your review has been posted.')).toBeVisible();

    // In place at once: first, with its mark and its date.
    await expect(reviews).toHaveCount(seeded + 3);
    await expect(reviews.first()).toContainText('Bhavna Buyer');
    await expect(reviews.first().getByTestId('certified-buyer')).toHaveText('✓ Certified buyer');

    // And as the server lists it, for everyone.
    await page.reload();
    await expect(reviews).toHaveCount(seeded + 3);
    expect((await reviews.locator('strong').allTextContents()).slice(0, 3)).toEqual(['Bhavna Buyer', 'Signed Sunita', 'Anon Arjun']);
    await expect(list.getByTestId('certified-buyer')).toHaveCount(1);
    await expect(reviews.first().getByTestId('certified-buyer')).toBeVisible();
    const today = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }).format(new Date());
    for (const [i, review] of (await reviews.all()).entries()) {
      const time = review.locator('time');
      // Ours are today's; every review has a date in en-IN words and the instant in datetime.
      if (i < 3) await expect(time).toHaveText(today);
      else await expect(time).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
      expect(Number.isNaN(Date.parse((await time.getAttribute('datetime'))!))).toBe(false);
    }
    await expectAccessible(page);

    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
      await page.setViewportSize(viewport);
      // What the shopper sees with the list's top under the sticky header.
      await list.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(SCREENSHOTS, `reviews-${viewport.width}x${viewport.height}.png`) });
    }
  });

  test('without JavaScript a review lists its date, and an anonymous review still posts', async ({ browser, request }) => {
    const product = (await plainInStock(request)).at(-4)!;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/product-detail?id=${product.id}`);
    const form = page.locator('form[data-review-form]');
    // Signed out, the signed-in note is hidden.
    await expect(form.getByText('You post as a signed-in shopper')).toBeHidden();
    await form.getByLabel('Comment').fill('Good quality, well packed.');
    await form.getByLabel('Name').fill('Nisha No-Script');
    await form.getByLabel('4 stars').check();
    await form.getByRole('button', { name: 'Post review' }).click();
    const review = page.getByTestId('review').filter({ hasText: 'Nisha No-Script' });
    await expect(review).toBeVisible();
    await expect(review.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await expect(review.getByTestId('certified-buyer')).toHaveCount(0);
    await context.close();
  });
});

test('without JavaScript a gallery thumbnail shows its picture on the page and the shopper stays in the shop', async ({ browser, request }) => {
  const product = (await allProducts(request)).find((p) => p.productImages.length > 2)!;
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/product-detail?id=${product.id}`);
  const second = page.locator('#picture-2');
  await expect(second).toBeHidden();
  await page.getByRole('link', { name: `${product.name}, picture 2 of ${product.productImages.length}` }).click();
  await expect(page).toHaveURL(new RegExp(`/product-detail\\?id=${product.id}#picture-2$`));
  await expect(second).toBeVisible();
  await expect(page.getByTestId('gallery-main')).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeAttached();
  await context.close();
});

test('at 320 px the signed-in header keeps the wordmark, the cart and the account menu apart', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto('/');
  const logo = page.getByRole('link', { name: 'Kirana home' });
  const cart = page.getByTestId('header-cart');
  const account = page.getByRole('button', { name: 'Account' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(cart).toBeVisible();
  const boxes = await Promise.all([logo, cart, account, menu].map(async (l: Locator) => (await l.boundingBox())!));
  const [logoBox, cartBox, accountBox, menuBox] = boxes as [NonNullable<(typeof boxes)[number]>, ...NonNullable<(typeof boxes)[number]>[]];
  // The wordmark's text itself, not just its link, stays clear of the cart.
  const wordBox = (await logo.locator('span').boundingBox())!;
  expect(apart(wordBox, cartBox!), 'the wordmark and the cart').toBe(true);
  expect(apart(logoBox, cartBox!), 'the logo link and the cart').toBe(true);
  expect(apart(cartBox!, accountBox!), 'the cart and the account menu').toBe(true);
  expect(apart(accountBox!, menuBox!), 'the account menu and the drawer button').toBe(true);
  for (const box of boxes) expect(box.x + box.width).toBeLessThanOrEqual(320);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'header-signed-in-320.png'), clip: { x: 0, y: 0, width: 320, height: 160 } });
  // The menu still opens, by its name.
  await account.click();
  await expect(page.locator('#account-menu-list').getByRole('link', { name: 'My Account' })).toBeVisible();
});

test('a cancelled order says so in red, its dot and its word alike', async ({ page, request }) => {
  const product = (await plainInStock(request)).at(-5)!;
  const { session } = await registerByApi(request);
  await addToCartByApi(request, session.token, product);
  const order = await placedOrder(request, session.token, await addAddressByApi(request, session.token));
  expect((await request.post(`/api/app/Orders/${order.id}/Cancel`, { headers: bearer(session.token), data: {} })).status()).toBe(200);
  await useSession(page, session);
  await page.goto(`/orderdetails?id=${order.id}`);
  const step = page.getByTestId('order-timeline').locator('li.cancelled');
  await expect(step).toContainText('Cancelled');
  const colours = await step.evaluate((li) => ({
    dot: getComputedStyle(li, '::before').backgroundColor,
    word: getComputedStyle(li.querySelector('.step-name')!).color,
    badge: getComputedStyle(document.querySelector('[data-testid="order-status"]')!).color,
  }));
  expect(colours.word).toBe(colours.dot);
  expect(colours.badge).toBe(colours.dot);
});

test('the wishlist has Undo, like the cart, and a product put back returns to its place', async ({ page, request }) => {
  const products = (await plainInStock(request)).slice(3, 6);
  const { session } = await registerByApi(request);
  for (const product of products) {
    expect((await request.post('/api/app/Wishlists', { headers: bearer(session.token), data: { productsId: product.id } })).status()).toBe(201);
  }
  await useSession(page, session);
  await page.goto('/wishlist');
  const items = page.getByTestId('wishlist-item');
  await expect(items).toHaveCount(3);
  const before = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')));
  const middle = products.find((p) => String(p.id) === before[1])!;

  await page.getByRole('button', { name: `Remove ${middle.name} from your wishlist` }).click();
  await expect(items).toHaveCount(2);
  const undo = page.getByRole('status').getByRole('button', { name: 'Undo' });
  await expect(undo).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: `Removed ${middle.name} from your wishlist.` })).toBeVisible();
  await undo.click();
  await expect(items).toHaveCount(3);
  expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')))).toEqual(before);
  await expect(undo).toHaveCount(0);
  // Kept on the server too.
  const ids = (await (await request.get('/api/app/Wishlists/ProductIds', { headers: bearer(session.token) })).json()) as { productIds: number[] };
  expect(ids.productIds).toContain(middle.id);
});

test('an undone cart line returns to its place, and stays there through the next change', async ({ page, request }) => {
  const products = (await plainInStock(request)).slice(6, 9);
  const { session } = await registerByApi(request);
  for (const product of products) await addToCartByApi(request, session.token, product);
  await useSession(page, session);
  await page.goto('/cart');
  const lines = page.getByTestId('cart-line');
  await expect(lines).toHaveCount(3);
  const order = () => lines.evaluateAll((els) => els.map((el) => el.getAttribute('data-product-id')));
  const before = await order();
  const first = products.find((p) => String(p.id) === before[0])!;
  await page.getByRole('button', { name: `Remove ${first.name}` }).click();
  await expect(lines).toHaveCount(2);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(lines).toHaveCount(3);
  expect(await order()).toEqual(before);
  await lines.first().getByRole('button', { name: `One more ${first.name}` }).click();
  await expect(lines.first().getByTestId('cart-qty')).toHaveText('2');
  expect(await order()).toEqual(before);
});

test.describe('signing in', () => {
  test('/login while signed in goes on to next, or My Account, and says who is signed in', async ({ page, request }) => {
    const { session, shopper } = await registerByApi(request);
    await useSession(page, session);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/myaccount$/);
    await expect(toast(page, `You are signed in as ${shopper.name}.`)).toBeVisible();
    await page.goto(`/login?next=${encodeURIComponent('/wishlist')}`);
    await expect(page).toHaveURL(/\/wishlist$/);
    await expect(toast(page, `You are signed in as ${shopper.name}.`)).toBeVisible();
  });

  test('registering with nothing filled flags every field with its message, and the first takes focus', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    const fields = [
      ['Full name', 'Full name is required.'],
      ['Email', 'Email is required.'],
      ['Mobile number', 'Mobile number is required.'],
      ['Password', 'Password is required.'],
    ] as const;
    for (const [label, message] of fields) {
      const field = page.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(new RegExp(message.replace('.', '\\.')));
    }
    await expect(page.getByLabel('Full name', { exact: true })).toBeFocused();
    // Filling one clears its flag on the next try; the others keep theirs.
    await page.getByLabel('Full name', { exact: true }).fill('Asha Rao');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Full name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
  });

  test('the mobile number fields are type=tel with autocomplete=tel, and keep the 10-digit rule', async ({ page }) => {
    for (const url of ['/register', '/login']) {
      await page.goto(url);
      for (const phone of await page.locator('input[name="phone"]').all()) {
        await expect(phone).toHaveAttribute('type', 'tel');
        await expect(phone).toHaveAttribute('autocomplete', 'tel');
      }
    }
    await page.goto('/register');
    await page.getByLabel('Mobile number').fill('12345');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Mobile number')).toHaveAccessibleDescription(/Enter a 10-digit mobile number/);
  });

  test('a refresh the server refuses: a toast says the session ended, on /login where the cart sends the shopper', async ({ page, request }) => {
    const { session } = await registerByApi(request);
    // Signed out on the server (another device, say): the access token and the refresh token both end.
    expect((await request.post('/api/Authenticate/Logout', { data: { refreshToken: session.refreshToken } })).status()).toBeLessThan(300);
    await useSession(page, session);
    await page.goto('/cart');
    await expect(page).toHaveURL(/\/login\?next=%2Fcart$/);
    await expect(toast(page, 'Your session ended; please sign in again.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  test('a refused refresh on a catalogue page is said there, and the header turns signed out', async ({ page, request }) => {
    const { session } = await registerByApi(request);
    expect((await request.post('/api/Authenticate/Logout', { data: { refreshToken: session.refreshToken } })).status()).toBeLessThan(300);
    await useSession(page, session);
    await page.goto('/');
    await expect(toast(page, 'Your session ended; please sign in again.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
});
