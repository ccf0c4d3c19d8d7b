// The whole of issue 11 as one shopper lives it, in one browser session against the real API: fill a cart from a
// product page, keep the product in the wishlist, add an address, pick a slot, double-click Place order, see the
// confirmation, find the order under Order Tracking, open it, cancel it, order it again, and find the wishlist.
import { expect, test } from '@playwright/test';
import type { OrderPageDto } from '../../src/server/order-schemas.ts';
import { allProducts } from './helpers.ts';
import { bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('from a product page to a cancelled order ordered again, with a wishlist', async ({ page, request }) => {
  test.setTimeout(90_000);
  const products = await allProducts(request);
  // A third of the way in: the other order specs take theirs from the ends and the middle of the catalogue.
  const candidates = products.filter((p) => p.type === 'normal' && p.inStock);
  const product = candidates[Math.floor(candidates.length / 3)]!;
  const { session } = await registerByApi(request);
  await useSession(page, session);

  // A product page: add it to the cart and keep it in the wishlist.
  await page.goto(`/product-detail?id=${product.id}`);
  await page.getByRole('button', { name: new RegExp(`^Add to cart\\s*:\\s*${escape(product.name)}$`) }).first().click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  const heart = page.locator(`button[data-heart="${product.id}"]`).first();
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');

  // Cart, then checkout: a new address, a slot, cash on delivery, Place order double-clicked.
  await page.goto('/cart');
  await page.getByTestId('cart-summary').getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill('Kavya Menon');
  await form.getByLabel('Mobile number').fill('+91 99000 11223');
  // Inside the shop's delivery area (store.yaml), as an order's address must be.
  await form.getByLabel('Pincode').fill('560034');
  await form.getByLabel('Flat, house no., building').fill('Flat 4B, Lake View Apartments');
  await form.getByLabel('Town or city').fill('Bengaluru');
  await form.getByLabel('State').selectOption('Karnataka');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  await expect(page.getByRole('radio', { name: /Kavya Menon/ })).toBeChecked();
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
  await page.getByRole('button', { name: 'Place order' }).dblclick();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const orderId = Number(new URL(page.url()).searchParams.get('id'));
  await expect(page.getByTestId('order-thanks')).toContainText(`Your order #${orderId} is placed`);
  await expect(page.getByTestId('order-line')).toHaveCount(1);
  await expect(page.getByTestId('order-address')).toContainText('Bengaluru, Karnataka 560034');
  await expect(page.getByTestId('cart-count')).toBeHidden();
  const placed = (await (await request.get('/api/app/Orders/GetOrdersByUser/0', { headers: bearer(session.token) })).json()) as OrderPageDto;
  expect(placed.orders.map((o) => o.id)).toEqual([orderId]);

  // Order Tracking from the account menu: the order first, then its details; cancel it.
  await page.getByRole('button', { name: 'Account' }).click();
  await page.locator('#account-menu-list').getByRole('link', { name: 'Order Tracking' }).click();
  const card = page.getByTestId('order-card').first();
  await expect(card).toHaveAttribute('data-order-id', String(orderId));
  await expect(card.getByTestId('order-status')).toHaveText('Placed');
  await card.getByRole('link', { name: `Details of order #${orderId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orderdetails\\?id=${orderId}$`));
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelled');

  // Order it again: the line is back in the cart.
  await page.goto('/previous-order');
  await expect(page.getByTestId('order-card').first().getByTestId('order-status')).toHaveText('Cancelled');
  await page.getByRole('button', { name: `Order again (order #${orderId})` }).click();
  await expect(page.getByTestId('reorder-notice')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByTestId('reorder-notice').getByRole('link', { name: 'Go to your cart' }).click();
  await expect(page.getByTestId('cart-line')).toHaveAttribute('data-product-id', String(product.id));

  // The wishlist keeps the product.
  await page.getByRole('button', { name: 'Account' }).click();
  await page.locator('#account-menu-list').getByRole('link', { name: 'Wishlist', exact: true }).click();
  await expect(page.getByTestId('wishlist-item')).toHaveCount(1);
  await expect(page.getByTestId('wishlist-item')).toHaveAttribute('data-product-id', String(product.id));
});
