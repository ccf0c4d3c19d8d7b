// Trust at checkout in the browser (issue 22), against the built server and its real outbox of text messages: a new
// shopper registers, verifies the code, and checks out; an owner whose password sign-in is locked by someone guessing
// signs in with a code; a new number on My Account is the shopper's only once its code comes back. (The checkout's
// verify step is for accounts from before numbers were verified, which this shop cannot make: tests/api/order-limits.)
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import { allProducts, type ApiProduct } from './helpers.ts';
import { bearer } from './orders-setup.ts';
import { codeSentTo, newShopper, registerByApi, sendRegistration, useSession } from './session.ts';

async function plainProduct(request: APIRequestContext): Promise<ApiProduct> {
  const product = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock);
  if (!product) throw new Error('the seed has no plain product in stock');
  return product;
}

async function addAddressAndSlot(page: Page) {
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill('Meera Iyer');
  await form.getByLabel('Mobile number').fill('98450 12345');
  await form.getByLabel('Pincode').fill('560038');
  await form.getByLabel('Flat, house no., building').fill('12, 3rd Cross, Indiranagar');
  await form.getByLabel('Town or city').fill('Bengaluru');
  await form.getByLabel('State').selectOption('Karnataka');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  await expect(page.getByRole('radio', { name: /Meera Iyer/ })).toBeChecked();
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();
}

test('a new shopper registers, gets the code from the outbox, verifies, and checks out', async ({ page, request }) => {
  const product = await plainProduct(request);
  const shopper = newShopper();
  await sendRegistration(page, shopper);
  await expect(page.getByRole('status').filter({ hasText: `+91 ${shopper.phone.slice(0, 2)}•••••${shopper.phone.slice(-3)}` })).toBeVisible();
  // A wrong code is said next to the field, and the form stays.
  const code = await codeSentTo(shopper.phone);
  await page.getByLabel('6-digit code').fill(code === '000000' ? '000001' : '000000');
  await page.getByRole('button', { name: 'Verify and create account' }).click();
  await expect(page.locator('#register-code-code-error')).toHaveText(/That code is not right/);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Verify and create account' }).click();
  await expect(page).toHaveURL(/\/$/);
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { phoneVerified: boolean } | null);
  expect(user?.phoneVerified).toBe(true);

  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  expect((await request.post('/api/app/Carts', { headers: bearer(token), data: { productsId: product.id, qty: 1 } })).status()).toBe(201);
  await page.goto('/checkout');
  await expect(page.getByTestId('phone-verify')).toHaveCount(0);
  await addAddressAndSlot(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
});

test('an owner locked out by wrong passwords signs in with a code texted to their mobile', async ({ page, request }) => {
  const { shopper } = await registerByApi(request);
  for (let i = 0; i < 10; i++) {
    const res = await request.post('/api/Authenticate/Login', { data: { login: shopper.email, password: `wrong-guess-${i}` } });
    expect(res.status()).toBe(401);
  }
  await page.goto('/login');
  await page.getByLabel('Email or mobile number').fill(shopper.email);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('[data-login-form] [data-form-error]')).toHaveText(/Too many sign-in attempts.*Or sign in with a code sent to your mobile number\./);

  const codeRequest = page.locator('form[data-code-request-form]');
  await codeRequest.getByLabel('Mobile number').fill(shopper.phone);
  await codeRequest.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByLabel('6-digit code')).toBeFocused();
  await expect(page.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();
  await page.getByLabel('6-digit code').fill(await codeSentTo(shopper.phone));
  await page.locator('form[data-code-form]').getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('header-cart')).toBeVisible();
});

test('a shopper changes their number on My Account: it is theirs once the code texted to it comes back', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.goto('/myaccount');
  await expect(page.getByLabel('Full name')).toHaveValue(session.user.name);
  const phone = `7${String(Date.now()).slice(-9)}`;
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Your number changes once you enter the code we texted to it.')).toBeVisible();
  await expect(page.getByLabel('6-digit code')).toBeFocused();
  // Until then the account keeps its verified number.
  const before = await request.get('/api/app/Users/Me', { headers: bearer(session.token) });
  expect(((await before.json()) as SessionDto['user']).phone).toBe(session.user.phone);
  await page.getByLabel('6-digit code').fill(await codeSentTo(phone));
  await page.getByRole('button', { name: 'Verify new number' }).click();
  await expect(page.getByText('Your new number is verified and saved.')).toBeVisible();
  const after = (await (await request.get('/api/app/Users/Me', { headers: bearer(session.token) })).json()) as SessionDto['user'];
  expect(after).toMatchObject({ phone, phoneVerified: true });
});
