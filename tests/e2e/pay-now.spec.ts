// Paying now by UPI (issue 25) in the browser: a shopper chooses "UPI — pay now" at checkout; the order shows the
// UPI payment request for the exact amount (on a phone the "Pay with a UPI app" button opening the upi:// link, on a
// computer the QR code with the UPI ID, payee, amount and note written out); the grocer confirms the payment through
// the grocer's route, as `npm run orders -- paid` does, and after a reload the order reads "Paid on …".
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { allProducts } from './helpers.ts';
import { addAddressByApi, addToCartByApi, bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import { grocerToken } from './grocer.ts';

const SCREENSHOTS = '/tmp/h2-shots';

async function confirmPaymentByApi(request: APIRequestContext, orderId: number) {
  // A JSON body: a write with none is taken for another site's form.
  const res = await request.post(`/api/grocer/Orders/${orderId}/Paid`, { headers: { Authorization: `Grocer ${grocerToken()}` }, data: {} });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { outcome: string }).outcome).toBe('paid');
}

/** A signed-in shopper with a plain product in the cart and a saved address, at checkout, who pays by UPI now. */
async function placeUpiNowOrder(page: Page, request: APIRequestContext): Promise<OrderDto & { token: string }> {
  const products = await allProducts(request);
  const plain = products.find((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 10_000);
  if (!plain) throw new Error('the seed has no plain product of ₹100 or more in stock');
  const { session } = await registerByApi(request);
  await addToCartByApi(request, session.token, plain, 2);
  await addAddressByApi(request, session.token);
  await useSession(page, session);
  await page.goto('/checkout');
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
  await page.getByRole('radio', { name: /UPI — pay now/ }).check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get('id'));
  const order = (await (await request.get(`/api/app/Orders/${id}`, { headers: bearer(session.token) })).json()) as OrderDto;
  expect(order.payment.status).toBe('awaiting');
  return { ...order, token: session.token };
}

const exact = (paise: number) => `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the order asks for the exact amount with a "Pay with a UPI app" button; once the grocer confirms, it reads Paid', async ({ page, request }) => {
    const order = await placeUpiNowOrder(page, request);
    const payNow = page.getByTestId('pay-now');
    await expect(payNow.getByTestId('pay-now-state')).toHaveText(new RegExp(`^Awaiting payment — pay ${exact(order.summary.totalPaise).replace(/[.₹]/g, '\\$&')} by \\d\\d:\\d\\d$`));
    const button = payNow.getByRole('link', { name: 'Pay with a UPI app' });
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute('href', order.payment.request!.link);
    expect(order.payment.request!.link).toMatch(/^upi:\/\/pay\?pa=[^&]+&pn=[^&]+&am=\d+\.\d\d&cu=INR&tn=[^&]+&tr=[A-Z0-9]+$/);
    // The QR code is for a computer's screen; the facts are written out on both.
    await expect(payNow.getByTestId('pay-now-qr')).toBeHidden();
    await expect(payNow.getByTestId('pay-now-upi-id')).toHaveText(order.payment.request!.upiId);
    await expect(payNow.getByTestId('pay-now-note')).toHaveText(`Kirana order ${order.id}`);
    const accessibility = await new AxeBuilder({ page }).include('[data-testid="pay-now"]').analyze();
    expect(accessibility.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pay-now-phone-390.png'), fullPage: true });

    await confirmPaymentByApi(request, order.id);
    await page.goto(`/orderdetails?id=${order.id}`);
    await expect(page.getByTestId('order-payment-state')).toHaveText(/^Paid on \d{1,2} [A-Z][a-z]{2} \d{4}, /);
    await expect(page.getByTestId('pay-now')).toHaveCount(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pay-now-paid-390.png'), fullPage: true });
  });
});

test.describe('on a computer (1366×900)', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('the order shows the QR code with the UPI ID, payee, amount and note to type; once confirmed, it reads Paid', async ({ page, request }) => {
    const order = await placeUpiNowOrder(page, request);
    const request_ = order.payment.request!;
    const payNow = page.getByTestId('pay-now');
    const qr = payNow.getByRole('img', { name: /^QR code: pay ₹/ });
    await expect(qr).toBeVisible();
    await expect(qr).toHaveAttribute('alt', `QR code: pay ₹${request_.amount} to ${request_.payeeName} (UPI ID ${request_.upiId}), note "Kirana order ${order.id}"`);
    // The image is the server's SVG, drawn in full (a QR code of this link is far wider than 20 px).
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 20)).toBe(true);
    await expect(payNow.getByRole('link', { name: 'Pay with a UPI app' })).toBeHidden();
    await expect(payNow.getByTestId('pay-now-upi-id')).toHaveText(request_.upiId);
    await expect(payNow.getByTestId('pay-now-amount')).toHaveText(`₹${request_.amount}`);
    await expect(payNow.getByTestId('pay-now-note')).toHaveText(`Kirana order ${order.id}`);
    await expect(payNow).toContainText(request_.payeeName);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pay-now-desktop-1366.png'), fullPage: true });

    await confirmPaymentByApi(request, order.id);
    await page.goto(`/orderdetails?id=${order.id}`);
    await expect(page.getByTestId('order-payment-state')).toHaveText(/^Paid on /);
    await expect(page.getByTestId('pay-now')).toHaveCount(0);
  });
});
