// The back office's first pages (issue 34), on a phone and at a desk: an owner added through the grocer's API (as
// `npm run staff -- add` does while the shop runs) signs in with the texted code and their password; a shopper's pay-now
// order placed through the real API appears on the board within 5 s without a reload; its page, the slot's pick list
// (printed) and its packing slip; mark paid and the three steps to delivered, each with its confirmation, while the
// shopper's own order page follows; axe on sign-in, board and order; /manage without a session goes to the sign-in;
// every answer private and noindex. Screenshots go to /tmp/manage-shots/ for a person to look at.
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { allProducts } from './helpers.ts';
import { addAddressByApi, addToCartByApi, expectAccessible, placeOrderByApi } from './orders-setup.ts';
import { codeSentTo, registerByApi, useSession } from './session.ts';
import { addOwner, expectPrivate, OWNER_PASSWORD, shot } from './manage-setup.ts';

/** A shopper's pay-now order of one plain product, placed through the real API; the shopper's session with it. */
async function shopperOrder(request: APIRequestContext) {
  const plain = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 5_000);
  if (!plain) throw new Error('the seed has no plain product in stock');
  const { session } = await registerByApi(request);
  await addToCartByApi(request, session.token, plain, 2);
  const addressId = await addAddressByApi(request, session.token);
  const placed = await placeOrderByApi(request, session.token, addressId, 'upi_now' as 'upi');
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return { session, product: plain, order: placed.body as OrderDto };
}

