// Issue 25's journey on a phone (390×844), against the built server and its real API: a shopper gives a PIN outside
// the area and is told, gives one inside and sees it in the header, orders with UPI now; the grocer confirms the
// payment and moves the order along (their routes, as `npm run orders -- paid / advance` do) while the shopper's open
// order page changes by itself; once delivered, the shopper reports a damaged item and sees it settled.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { GrocerIssueListDto } from '../../src/server/after-delivery-schemas.ts';
import { allProducts } from './helpers.ts';
import { grocerHeaders } from './grocer.ts';
import { addAddressByApi, addToCartByApi } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

const SHOTS = '/tmp/journey25';
/** The order page asks every 5 s after a change, and at most every 20 s in the first minute without one. */
const WITHIN_A_POLL = 25_000;

test.use({ viewport: { width: 390, height: 844 } });

test('PIN outside then inside, UPI now, the grocer confirms and advances while the order page follows, a damaged item settled', async ({ page, request }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const grocer = async (call: string, data: object = {}) => {
    const res = await request.post(`/api/grocer/${call}`, { headers: grocerHeaders(), data });
    expect(res.status(), await res.text()).toBe(200);
    return res.json();
  };

  const plain = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 10_000)!;
  const { session } = await registerByApi(request);
  await useSession(page, session);

  // Where we deliver: told before the cart fills.
  await page.goto('/');
  const deliverTo = page.locator('[data-deliver-to]');
  await deliverTo.click();
  const pin = page.getByRole('textbox', { name: 'PIN code' });
  await pin.fill('110024');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('pin-answer').getByRole('heading')).toHaveText("We don't deliver to 110024 yet.");
  await shot('1-pin-outside');
  await pin.fill('560034');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('pin-answer').getByRole('heading')).toHaveText('We deliver to 560034');
  await page.goto(`/product-detail?id=${plain.id}`);
  await expect(deliverTo).toHaveText(/^Deliver to 560034/);

  // Ordering with UPI now.
  await addToCartByApi(request, session.token, plain, 2);
  await addAddressByApi(request, session.token);
  await page.goto('/checkout');
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
  await page.getByRole('radio', { name: /UPI — pay now/ }).check();
  await shot('2-checkout-upi-now');
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get('id'));

  // The open order page: awaiting payment, with the UPI app button on a phone.
  await page.goto(`/orderdetails?id=${id}`);
  const payNow = page.getByTestId('pay-now');
  await expect(payNow.getByTestId('pay-now-state')).toHaveText(/^Awaiting payment — pay ₹[\d,]+\.\d\d by \d\d:\d\d$/);
  await expect(payNow.getByRole('link', { name: 'Pay with a UPI app' })).toHaveAttribute('href', /^upi:\/\/pay\?/);
  await shot('3-awaiting-payment');
  let loads = 0;
  page.on('load', () => loads++);

  // The grocer confirms the payment and moves the order along; the page follows without a reload.
  await grocer(`Orders/${id}/Paid`);
  await expect(page.getByTestId('order-payment-state')).toHaveText(/^Paid on /, { timeout: WITHIN_A_POLL });
  await expect(payNow).toHaveCount(0);
  const status = page.getByTestId('order-status');
  for (const [step, label] of [
    ['packed', 'Packed'],
    ['out_for_delivery', 'Out for delivery'],
    ['delivered', 'Delivered'],
  ] as const) {
    const { order } = (await grocer(`Orders/${id}/Advance`)) as { order: { status: string } };
    expect(order.status).toBe(step);
    await expect(status).toHaveText(label, { timeout: WITHIN_A_POLL });
  }
  expect(loads).toBe(0);
  await expect(page.getByTestId('order-slot')).toHaveText(/^Delivered on /);
  await shot('4-delivered-by-itself');

  // After delivery: a damaged item reported, settled by the grocer, the outcome read by the shopper.
  const line = page.getByTestId('order-line').first();
  await line.getByText('Report an issue').click();
  await line.getByRole('radio', { name: 'Damaged' }).check();
  await line.getByLabel('Note (optional)').fill('The pack was crushed');
  await line.getByRole('button', { name: 'Send the report' }).click();
  await expect(line.getByTestId('line-issue-outcome')).toHaveText('Reported: the shop will get back to you');
  const { issues } = (await (await request.get('/api/grocer/Issues', { headers: grocerHeaders() })).json()) as GrocerIssueListDto;
  const issue = issues.find((i) => i.orderId === id)!;
  expect(issue).toMatchObject({ kind: 'damaged', outcome: 'open', note: 'The pack was crushed' });
  await grocer(`Issues/${issue.id}/Settle`, { outcome: 'replaced', note: 'A new pack comes with your next slot' });
  await page.reload();
  await expect(page.getByTestId('order-line').first().getByTestId('line-issue-outcome')).toHaveText(/^A replacement is on its way/);
  await shot('5-issue-settled');
});
