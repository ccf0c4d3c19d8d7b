// Checkout in the browser (issue 11), against the built server and the real API on a fresh database: a shopper
// with a cart sees the discount lines, adds an address (meeting the pincode check), picks a slot, chooses UPI,
// double-clicks Place order and gets exactly one order. Out-of-stock products cannot be added anywhere.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { OrderPageDto } from '../../src/server/order-schemas.ts';
import { allProducts, rupees, type ApiProduct } from './helpers.ts';
import { bearer, buyUpStock } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';


async function fillCart(request: APIRequestContext, token: string, product: ApiProduct, qty: number): Promise<CartDto> {
  const res = await request.post('/api/app/Carts', {
    headers: bearer(token),
    data: { productsId: product.id, productVariantsId: 0, productVariantPriceId: 0, packing: 'packaging', qty },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CartDto;
}

test('a shopper adds an address, picks a slot, pays by UPI and double-clicks Place order: one order', async ({ page, request }) => {
  const products = await allProducts(request);
  const plain = products.find((p) => p.type === 'normal' && p.inStock && p.pricePaise >= 10_000);
  if (!plain) throw new Error('the seed has no plain product of ₹100 or more in stock');
  const { session } = await registerByApi(request);
  const cart = await fillCart(request, session.token, plain, 3);
  expect(cart.summary.discounts.length, 'a first order has at least one offer').toBeGreaterThan(0);
  await useSession(page, session);

  // The cart: each discount on its own line, and the server's total.
  await page.goto('/cart');
  const summary = page.getByTestId('cart-summary');
  await expect(summary.getByTestId('discount-label')).toHaveText(cart.summary.discounts.map((d) => d.label));
  await expect(summary.getByTestId('discount-amount')).toHaveText(cart.summary.discounts.map((d) => `−${rupees(d.amountPaise)}`));
  await expect(summary.getByTestId('summary-total')).toHaveText(rupees(cart.summary.totalPaise));
  await summary.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);

  // No address yet: the form is open. A bad pincode is refused next to its field, which takes focus.
  const form = page.getByTestId('address-form');
  await form.getByLabel('Full name').fill('Meera Iyer');
  await form.getByLabel('Mobile number').fill('98450 12345');
  await form.getByLabel('Pincode').fill('056003');
  await form.getByLabel('Flat, house no., building').fill('12, 3rd Cross, Indiranagar');
  await form.getByLabel('Town or city').fill('Bengaluru');
  await form.getByLabel('State').selectOption('Karnataka');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  await expect(form.getByText('Pincode must be 6 digits and cannot start with 0.')).toBeVisible();
  await expect(form.getByLabel('Pincode')).toBeFocused();
  await expect(form.getByLabel('Pincode')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Pincode').fill('560038');
  await form.getByRole('button', { name: 'Save and deliver here' }).click();
  await expect(page.getByRole('radio', { name: /Meera Iyer/ })).toBeChecked();

  // The summary is the server's.
  const checkoutSummary = page.getByTestId('checkout-summary');
  await expect(checkoutSummary.getByTestId('discount-label')).toHaveText(cart.summary.discounts.map((d) => d.label));
  await expect(checkoutSummary.getByTestId('summary-total')).toHaveText(rupees(cart.summary.totalPaise));

  // Place order without a slot: asked for one.
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText('Choose a delivery slot.')).toBeVisible();

  // A slot that can be chosen (the first day with one left is shown first), and UPI.
  const slot = page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first();
  await slot.check();
  await expect(slot).toBeChecked();
  await expect(page.getByTestId('slot-choice').first()).toHaveText(/\d{1,2}:\d{2} [AP]M – \d{1,2}:\d{2} [AP]M/);
  await page.getByRole('radio', { name: /UPI on delivery/ }).check();

  const accessibility = await new AxeBuilder({ page }).include('.checkout').analyze();
  expect(accessibility.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // A double click sends one request; the page moves to the order.
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/app/Orders') posts.push(r.headers()['idempotency-key'] ?? '');
  });
  await page.getByRole('button', { name: 'Place order' }).dblclick();
  await page.waitForURL(/\/OrderComplete\?id=\d+$/);
  const orderId = Number(new URL(page.url()).searchParams.get('id'));
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatch(/^[0-9a-f-]{36}$/);

  // Exactly one order, the one the page opened, paid by UPI; the key is forgotten and the cart is empty.
  const res = await request.get('/api/app/Orders/GetOrdersByUser/0?pageNo=1&pageSize=10', { headers: bearer(session.token) });
  expect(res.status()).toBe(200);
  const orders = (await res.json()) as OrderPageDto;
  expect(orders.total).toBe(1);
  expect(orders.orders.map((o) => o.id)).toEqual([orderId]);
  expect(orders.orders[0]!.totalPaise).toBe(cart.summary.totalPaise);
  const order = await (await request.get(`/api/app/Orders/${orderId}`, { headers: bearer(session.token) })).json();
  expect(order.paymentMethod).toBe('upi');
  expect(await page.evaluate(() => sessionStorage.getItem('kirana-order-key'))).toBeNull();
  const after = (await (await request.get('/api/app/Carts/GetCartsByUser/0', { headers: bearer(session.token) })).json()) as CartDto;
  expect(after.lines).toHaveLength(0);

  // Back to /checkout: nothing to order.
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-empty')).toBeVisible();
});