for (const size of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('an owner signs in, sees a new order arrive, prints its pick list, marks it paid and delivers it', async ({ page, request, browser }) => {
      test.setTimeout(120_000);
      const owner = await addOwner(request);

      // Without a session every /manage page sends the browser to the sign-in, saying where it was going.
      const bare = await request.get('/manage/orders/1', { maxRedirects: 0 });
      expect(bare.status()).toBe(303);
      expect(bare.headers().location).toBe('/manage/sign-in?next=%2Fmanage%2Forders%2F1');
      expect(bare.headers()['cache-control']).toBe('private, no-store');
      const robots = await (await request.get('/robots.txt')).text();
      expect(robots).toContain('Disallow: /manage\n');

      expectPrivate(await page.goto('/manage'));
      await expect(page).toHaveURL(/\/manage\/sign-in\?next=%2Fmanage$/);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the back office');
      await expectAccessible(page);
      await shot(page, 'sign-in', size.width);

      await page.getByLabel('Mobile number').fill(owner.phone);
      await page.getByRole('button', { name: 'Text me a code' }).click();
      await expect(page.getByRole('status')).toContainText('a code is on its way');
      if (size.width === 390) {
        // On the phone run only: a wrong password with the right code is refused, and spends the code; a new one is sent.
        await page.getByLabel('Code from the text message').fill(await codeSentTo(owner.phone));
        await page.getByLabel(/^Password/).fill('not-the-password-1');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(page.getByRole('alert')).toContainText('not right');
        await page.getByRole('button', { name: 'Send a new code' }).click();
        await expect(page.getByRole('status')).toContainText('a code is on its way');
      }
      await page.getByLabel('Code from the text message').fill(await codeSentTo(owner.phone));
      await page.getByLabel(/^Password/).fill(OWNER_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/manage$/);
      const board = await page.reload();
      expectPrivate(board);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Orders');
      await expect(page.getByText(`${owner.name}`)).toBeVisible();
      await expectAccessible(page);

      // A shopper's order shows on the open board within 5 s, without a reload.
      let loads = 0;
      page.on('load', () => loads++);
      const { session, product, order } = await shopperOrder(request);
      const row = page.locator(`[data-order="${order.id}"]`);
      await expect(row).toBeVisible({ timeout: 5_000 });
      expect(loads).toBe(0);
      await expect(page.locator('[data-board-news]')).toHaveText(/new order/);
      await expect(row).toContainText('Awaiting UPI payment');
      await expect(row).toContainText('Placed');
      await shot(page, 'board', size.width);

      // The order's page: the shopper to call, the address on a map, the lines.
      await row.getByRole('link', { name: `Order ${order.id}` }).click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`Order ${order.id}`);
      await expect(page.getByRole('link', { name: /^Call \d{10}$/ }).first()).toHaveAttribute('href', /^tel:\d{10}$/);
      await expect(page.getByRole('link', { name: /Open in Google Maps/ })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=12%2C%204th%20Cross/);
      await expect(page.locator('.order-lines')).toContainText(product.name);
      await expectAccessible(page);
      await shot(page, 'order', size.width);

      // The slot's pick list, as printed, has the product with its quantity.
      await page.getByRole('link', { name: 'Pick list of this slot' }).click();
      expectPrivate(await page.reload());
      await page.emulateMedia({ media: 'print' });
      const pick = page.getByRole('row').filter({ hasText: product.name });
      await expect(pick).toBeVisible();
      await expect(pick.locator('.qty')).toHaveText('2 ×');
      await expect(page.locator('.manage-top')).toBeHidden();
      await shot(page, 'pick-list', size.width);
      await page.emulateMedia({ media: 'screen' });

      // The packing slip.
      await page.goto(`/manage/orders/${order.id}/slip`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Kirana · order ${order.id}`);
      await expect(page.getByRole('row').filter({ hasText: product.name })).toBeVisible();

      // The shopper watches their own order page meanwhile.
      const shopperContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const shopper = await shopperContext.newPage();
      await useSession(shopper, session);
      await shopper.goto(`/orderdetails?id=${order.id}`);
      const shopperStatus = shopper.getByTestId('order-status');
      await expect(shopperStatus).toHaveText('Placed');

      await page.goto(`/manage/orders/${order.id}`);
      await page.getByRole('button', { name: 'Mark paid' }).click();
      await expect(page.getByRole('status')).toHaveText(`Payment confirmed for order ${order.id}.`);
      await expect(page.getByRole('button', { name: 'Mark paid' })).toHaveCount(0);
      for (const [button, label] of [['Mark packed', 'Packed'], ['Mark out for delivery', 'Out for delivery'], ['Mark delivered', 'Delivered']] as const) {
        await page.getByRole('button', { name: button }).click();
        await expect(page.getByRole('status')).toHaveText(`Order ${order.id} is now ${label.toLowerCase()}. The shopper has been told.`);
        await expect(page.getByRole('heading', { level: 1 })).toContainText(label);
        await expect(shopperStatus).toHaveText(label, { timeout: 12_000 });
      }
      await expect(page.getByRole('button', { name: /^Mark / })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
      await shopperContext.close();

      // Signing out ends the session: /manage goes back to the sign-in.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('status')).toHaveText('You are signed out.');
      await page.goto('/manage');
      await expect(page).toHaveURL(/\/manage\/sign-in\?next=%2Fmanage$/);
    });
  });
}

test('the sign-in shows the API’s limit on texts, with when to try again', async ({ page }) => {
  const nobody = `7${String(Date.now()).slice(-9)}`;
  await page.goto('/manage/sign-in');
  const origin = new URL(page.url()).origin;
  // Ask for codes for one number until the API's limit answers (a handful an hour per number from one network).
  let status = 0;
  for (let i = 0; i < 12 && status !== 429; i++) {
    const res = await page.request.post('/manage/sign-in', { form: { step: 'request', phone: nobody }, headers: { origin }, maxRedirects: 0 });
    status = res.status();
    expect([303, 429]).toContain(status);
  }
  expect(status).toBe(429);
  await page.getByLabel('Mobile number').fill(nobody);
  const answer = page.waitForResponse((res) => res.url().includes('/manage/sign-in') && res.request().method() === 'POST');
  await page.getByRole('button', { name: 'Text me a code' }).click();
  expect((await answer).status()).toBe(429);
  expect((await answer).headers()['retry-after']).toMatch(/^\d+$/);
  await expect(page.getByRole('alert')).toContainText(/\d+ seconds|minutes|later/i);
  await expect(page.getByLabel('Mobile number')).toHaveValue(nobody);
});
