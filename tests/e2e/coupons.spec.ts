// Coupons (issue 25) in the browser on a 390×844 phone, against the built server and the real API: a short cart is
// told what to add for WELCOME50, an expired code says when it expired, the code applies once the cart reaches the
// minimum (its own line in the summary), carries to the checkout, and the order keeps the line.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { OrderDto, SlotListDto } from '../../src/server/order-schemas.ts';
import { allProducts, rupees } from './helpers.ts';
import { addAddressByApi, bearer, expectAccessible } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

const PHONE = { width: 390, height: 844 };
/** Where screenshots go when asked for (SCREENSHOTS_DIR); the test asserts without them. */
const shotsDir = process.env.SCREENSHOTS_DIR;
/** The phone's screen with `what` scrolled to its top (the cart's bar stays fixed at the bottom). */
async function shot(page: Page, name: string, what: Locator) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await what.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
}

test.use({ viewport: PHONE });

test('a shopper is told why a coupon does not apply, applies WELCOME50, and sees its line at checkout and on the order', async ({ page, request }) => {
  // One unit is short of WELCOME50's ₹299; three are enough (at most the 10 of one item a cart may hold).
  const products = await allProducts(request);
  const plain = products.find((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 10_000 && p.pricePaise < 14_900);
  if (!plain) throw new Error('the seed has no plain product between ₹100 and ₹149 in stock');
  const { session } = await registerByApi(request);
  const headers = bearer(session.token);
  const added = await request.post('/api/app/Carts', { headers, data: { productsId: plain.id, productVariantsId: 0, qty: 1 } });
  expect(added.status(), await added.text()).toBe(201);
  await addAddressByApi(request, session.token);
  await useSession(page, session);

  await page.goto('/cart');
  const summary = page.getByTestId('cart-summary');
  const field = summary.getByLabel('Coupon code');
  const said = summary.getByTestId('coupon-message');

  // A short cart: the reason, read out, with what to add.
  await field.fill('welcome50');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(said).toHaveText(`Add ${rupees(29_900 - plain.pricePaise)} more to use WELCOME50.`);
  await expect(said).toHaveAttribute('role', 'status');
  await expect(summary.getByTestId('discount-label')).not.toContainText(['Coupon WELCOME50']);
  await shot(page, 'coupon-short-cart', summary);

  // An expired code says when.
  await field.fill('DIWALI100');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(said).toHaveText('DIWALI100 expired on 30 Nov 2025.');

  // Three units reach the minimum; now it applies, as its own line after the offers.
  const more = page.getByRole('button', { name: `One more ${plain.name}` });
  const qty = page.getByTestId('cart-qty');
  await more.click();
  await expect(qty).toHaveText('2');
  await more.click();
  await expect(qty).toHaveText('3');
  await field.fill('welcome50');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(said).toHaveText(`Coupon WELCOME50 applied: ${rupees(5_000)} off.`);
  const priced = (await (await request.get(`/api/app/Carts/GetCartsByUser/${session.user.id}?coupon=WELCOME50`, { headers })).json()) as CartDto;
  expect(priced.coupon).toMatchObject({ applies: true, amountPaise: 5_000 });
  await expect(summary.getByTestId('discount-label').last()).toHaveText('Coupon WELCOME50');
  await expect(summary.getByTestId('discount-amount').last()).toHaveText(`−${rupees(5_000)}`);
  await expect(summary.getByTestId('summary-total')).toHaveText(rupees(priced.summary.totalPaise));
  await expect(summary.getByTestId('coupon-code')).toHaveText('WELCOME50');
  await expect(summary.getByRole('button', { name: 'Remove coupon WELCOME50' })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'coupon-applied-cart', summary);

  // The code is kept like the cart: a reload still shows it applied.
  await page.reload();
  await expect(summary.getByTestId('coupon-code')).toHaveText('WELCOME50');
  await expect(summary.getByTestId('discount-label').last()).toHaveText('Coupon WELCOME50');

  // The checkout shows the line and the total, and the order keeps both.
  await summary.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const checkout = page.getByTestId('checkout-summary');
  await expect(checkout.getByTestId('discount-label').last()).toHaveText('Coupon WELCOME50');
  await expect(checkout.getByTestId('summary-total')).toHaveText(rupees(priced.summary.totalPaise));
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
  await shot(page, 'coupon-checkout', checkout);
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const orderId = Number(new URL(page.url()).searchParams.get('id'));
  const order = (await (await request.get(`/api/app/Orders/${orderId}`, { headers })).json()) as OrderDto;
  expect(order.summary.discounts.at(-1)).toEqual({ code: 'coupon', label: 'Coupon WELCOME50', amountPaise: 5_000 });
  expect(order.summary.totalPaise).toBe(priced.summary.totalPaise);
  const onOrder = page.getByTestId('order-summary');
  await expect(onOrder.getByTestId('discount-label').last()).toHaveText('Coupon WELCOME50');
  await expect(onOrder.getByTestId('discount-amount').last()).toHaveText(`−${rupees(5_000)}`);
  await shot(page, 'coupon-order', onOrder);

  // Used: the next cart starts without it, and the same number is told so if it tries again.
  expect(await page.evaluate(() => localStorage.getItem('coupon'))).toBe('');
  await request.post('/api/app/Carts', { headers, data: { productsId: plain.id, productVariantsId: 0, qty: 3 } });
  await page.goto('/cart');
  await summary.getByLabel('Coupon code').fill('WELCOME50');
  await summary.getByRole('button', { name: 'Apply' }).click();
  await expect(summary.getByTestId('coupon-message')).toHaveText('You have already used WELCOME50: each coupon is once per mobile number.');
});

test('a coupon used elsewhere while the shopper checks out: told at Place order, nothing else lost, the next press orders without it', async ({ page, request }) => {
  const products = await allProducts(request);
  const plain = products.filter((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 10_000 && p.pricePaise < 14_900).at(-1);
  if (!plain) throw new Error('the seed has no plain product between ₹100 and ₹149 in stock');
  const { session } = await registerByApi(request);
  const headers = bearer(session.token);
  const fill = async () => {
    const res = await request.post('/api/app/Carts', { headers, data: { productsId: plain.id, productVariantsId: 0, qty: 3 } });
    expect(res.status(), await res.text()).toBe(201);
  };
  await fill();
  const addressId = await addAddressByApi(request, session.token);
  await useSession(page, session);
  await page.evaluate(() => localStorage.setItem('coupon', 'WELCOME50'));

  await page.goto('/checkout');
  const checkout = page.getByTestId('checkout-summary');
  await expect(checkout.getByTestId('discount-label').last()).toHaveText('Coupon WELCOME50');
  const slot = page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first();
  await slot.check();

  // Meanwhile, another tab orders with WELCOME50 in the last open slot, and the cart is filled again.
  const slots = (await (await request.get('/api/app/DeliverySlots', { headers })).json()) as SlotListDto;
  const elsewhere = await request.post('/api/app/Orders', {
    headers: { ...headers, 'Idempotency-Key': `coupon-e2e-${Date.now().toString(36)}` },
    data: { addressId, slotId: slots.slots.filter((s) => s.unavailable === null).at(-1)!.id, paymentMethod: 'cash', couponCode: 'WELCOME50' },
  });
  expect(elsewhere.status(), await elsewhere.text()).toBe(201);
  await fill();

  await page.getByRole('button', { name: 'Place order' }).click();
  const alert = page.getByTestId('checkout-alert');
  await expect(alert).toContainText('You have already used WELCOME50: each coupon is once per mobile number.');
  await expect(alert).toContainText('Your order was not placed');
  await expect(checkout.getByTestId('checkout-coupon')).toContainText('Coupon WELCOME50 is not applied');
  await expect(checkout.getByTestId('discount-label')).not.toContainText(['Coupon WELCOME50']);
  await shot(page, 'coupon-checkout-refused', checkout);
  // The slot and the address stay chosen: pressing again orders without the coupon, at the total shown.
  await expect(slot).toBeChecked();
  const total = await checkout.getByTestId('summary-total').textContent();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const order = (await (await request.get(`/api/app/Orders/${new URL(page.url()).searchParams.get('id')}`, { headers })).json()) as OrderDto;
  expect(order.summary.discounts.map((d) => d.code)).not.toContain('coupon');
  expect(rupees(order.summary.totalPaise)).toBe(total);
});
