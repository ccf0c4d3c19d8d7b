// Where we deliver, checkout polish and the forgotten password without JavaScript (issue 25), on a phone (390×844)
// against the built server: a PIN outside the area is told so plainly, one inside shows "Deliver to …" in the header
// of every page; a new address starts with the account's name and mobile, keeps its type and instructions, and a
// line past its limit is counted, never cut; the password forms post and answer without JavaScript.
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { e2eServerFile } from '../../scripts/lib/e2e-server-file.ts';
import { allProducts } from './helpers.ts';
import { bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

const SHOTS = '/tmp/h1-shots';
test.use({ viewport: { width: 390, height: 844 } });
test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

test('a PIN outside the area is told plainly; one inside shows "Deliver to …" in the header of every page', async ({ page }) => {
  await page.goto('/');
  const header = page.locator('[data-deliver-to]');
  await expect(header).toHaveText('Set delivery PIN');
  await header.click();
  await expect(page).toHaveURL(/\/deliver-to$/);

  await page.getByRole('textbox', { name: 'PIN code' }).fill('110024');
  await page.getByRole('button', { name: 'Check' }).click();
  const answer = page.getByTestId('pin-answer');
  await expect(answer.getByRole('heading')).toHaveText("We don't deliver to 110024 yet.");
  await expect(header).toHaveText("We don't deliver to 110024 yet.");
  await page.screenshot({ path: path.join(SHOTS, 'deliver-to-outside.png') });

  await page.getByRole('textbox', { name: 'PIN code' }).fill('560034');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(answer.getByRole('heading')).toHaveText('We deliver to 560034');
  await expect(answer).toContainText('Next delivery slot:');
  await expect(header).toHaveText(/^Deliver to 560034( · next slot (today|tomorrow|\w{3}) .+ [ap]m)?$/);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'deliver-to-inside.png') });

  // Another page, cached for everyone: the PIN comes from this browser.
  await page.goto('/');
  await expect(header).toHaveText(/^Deliver to 560034/);
  await page.screenshot({ path: path.join(SHOTS, 'home-deliver-to-header.png') });
});

test('without JavaScript, /deliver-to answers its GET form', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto('/');
    await page.locator('[data-deliver-to]').click();
    await page.getByRole('textbox', { name: 'PIN code' }).fill('110017');
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(page).toHaveURL(/\/deliver-to\?pincode=110017$/);
    await expect(page.getByTestId('pin-answer')).toContainText("We don't deliver to 110017 yet.");
    await page.goto('/deliver-to?pincode=560001');
    await expect(page.getByTestId('pin-answer')).toContainText('We deliver to 560001');
    const bad = await page.goto('/deliver-to?pincode=12');
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText('A PIN code is 6 digits and does not start with 0, like 560034.');
  } finally {
    await context.close();
  }
});

