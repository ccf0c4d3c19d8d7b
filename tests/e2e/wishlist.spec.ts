// The wishlist (issue 11): the page's sign-in prompt, the hearts on cards and the product page (signed out: to
// /login and back, the press kept), the list with Add to cart and Remove. Built server, real API, fresh database.
import { expect, test, type Page } from '@playwright/test';
import { allProducts } from './helpers.ts';
import { expectAccessible } from './orders-setup.ts';
import { PASSWORD, registerByApi, useSession } from './session.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const at = (path: string) => new RegExp(`${escape(path)}$`);
const heartOf = (page: Page, scope: string, productId: number) => page.locator(`${scope} button[data-heart="${productId}"]`).first();

test('signed out: /wishlist asks to sign in; a heart on a card goes to /login and back, and keeps the product', async ({ page, request }) => {
  const product = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock)!;
  const { shopper } = await registerByApi(request);

  await page.goto('/wishlist');
  const prompt = page.getByTestId('wishlist-sign-in');
  await expect(prompt).toContainText('Sign in to see your wishlist');
  await expect(prompt.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?next=%2Fwishlist');
  await expectAccessible(page);

  const search = `/search?name=${encodeURIComponent(product.name.toLowerCase())}`;
  await page.goto(search);
  const heart = heartOf(page, `[data-testid="product-card"][data-product-id="${product.id}"]`, product.id);
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await expect(heart).toHaveAccessibleName(`Wishlist: ${product.name}`);
  await heart.click();
  // No script ran: the heart's own form asked for a sign-in that comes back to this page and this product.
  await expect(page).toHaveURL(at(`/login?next=${encodeURIComponent(`${search}#add-to-wishlist-${product.id}`)}`));
  await page.getByLabel('Email or mobile number').fill(shopper.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back on the page, the product is kept and the fragment dropped.
  await expect(page).toHaveURL(at(search));
  // The press made before signing in counts.
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await expect(heart).toHaveAttribute('title', 'Remove from wishlist');

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'Wishlist', exact: true }).click();
  await expect(page).toHaveURL(at('/wishlist'));
  await expect(page.getByTestId('wishlist-sign-in')).toBeHidden();
  await expect(page.getByTestId('wishlist-item')).toHaveCount(1);
  await expect(page.getByTestId('wishlist-item')).toHaveAttribute('data-product-id', String(product.id));
});

test('signed in: the heart on the product page, the wishlist with Add to cart and Remove', async ({ page, request }) => {
  const products = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock);
  const [first, second] = products.slice(1, 3);
  if (!first || !second) throw new Error('the seed has fewer than three plain products in stock');
  const { session } = await registerByApi(request);
  await useSession(page, session);

  for (const product of [first, second]) {
    await page.goto(`/product-detail?id=${product.id}`);
    const heart = heartOf(page, '[data-testid="product-detail"]', product.id);
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
  }
  // The pressed state comes from the server on the next visit.
  await page.reload();
  await expect(heartOf(page, '[data-testid="product-detail"]', second.id)).toHaveAttribute('aria-pressed', 'true');

  await page.goto('/wishlist');
  const items = page.getByTestId('wishlist-item');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toHaveAttribute('data-product-id', String(second.id)); // newest first
  await expectAccessible(page);
  await items.first().getByRole('button', { name: new RegExp(`^Add to cart\\s*:\\s*${escape(second.name)}$`) }).click();
  await expect(page.locator('.Toastify').getByText(`${second.name} added to cart!`).first()).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');

  await page.getByRole('button', { name: `Remove ${second.name} from your wishlist` }).click();
  await expect(items).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: `Removed ${second.name}` })).toBeVisible();
  await page.getByRole('button', { name: `Remove ${first.name} from your wishlist` }).click();
  await expect(page.getByTestId('wishlist-empty')).toContainText('Your wishlist is empty');
});

test('without JavaScript a heart asks for a sign-in that comes back to the page (no script is needed signed out)', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  const heart = page.getByTestId('product-card').first().locator('button[data-heart]');
  const productId = await heart.getAttribute('data-heart');
  await heart.click();
  await expect(page).toHaveURL(at(`/login?next=${encodeURIComponent(`/#add-to-wishlist-${productId}`)}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await context.close();
});