test('a product that runs out while the shopper checks out: 409 in an alert, the summary says so, no order', async ({ page, request }) => {
  const products = await allProducts(request);
  // Not the product of the first test, whose stock that order changed.
  const plain = products.filter((p) => p.type === 'normal' && p.inStock).at(-1)!;
  const { session } = await registerByApi(request);
  await fillCart(request, session.token, plain, 1);
  const headers = bearer(session.token);
  await request.post('/api/app/Addresses', {
    headers,
    data: { name: 'Meera Iyer', phone: '9845012345', pincode: '560038', line1: '12, 3rd Cross', city: 'Bengaluru', state: 'Karnataka' },
  });
  await useSession(page, session);
  await page.goto('/checkout');
  await page.locator('[data-testid="slot-choice"]:not([data-unavailable]) input').first().check();

  await buyUpStock(request, plain);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByTestId('checkout-alert')).toHaveText(`${plain.name} is out of stock`);
  await expect(page.getByTestId('checkout-alert')).toBeFocused();
  // The summary was fetched again: the line is out of stock and the order cannot be placed until the cart changes.
  await expect(page.getByTestId('checkout-summary').getByText('Out of stock', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Place order' })).toBeDisabled();
  const orders = (await (await request.get('/api/app/Orders/GetOrdersByUser/0', { headers })).json()) as OrderPageDto;
  expect(orders.total).toBe(0);
});

test('the address book on My Account: add, make default, edit, remove', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  await page.goto('/myaccount');
  const book = page.getByTestId('address-book');
  for (const [name, city] of [['Meera Iyer', 'Bengaluru'], ['Ravi Kumar', 'Mysuru']] as const) {
    await book.getByRole('button', { name: 'Add a new address' }).click();
    const form = book.getByTestId('address-form');
    await form.getByLabel('Full name').fill(name);
    await form.getByLabel('Mobile number').fill('9845012345');
    await form.getByLabel('Pincode').fill('560038');
    await form.getByLabel('Flat, house no., building').fill('12, 3rd Cross');
    await form.getByLabel('Town or city').fill(city);
    await form.getByLabel('State').selectOption('Karnataka');
    await form.getByRole('button', { name: 'Save address' }).click();
    await expect(book.getByText('Address added.')).toBeVisible();
  }
  const saved = book.getByTestId('saved-address');
  await expect(saved).toHaveCount(2);
  // The first one is the default.
  await expect(saved.filter({ hasText: 'Meera Iyer' })).toContainText('Default');

  await book.getByRole('button', { name: /^Make\s+the address of Ravi Kumar, .*\s+default$/ }).click();
  await expect(book.getByText('Default address changed.')).toBeVisible();
  await expect(saved.first()).toContainText('Ravi Kumar');
  await expect(saved.first()).toContainText('Default');

  await book.getByRole('button', { name: /Edit the address of Meera Iyer/ }).click();
  await book.getByTestId('address-form').getByLabel('Town or city').fill('Hubballi');
  await book.getByTestId('address-form').getByRole('button', { name: 'Save address' }).click();
  await expect(saved.filter({ hasText: 'Meera Iyer' })).toContainText('Hubballi');

  await book.getByRole('button', { name: /Remove the address of Meera Iyer/ }).click();
  await book.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(book.getByText('Address removed.')).toBeVisible();
  await expect(saved).toHaveCount(1);
});

test("an out-of-stock product says 'Out of stock' on its card and page, with no Add to cart", async ({ page, request }) => {
  const products = await allProducts(request);
  const gone = products.find((p) => !p.inStock);
  if (!gone) throw new Error('the seed has no out-of-stock product');
  await page.goto(`/product-detail?id=${gone.id}`);
  const detail = page.getByTestId('product-detail');
  await expect(detail.getByTestId('out-of-stock')).toHaveText('Out of stock');
  await expect(detail.getByRole('button', { name: /Add to cart/ })).toHaveCount(0);

  await page.goto(`/search?name=${encodeURIComponent(gone.name.toLowerCase())}`);
  const card = page.locator(`[data-testid="product-card"][data-product-id="${gone.id}"]`).first();
  await expect(card.getByTestId('out-of-stock')).toHaveText('Out of stock');
  await expect(card.getByRole('button', { name: /Add to cart/ })).toHaveCount(0);
});

test('a product whose last unit is sold shows Out of stock at once, though its page and listing were cached', async ({ page, request }) => {
  const products = await allProducts(request);
  // Two thirds of the way in: the other specs take theirs from the ends, a third and the middle of the catalogue.
  const candidates = products.filter((p) => p.type === 'normal' && p.inStock);
  const product = candidates[Math.floor((candidates.length * 2) / 3)]!;
  const detailPath = `/product-detail?id=${product.id}`;
  const searchPath = `/search?name=${encodeURIComponent(product.name.toLowerCase())}`;
  for (const path of [detailPath, searchPath]) {
    await request.get(path);
    expect((await request.get(path)).headers()['x-kirana-cache'], `${path} is served from the page cache`).toBe('HIT');
  }

  await buyUpStock(request, product);

  await page.goto(detailPath);
  const detail = page.getByTestId('product-detail');
  await expect(detail.getByTestId('out-of-stock')).toHaveText('Out of stock');
  await expect(detail.getByRole('button', { name: /Add to cart/ })).toHaveCount(0);
  await page.goto(searchPath);
  const card = page.locator(`[data-testid="product-card"][data-product-id="${product.id}"]`).first();
  await expect(card.getByTestId('out-of-stock')).toHaveText('Out of stock');
});