async function cartWithOneProduct(request: APIRequestContext, token: string) {
  const plain = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock).at(-2)!;
  const res = await request.post('/api/app/Carts', {
    headers: bearer(token),
    data: { productsId: plain.id, productVariantsId: 0, productVariantPriceId: 0, packing: 'packaging', qty: 1 },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test('checkout: name and mobile pre-filled, a long line counted not cut, type and instructions kept to the order', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await cartWithOneProduct(request, session.token);
  await useSession(page, session);
  await page.evaluate(() => localStorage.setItem('deliveryPin', JSON.stringify({ pincode: '560034', served: true, nextSlot: null, timeZone: 'Asia/Kolkata', checkedAt: Date.now() })));
  await page.goto('/checkout');

  const form = page.getByTestId('address-form');
  await expect(form.getByLabel('Full name')).toHaveValue(session.user.name);
  await expect(form.getByLabel('Mobile number')).toHaveValue(session.user.phone);
  await expect(form.getByLabel('Pincode')).toHaveValue('560034');

  // 193 characters: all kept in the field, the counter says how many too many, and saving is refused at the field.
  const line1 = form.getByLabel('Flat, house no., building');
  const long = `Flat 4B, ${'Sri Lakshmi Residency '.repeat(9)}`.slice(0, 193);
  await line1.fill(long);
  await expect(line1).toHaveValue(long);
  await expect(form.getByTestId('count-line1')).toHaveText('73 characters too many (193 / 120)');
  await form.getByLabel('Town or city').fill('Bengaluru');
  await form.getByLabel('State').selectOption('Karnataka');
  await form.getByRole('radio', { name: 'Work' }).check();
  await form.getByLabel('Delivery instructions (optional)').fill('Leave with the guard at gate 2');
  await expect(form.getByTestId('count-instructions')).toHaveText('30 / 200');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  await expect(form.getByText('Address line 1 must be at most 120 characters.')).toBeVisible();
  await expect(line1).toBeFocused();
  await page.screenshot({ path: path.join(SHOTS, 'checkout-counter.png'), fullPage: true });

  await line1.fill('Flat 4B, Sri Lakshmi Residency, 5th Main');
  await expect(form.getByTestId('count-line1')).toHaveText('40 / 120');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  const chosen = page.getByRole('radio', { name: new RegExp(session.user.name) });
  await expect(chosen).toBeChecked();
  const choice = page.getByTestId('address-choice');
  await expect(choice).toContainText('Work');
  await expect(choice).toContainText('Instructions: Leave with the guard at gate 2');
  await page.screenshot({ path: path.join(SHOTS, 'checkout-address-picker.png'), fullPage: true });

  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
  await page.getByRole('radio', { name: /Cash on delivery/ }).check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const orderId = new URL(page.url()).searchParams.get('id');
  await page.goto(`/orderdetails?id=${orderId}`);
  await expect(page.getByTestId('order-address')).toContainText('(Work)');
  await expect(page.getByTestId('order-instructions')).toHaveText('Delivery instructions: Leave with the guard at gate 2');
});

/** The newest mail in the shop's outbox to this address. */
function newestMailTo(email: string): string | undefined {
  const { dataDir } = JSON.parse(fs.readFileSync(e2eServerFile(process.env.E2E_PORT ?? '4399'), 'utf8')) as { dataDir: string };
  const folder = path.join(dataDir, 'outbox');
  if (!fs.existsSync(folder)) return undefined;
  const texts = fs
    .readdirSync(folder)
    .sort()
    .map((file) => fs.readFileSync(path.join(folder, file), 'utf8'))
    .filter((text) => text.includes(email));
  return texts.at(-1);
}

test('a forgotten password without JavaScript: the mail is sent, the same words are said, and a reset says so once', async ({ browser, baseURL, request }) => {
  const { shopper } = await registerByApi(request);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto('/forgotpassword');
    await expect(page.getByText('Signing in needs JavaScript')).toHaveCount(0);
    await page.getByLabel('Email').fill(shopper.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page).toHaveURL(/\/forgotpassword\/send$/);
    await expect(page.getByTestId('forgot-sent')).toHaveText(
      `If an account uses ${shopper.email}, we have sent it a link to choose a new password. The link works for 30 minutes.`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'forgot-password-nojs.png') });

    let mail: string | undefined;
    await expect.poll(() => (mail = newestMailTo(shopper.email)), { message: 'a reset mail in the outbox' }).toBeTruthy();
    const link = /(https?:\/\/\S+\/reset-password\?token=[^\s]+)/.exec(mail!)?.[1];
    expect(link).toBeTruthy();
    // The link opens the running shop (http://HOST:PORT without SITE_URL), not http://localhost (issue 33).
    expect(new URL(link!).origin).toBe(new URL(baseURL!).origin);
    const { pathname, search } = new URL(link!);

    await page.goto(link!);
    await page.getByLabel('New password').fill('a-fresh-tamarind-9');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByTestId('reset-done')).toHaveText('Your password has been changed. Please sign in with it.');
    await expect(page.getByText('Your password has been changed')).toHaveCount(1);
    await expect(page.getByLabel('New password')).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, 'reset-password-done-nojs.png') });

    // The link is used up: posting it again says so, with the form to try again from a new link.
    await page.goto(`${pathname}${search}`);
    await page.getByLabel('New password').fill('another-fresh-pass-7');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByRole('alert').first()).toContainText('This link has expired or was already used');
  } finally {
    await context.close();
  }
  const signIn = await request.post('/api/Authenticate/Login', { data: { login: shopper.email, password: 'a-fresh-tamarind-9' } });
  expect(signIn.status()).toBe(200);
});

test('a forgotten password with JavaScript: the same confirmation; a reset says so once and the form goes away', async ({ page, request }) => {
  const { shopper } = await registerByApi(request);
  await page.goto('/forgotpassword');
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status').filter({ hasText: `If an account uses ${shopper.email}` })).toBeVisible();
  let mail: string | undefined;
  await expect.poll(() => (mail = newestMailTo(shopper.email))).toBeTruthy();
  const { pathname, search } = new URL(/(https?:\/\/\S+\/reset-password\?token=[^\s]+)/.exec(mail!)![1]!);
  await page.goto(`${pathname}${search}`);
  await page.getByLabel('New password').fill('a-fresh-tamarind-8');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByText('Your password has been changed. Please sign in with it.')).toBeVisible();
  await expect(page.getByText('Your password has been changed')).toHaveCount(1);
  await expect(page.getByLabel('New password')).toHaveCount(0);
  await expect(page).toHaveURL(/\/reset-password$/);
});
