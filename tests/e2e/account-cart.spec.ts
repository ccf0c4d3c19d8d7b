// Accounts and the cart in the browser (issue 10), against the built server and the real API on a fresh
// database: register, sign in, add from cards and a product page, the cart page, sign out, protected pages.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { allProducts, type ApiProduct } from './helpers.ts';
import { codeSentTo, newShopper, PASSWORD, registerByApi, sendRegistration, useSession } from './session.ts';

/** A plain in-stock product and one with at least two priced pack sizes, from the seeded catalogue. */
async function pickProducts(request: APIRequestContext): Promise<{ plain: ApiProduct; packs: ApiProduct }> {
  const products = await allProducts(request);
  const plain = products.find((p) => p.type === 'normal' && p.inStock);
  const packs = products.find((p) => p.type !== 'normal' && p.inStock && p.productVariants.filter((v) => v.productVariantPrice).length >= 2);
  if (!plain || !packs) throw new Error('the seed has no plain or no multi-pack product in stock');
  return { plain, packs };
}

const badge = (page: Page) => page.getByTestId('cart-count');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** 'Add to cart' names its product for screen readers (a visually hidden ': {name}'). */
const addButtonName = (name: string) => new RegExp(`^Add to cart\\s*:\\s*${escape(name)}$`);
const card = (page: Page, id: number) => page.locator(`[data-testid="product-card"][data-product-id="${id}"]`);

