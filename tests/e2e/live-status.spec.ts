// Live status (issue 25): a shopper's open order page and Order Tracking change by themselves when the grocer moves the
// order (the grocer's route with the grocer's token, as `npm run orders -- advance` does), within the poll time and
// without a reload, and say so politely; a delivered order then reads "Delivered on …", not its slot's promise.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { allProducts } from './helpers.ts';
import { addAddressByApi, addToCartByApi, placedOrder } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import { grocerToken } from './grocer.ts';

const SCREENSHOTS = '/tmp/h4-shots';
/** The first poll is 5 s after the page drew the order: the change shows well within this. */
const WITHIN_A_POLL = 12_000;

async function advanceByApi(request: APIRequestContext, orderId: number, to: string) {
  // A JSON body: a write with none is taken for another site's form.
  const res = await request.post(`/api/grocer/Orders/${orderId}/Advance`, { headers: { Authorization: `Grocer ${grocerToken()}` }, data: {} });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { order: { status: string } }).order.status).toBe(to);
}

test.use({ viewport: { width: 390, height: 844 } });

test('the open order page and Order Tracking follow the grocer’s steps without a reload', async ({ page, request }) => {
  const products = await allProducts(request);
  const plain = products.find((p) => p.type === 'normal' && p.inStock);
  if (!plain) throw new Error('the seed has no plain product in stock');
  const { session } = await registerByApi(request);
  await addToCartByApi(request, session.token, plain, 1);
  const addressId = await addAddressByApi(request, session.token);
  const order = await placedOrder(request, session.token, addressId);
  await useSession(page, session);

  await page.goto(`/orderdetails?id=${order.id}`);
  const status = page.getByTestId('order-status');
  await expect(status).toHaveText('Placed');
  let reloads = 0;
  page.on('load', () => reloads++);

  await advanceByApi(request, order.id, 'packed');
  await expect(status).toHaveText('Packed', { timeout: WITHIN_A_POLL });
  await expect(page.getByTestId('order-news')).toHaveText(`Order #${order.id} is now packed.`);
  await expect(page.getByTestId('order-timeline').locator('li.done')).toHaveCount(2);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'live-status-packed-390.png'), fullPage: true });

  // Order Tracking follows too.
  await page.goto('/previous-order');
  const card = page.locator(`[data-testid="order-card"][data-order-id="${order.id}"]`);
  await expect(card.getByTestId('order-status')).toHaveText('Packed');
  await expect(card.getByTestId('order-when')).toHaveText(/^Delivery /);
  await advanceByApi(request, order.id, 'out_for_delivery');
  await expect(card.getByTestId('order-status')).toHaveText('Out for delivery', { timeout: WITHIN_A_POLL });
  await expect(page.getByTestId('order-news')).toHaveText(`Order #${order.id} is now out for delivery.`);
  await advanceByApi(request, order.id, 'delivered');
  await expect(card.getByTestId('order-status')).toHaveText('Delivered', { timeout: WITHIN_A_POLL });
  // A past order reads as what happened, not as its slot's promise.
  await expect(card.getByTestId('order-when')).toHaveText(/^Delivered on [A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'live-status-tracking-delivered-390.png'), fullPage: true });

  await page.goto(`/orderdetails?id=${order.id}`);
  await expect(page.getByTestId('order-slot')).toHaveText(/^Delivered on [A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'live-status-delivered-390.png'), fullPage: true });
  // Each change came by itself: the only loads were the two pages this test opened after the first.
  expect(reloads).toBe(2);
});

test('My Account’s "Text me about my orders" is on by default and stays off once unticked and saved', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.goto('/myaccount');
  const texts = page.getByRole('checkbox', { name: 'Text me about my orders' });
  await expect(page.locator('#profile-name')).toHaveValue(session.user.name);
  await expect(texts).toBeChecked();
  await texts.uncheck();
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Your details are saved.')).toBeVisible();
  const me = await request.get('/api/app/Users/Me', { headers: { Authorization: `Bearer ${session.token}` } });
  expect(((await me.json()) as { smsNotices: boolean }).smsNotices).toBe(false);
  await page.reload();
  await expect(page.locator('#profile-name')).toHaveValue(session.user.name);
  await expect(texts).not.toBeChecked();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-account-texts-off-390.png'), fullPage: true });
});
