// After an order is placed (issue 11): OrderComplete, Order Tracking (newest first, paged, Order again), the order's
// details (timeline, cancel), against the built server and the real API on a fresh database. The orders are placed
// over the API as the checkout would (its own browser test is the checkout's).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatSlotWhen } from '../../src/lib/slots.ts';
import { allProducts, rupees, type ApiProduct } from './helpers.ts';
import { addAddressByApi, addToCartByApi, bearer, buyUpStock, expectAccessible, placedOrder } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import type { OrderPageDto } from '../../src/server/order-schemas.ts';

/**
 * Plain products in stock from the middle of the catalogue: the cart and checkout tests take theirs from its ends
 * (and buy some up; the listing that says 'in stock' may be a minute old).
 */
async function plainProducts(request: APIRequestContext, count: number): Promise<ApiProduct[]> {
  const plain = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock && p.pricePaise > 0);
  const middle = plain.slice(Math.floor(plain.length / 3), Math.floor(plain.length / 3) + count);
  if (middle.length < count) throw new Error(`the seed has fewer than ${count} plain products in stock`);
  return middle;
}

const card = (page: Page, orderId: number) => page.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`);

test('OrderComplete, Order Tracking, details with the timeline, cancel, Order again naming what is gone', async ({ page, request }) => {
  test.setTimeout(90_000); // a second shopper buys up a product over the API
  const [gone, kept] = (await plainProducts(request, 2)) as [ApiProduct, ApiProduct];
  const { session } = await registerByApi(request);
  const token = session.token;
  await addToCartByApi(request, token, gone, 2);
  await addToCartByApi(request, token, kept, 1);
  const addressId = await addAddressByApi(request, token);
  const order = await placedOrder(request, token, addressId, 'upi');
  await useSession(page, session);

  // OrderComplete: the number, the lines, the slot, the address, the payment and the total.
  await page.goto(`/OrderComplete?id=${order.id}`);
  await expect(page.getByTestId('order-thanks')).toContainText(`Thank you! Your order #${order.id} is placed`);
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  await expect(page.getByTestId('order-line').filter({ hasText: gone.name })).toContainText(`2 × ${rupees(gone.pricePaise)}`);
  // Intl's thin spaces compared as plain ones.
  const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
  expect(plain(await page.getByTestId('order-slot').textContent())).toBe(plain(formatSlotWhen(order.slot, order.timeZone)));
  await expect(page.getByTestId('order-address')).toContainText('Malleshwaram');
  await expect(page.getByTestId('order-address')).toContainText('Bengaluru, Karnataka 560003');
  await expect(page.getByTestId('order-payment')).toHaveText('UPI on delivery');
  await expect(page.getByTestId('summary-total')).toHaveText(rupees(order.summary.totalPaise));
  for (const discount of order.summary.discounts) await expect(page.getByTestId('order-summary')).toContainText(discount.label);
  // The cart was emptied by the order (the badge says nothing).
  await expect(page.getByTestId('cart-count')).toBeHidden();
  await expectAccessible(page);

  // Order Tracking: this order first, with its status, count and total.
  await page.goto('/previous-order');
  const first = page.getByTestId('order-card').first();
  await expect(first).toHaveAttribute('data-order-id', String(order.id));
  await expect(first.getByTestId('order-status')).toHaveText('Placed');
  await expect(first).toContainText(`3 items · ${rupees(order.summary.totalPaise)}`);
  await expect(first).toContainText(gone.name);
  await expectAccessible(page);
  // On a small phone the list fits: long product names never widen the page.
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Its details: the timeline, then cancel it (asked first).
  await first.getByRole('link', { name: `Details of order #${order.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orderdetails\\?id=${order.id}$`));
  const timeline = page.getByTestId('order-timeline');
  await expect(timeline.locator('li.done')).toHaveCount(1);
  await expect(timeline.locator('li').first()).toContainText('Placed');
  await expect(timeline.locator('li')).toHaveCount(4);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Keep the order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Placed');
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByRole('button', { name: 'Yes, cancel the order' })).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(timeline.locator('li.cancelled')).toContainText('Cancelled');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText('Cancelled');

  // Another shopper buys up one of its products: Order again puts back the other and names the one gone.
  await buyUpStock(request, gone);
  await page.goto('/previous-order');
  await card(page, order.id).getByRole('button', { name: `Order again (order #${order.id})` }).click();
  const notice = page.getByTestId('reorder-notice');
  await expect(notice).toContainText('1 item added to your cart');
  await expect(page.getByTestId('reorder-unavailable')).toHaveText(`No longer available: ${gone.name}.`);
  await expect(notice).toContainText(`${gone.name} is out of stock`);
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await notice.getByRole('link', { name: 'Go to your cart' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-line')).toHaveAttribute('data-product-id', String(kept.id));

  // Another shopper's order, and an id that names nothing: 'No such order', with the way back.
  const other = await registerByApi(request);
  await addToCartByApi(request, other.session.token, kept);
  const theirs = await placedOrder(request, other.session.token, await addAddressByApi(request, other.session.token));
  for (const id of [String(theirs.id), 'x1']) {
    await page.goto(`/orderdetails?id=${id}`);
    await expect(page.getByTestId('no-such-order')).toContainText('No such order');
    await expect(page.getByTestId('no-such-order').getByRole('link', { name: /Order Tracking/ })).toHaveAttribute('href', '/previous-order');
  }
});

test('Order Tracking pages with Prev and Next, newest first', async ({ page, request }) => {
  test.setTimeout(90_000); // a page and one more of orders, placed over the API
  const { session } = await registerByApi(request);
  const token = session.token;
  const addressId = await addAddressByApi(request, token);
  const empty = (await (await request.get('/api/app/Orders/GetOrdersByUser/0', { headers: bearer(token) })).json()) as OrderPageDto;
  const ids: number[] = [];
  // One product per order (a product may have as few as 8 on the shelf), none of the first test's.
  const products = (await plainProducts(request, empty.pageSize + 3)).slice(2);
  for (const product of products) {
    await addToCartByApi(request, token, product);
    const { id } = await placedOrder(request, token, addressId);
    ids.push(id);
    // Cancelled, so that one number may place a page and more of them (3 open orders at most, one per slot).
    expect((await request.post(`/api/app/Orders/${id}/Cancel`, { headers: bearer(token), data: {} })).status()).toBe(200);
  }
  await useSession(page, session);

  await page.goto('/previous-order');
  await expect(page.getByTestId('order-card')).toHaveCount(empty.pageSize);
  await expect(page.getByTestId('order-card').first()).toHaveAttribute('data-order-id', String(ids.at(-1)));
  await expect(page.getByRole('link', { name: /Prev/ })).toHaveCount(0);
  await page.getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(/\/previous-order\?page=2$/);
  await expect(page.getByTestId('order-card')).toHaveCount(1);
  await expect(page.getByTestId('order-card')).toHaveAttribute('data-order-id', String(ids[0]));
  await page.getByRole('link', { name: /Prev/ }).click();
  await expect(page).toHaveURL(/\/previous-order$/);
  await expect(page.getByTestId('order-card')).toHaveCount(empty.pageSize);

});

test('a shopper with no orders is invited to shop', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.goto('/previous-order');
  await expect(page.getByTestId('no-orders')).toContainText('No orders yet');
});
