// The back office's Today and Stock pages (issue 34) for staff on a phone (390×844), photographed at a desk too: a
// product sold out and a shopper waiting for it ('Notify me when back') show on Today under what needs a hand, and on
// Stock's one list; staff follow it to its shelf page, put 12 back, and it leaves both lists. axe on both pages; every
// answer private.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { allProducts, type ApiProduct } from './helpers.ts';
import { expectAccessible } from './orders-setup.ts';
import { registerByApi } from './session.ts';
import { grocerHeaders } from './grocer.ts';
import { addMember, expectPrivate, shots, signInToManage } from './manage-setup.ts';

test.use({ viewport: { width: 390, height: 844 } });

test('staff see a sold-out product a shopper waits for, restock it from its shelf page, and it leaves the list', async ({ page, request }) => {
  const product = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock).at(-2)!;
  const before = (await (await request.get(`/api/grocer/Products/${product.id}`, { headers: grocerHeaders() })).json()) as { stock: number };
  try {
    await soldOutAndRestocked(page, request, product);
  } finally {
    // Whatever happened, the product goes back on the shelf as it was, for the specs after this one.
    await request.put(`/api/grocer/Products/${product.id}/Stock`, { headers: grocerHeaders(), data: { stock: before.stock } });
  }
});

async function soldOutAndRestocked(page: Page, request: APIRequestContext, product: ApiProduct) {
  const sold = await request.put(`/api/grocer/Products/${product.id}/Stock`, { headers: grocerHeaders(), data: { stock: 0 } });
  expect(sold.status(), await sold.text()).toBe(200);
  const { session } = await registerByApi(request);
  const waiting = await request.post('/api/app/StockAlerts', { headers: { authorization: `Bearer ${session.token}` }, data: { productsId: product.id, productVariantsId: 0 } });
  expect(waiting.status(), await waiting.text()).toBe(201);

  await signInToManage(page, await addMember(request, 'staff'));
  // Today at a glance says so, and leads there.
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Today' }).click();
  expectPrivate(await page.reload());
  await expect(page.locator('[data-glance="sales"]')).toContainText('sales today');
  await expect(page.locator('[data-state]')).toHaveCount(5);
  await expect(page.locator('[data-need="waiting"]')).toContainText(/shoppers? waits? for a restock/);
  await expectAccessible(page);
  await shots(page, 'today');
  await page.locator('[data-need="low"]').getByRole('link').click();
  await expect(page).toHaveURL(/\/manage\/stock$/);
  const opened = await page.reload();
  expectPrivate(opened);
  const waitingRow = page.locator(`[data-waiting="${product.id}"]`);
  await expect(waitingRow).toContainText('1 waiting');
  await expect(waitingRow).toContainText('out of stock');
  await expect(page.locator(`[data-low="${product.id}"]`)).toContainText('out of stock');
  await expectAccessible(page);
  await shots(page, 'stock');

  // A made-up line is refused by the API, and the page says so.
  const refused = await page.goto('/manage/stock?atMost=plenty');
  expect(refused?.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText('atMost must be a whole number');

  await page.goto('/manage/stock');
  await page.locator(`[data-low="${product.id}"]`).getByRole('link', { name: product.name }).click();
  await expect(page).toHaveURL(new RegExp(`/manage/shelf/${product.id}$`));
  await page.getByLabel('Stock (packs)').fill('12');
  await page.getByRole('button', { name: 'Save stock' }).click();
  await expect(page.getByRole('status')).toBeVisible();

  await page.goto('/manage/stock');
  await expect(page.locator(`[data-low="${product.id}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-waiting="${product.id}"]`)).toHaveCount(0);
}