async function signIn(page: Page, login: string, password = PASSWORD) {
  await page.getByLabel('Email or mobile number').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function addFromCard(page: Page, product: ApiProduct) {
  const button = card(page, product.id).getByRole('button', { name: addButtonName(product.name) }).first();
  await button.click();
  await expect(page.locator('.Toastify').getByText(`${product.name} added to cart!`).first()).toBeVisible();
}

test('register, sign out, sign in; add a plain product and a pack size from cards and a product page; the cart; sign out', async ({ page, request }) => {
  const { plain, packs } = await pickProducts(request);
  const shopper = newShopper();

  // Register: the code texted to the mobile number opens the account and signs in, back home.
  await sendRegistration(page, shopper);
  await expect(page.getByRole('status').filter({ hasText: 'We have sent a 6-digit code' })).toBeVisible();
  await expect(page.getByLabel('6-digit code')).toBeFocused();
  await page.getByLabel('6-digit code').fill(await codeSentTo(shopper.phone));
  await page.getByRole('button', { name: 'Verify and create account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('header-cart')).toBeVisible();
  await expect(page.locator('header').getByRole('link', { name: 'Sign in' })).toBeHidden();

  await signOut(page);
  expect(await page.evaluate(() => ['token', 'refreshToken', 'userid', 'user'].map((k) => localStorage.getItem(k)))).toEqual([null, null, null, null]);
  await signIn(page, shopper.email);
  await expect(page).toHaveURL(/\/$/);

  // A plain product from its card: toast, the card's counter and the badge.
  await page.goto(`/search?name=${encodeURIComponent(plain.name.toLowerCase())}`);
  await addFromCard(page, plain);
  // Its stepper takes Add to cart's place (issue 24).
  await expect(card(page, plain.id).getByTestId('in-cart-qty').first()).toHaveText('1');
  await expect(badge(page)).toHaveText('1');

  // The second pack size from its card.
  const secondPack = packs.productVariants.filter((v) => v.productVariantPrice)[1]!;
  await page.goto(`/search?name=${encodeURIComponent(packs.name.toLowerCase())}`);
  await card(page, packs.id).getByTestId('variant-select').first().selectOption(String(secondPack.id));
  await addFromCard(page, packs);
  await expect(badge(page)).toHaveText('2');

  // The plain product again, from its product page.
  await page.goto(`/product-detail?id=${plain.id}`);
  await expect(badge(page)).toHaveText('2'); // loaded on start (SPEC §4)
  // In the cart already: its page shows the stepper, whose + adds one.
  await page.getByTestId('product-detail').getByRole('button', { name: `Add one ${plain.name}` }).first().click();
  await expect(page.getByTestId('product-detail').getByTestId('in-cart-qty').first()).toHaveText('2');
  await expect(badge(page)).toHaveText('3');

  // The cart: two lines, quantities, remove with undo.
  await page.getByTestId('header-cart').click();
  await expect(page).toHaveURL(/\/cart$/);
  const lines = page.getByTestId('cart-line');
  await expect(lines).toHaveCount(2);
  const plainLine = lines.filter({ has: page.getByRole('link', { name: plain.name, exact: true }) });
  const packLine = lines.filter({ hasText: `Pack size: ${secondPack.name}` });
  await expect(plainLine.getByTestId('cart-qty')).toHaveText('2');
  await expect(packLine.getByTestId('cart-qty')).toHaveText('1');
  await packLine.getByRole('button', { name: `One more ${packs.name}` }).click();
  await expect(packLine.getByTestId('cart-qty')).toHaveText('2');
  await expect(badge(page)).toHaveText('4');
  await plainLine.getByRole('button', { name: `One less ${plain.name}` }).click();
  await expect(plainLine.getByTestId('cart-qty')).toHaveText('1');
  await expect(badge(page)).toHaveText('3');

  const totalBefore = await page.getByTestId('summary-total').textContent();
  await plainLine.getByRole('button', { name: `Remove ${plain.name}` }).click();
  await expect(lines).toHaveCount(1);
  await expect(badge(page)).toHaveText('2');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(lines).toHaveCount(2);
  await expect(page.getByTestId('summary-total')).toHaveText(totalBefore ?? '');
  await expect(badge(page)).toHaveText('3');

  // Empty it: the empty state offers a way back to shopping.
  for (const name of [plain.name, packs.name]) await page.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(page.getByTestId('cart-empty')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start shopping' })).toBeVisible();
  await expect(badge(page)).toBeHidden();

  await signOut(page);
  await expect(page.locator('header').getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('a protected page while signed out lands on /login and returns after sign-in', async ({ page, request }) => {
  const { shopper } = await registerByApi(request);
  await page.goto('/previous-order');
  await expect(page).toHaveURL(/\/login\?next=%2Fprevious-order$/);
  // Nothing personal was ever in the page: it is the same for everyone and may be cached.
  await signIn(page, shopper.phone);
  await expect(page).toHaveURL(/\/previous-order$/);
  await expect(page.getByRole('heading', { name: 'Order Tracking' })).toBeVisible();
});

test('Add to cart while signed out goes to sign in and comes back to the product', async ({ page, request }) => {
  const { plain } = await pickProducts(request);
  const { shopper } = await registerByApi(request);
  await page.goto(`/product-detail?id=${plain.id}`);
  await page.getByTestId('product-detail').getByRole('button', { name: addButtonName(plain.name) }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fproduct-detail%3Fid%3D${plain.id}$`));
  await signIn(page, shopper.email);
  await expect(page).toHaveURL(new RegExp(`/product-detail\\?id=${plain.id}$`));
});

test('a wrong password keeps what was typed and says so next to the form', async ({ page, request }) => {
  const { shopper } = await registerByApi(request);
  await page.goto('/login');
  await signIn(page, shopper.email, 'not-the-password');
  await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Email or mobile number')).toHaveValue(shopper.email);
  // A malformed mobile number is caught before sending, next to its field.
  await page.goto('/register');
  await page.getByLabel('Mobile number').fill('12345');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Full name')).toBeFocused();
  await page.getByLabel('Full name').fill('Asha');
  await page.getByLabel('Email').fill('asha@example.in');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Mobile number')).toBeFocused();
  await expect(page.locator('#register-phone-error')).toContainText('10-digit');
  await expect(page.getByLabel('Mobile number')).toHaveValue('12345');
});

test('a second tab sees the sign-out', async ({ context, request }) => {
  const { session } = await registerByApi(request);
  const first = await context.newPage();
  await useSession(first, session);
  const second = await context.newPage();
  await second.goto('/myaccount');
  await expect(second.getByTestId('account-email')).toHaveText(session.user.email);
  await first.goto('/');
  await signOut(first);
  await expect(second).toHaveURL(/\/login\?next=%2Fmyaccount$/);
});

test('My Account: the name and mobile number are saved', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.goto('/myaccount');
  const name = page.getByLabel('Full name');
  await expect(name).toHaveValue(session.user.name);
  await name.fill('Asha Rao');
  await page.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByText('Your details are saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Full name')).toHaveValue('Asha Rao');
});

test.describe('axe finds no violations', () => {
  for (const path of ['/login', '/register', '/forgotpassword', '/reset-password?token=x']) {
    test(path, async ({ page }) => {
      await page.goto(path);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }
  test('on the signed-in pages and the open account menu', async ({ page, request }) => {
    const { session } = await registerByApi(request);
    await useSession(page, session);
    for (const path of ['/cart', '/myaccount', '/checkout']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      if (path === '/cart') await expect(page.getByTestId('cart-empty')).toBeVisible();
      if (path === '/checkout') await page.getByRole('button', { name: 'Account' }).click();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
});

test('a password typed before the scripts run is posted, never put in the URL', async ({ browser, baseURL }) => {
  // Without JavaScript is the moment before the page's module binds the form: Enter submits it natively.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  try {
    await page.goto('/myaccount');
    await page.getByLabel('Current password').fill('old-secret-pass-1');
    await page.getByLabel('New password').fill('new-secret-pass-2');
    const [request] = await Promise.all([page.waitForRequest((r) => r.isNavigationRequest()), page.getByLabel('New password').press('Enter')]);
    expect(request.method()).toBe('POST');
    expect(request.url()).not.toContain('secret');
    expect((await request.response())!.status()).toBeLessThan(500);
    for (const path of ['/login', '/register', '/forgotpassword', '/reset-password?token=x', '/myaccount']) {
      await page.goto(path);
      const methods = await page.locator('main form').evaluateAll((forms) => forms.map((f) => (f as HTMLFormElement).method));
      expect(methods.length, path).toBeGreaterThan(0);
      expect(methods.every((m) => m === 'post'), path).toBe(true);
    }
  } finally {
    await context.close();
  }
});
