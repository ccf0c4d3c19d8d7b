// FSSAI's veg / non-veg mark and the product page's 'Product details' (issue 24), in Chromium against the built shop:
// the mark with its name for screen readers on cards, the product page, a cart line and the checkout's summary; each
// Legal Metrology fact, the one of the chosen pack size, and 'Not given by the seller' where the seller gave none.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { allProducts, rupees, type ApiProduct } from './helpers.ts';
import { registerByApi, useSession } from './session.ts';

const card = (page: Page, id: number) => page.locator(`[data-testid="product-card"][data-product-id="${id}"]`);
const fact = (page: Page, key: string) => page.getByTestId('product-details').locator(`[data-fact="${key}"] dd`);

let products: ApiProduct[];
test.beforeAll(async ({ request }) => {
  products = await allProducts(request);
});

/** A plain vegetarian product on the shelf whose seller gave every fact. */
const vegWithFacts = () =>
  products.find((p) => p.type === 'normal' && p.inStock && p.foodType === 'veg' && p.mrpPaise > 0 && p.netQuantity && p.fssaiLicence)!;

test('cards carry the mark beside the name, named for screen readers: veg in vegetables, non-veg among meat', async ({ page }) => {
  const veg = vegWithFacts();
  expect(veg, 'the seed has a plain veg product with all its facts').toBeTruthy();
  await page.goto(`/shop?type=category&id=${veg.categoryId}`);
  const vegCard = card(page, veg.id);
  await expect(vegCard.getByRole('heading', { name: `Vegetarian ${veg.name}` })).toBeVisible();
  await expect(vegCard.getByRole('img', { name: 'Vegetarian', exact: true })).toBeVisible();
  // The heading's text is still the name alone (the mark is named by its label, not by text).
  await expect(vegCard.getByRole('heading')).toHaveText(veg.name);

  const meat = products.find((p) => p.categoryId === 'meat-fish')!;
  await page.goto(`/shop?type=category&id=meat-fish`);
  await expect(card(page, meat.id).getByRole('img', { name: 'Non-vegetarian', exact: true })).toBeVisible();
  await expect(page.getByTestId('product-card').getByRole('img', { name: 'Vegetarian', exact: true })).toHaveCount(0);

  // The complaint: the first product on the home page is chicken keema, and nothing said so.
  const keema = products.find((p) => p.hot && /keema/i.test(p.name))!;
  await page.goto('/');
  await expect(card(page, keema.id).first().getByRole('img', { name: 'Non-vegetarian', exact: true })).toBeVisible();

  const cleaner = products.find((p) => p.categoryId === 'household-cleaning')!;
  await page.goto(`/shop?type=category&id=household-cleaning`);
  await expect(card(page, cleaner.id)).toBeVisible();
  await expect(card(page, cleaner.id).locator('.food-mark')).toHaveCount(0);
});

test('a product suggestion carries its mark, a brand none', async ({ page }) => {
  await page.goto('/');
  const input = page.locator('#site-search');
  await input.click();
  await input.pressSequentially('keema');
  const options = page.locator('#site-search-listbox').getByRole('option');
  await expect(options.filter({ hasText: 'Keema' }).first().getByRole('img', { name: 'Non-vegetarian', exact: true })).toBeVisible();
  await input.fill('');
  await input.pressSequentially('tandoor');
  const brand = options.filter({ hasText: 'Brand' }).first();
  await expect(brand).toBeVisible();
  await expect(brand.getByRole('img')).toHaveCount(0);
});

test("the product page: the mark by the name, and 'Product details' with every fact, customer care and the seller", async ({ page }) => {
  const veg = vegWithFacts();
  await page.goto(`/product-detail?id=${veg.id}`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(veg.name);
  await expect(heading.getByRole('img', { name: 'Vegetarian', exact: true })).toBeVisible();

  const details = page.getByRole('region', { name: 'Product details' });
  await expect(details.locator('dt')).toHaveText([
    'Net quantity',
    'MRP (incl. of all taxes)',
    'Country of origin',
    'Manufacturer / packer',
    'Best before / shelf life',
    'FSSAI licence no.',
    'Customer care',
    'Seller',
  ]);
  await expect(fact(page, 'net-quantity')).toHaveText(veg.netQuantity!);
  await expect(fact(page, 'mrp')).toHaveText(rupees(veg.mrpPaise));
  await expect(fact(page, 'country-of-origin')).toHaveText(veg.countryOfOrigin!);
  await expect(fact(page, 'manufacturer')).toHaveText(veg.manufacturer!);
  await expect(fact(page, 'shelf-life')).toHaveText(veg.shelfLife!);
  await expect(fact(page, 'fssai-licence')).toHaveText(veg.fssaiLicence!);
  await expect(fact(page, 'customer-care').getByRole('link', { name: '+91 80 4000 1234' })).toHaveAttribute('href', 'tel:+918040001234');
  await expect(fact(page, 'customer-care').getByRole('link', { name: 'support@kirana.example' })).toHaveAttribute('href', 'mailto:support@kirana.example');
  await expect(fact(page, 'seller')).toContainText('Kirana Retail Private Limited');
  await expect(fact(page, 'seller')).toContainText('Bengaluru 560011, Karnataka');
  await expect(details.getByText('Not given by the seller')).toHaveCount(0);

  const accessibility = await new AxeBuilder({ page }).include('[data-testid="product-details"]').include('h1').analyze();
  expect(accessibility.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test("the net quantity and MRP follow the pack size chosen; what the seller did not give says so", async ({ page }) => {
  const packs = products.find(
    (p) => p.type !== 'normal' && p.inStock && p.productVariants.filter((v) => v.productVariantPrice && v.inStock).length >= 2,
  )!;
  const [first, second] = packs.productVariants.filter((v) => v.productVariantPrice && v.inStock);
  await page.goto(`/product-detail?id=${packs.id}`);
  await expect(fact(page, 'net-quantity')).toHaveText(first!.name);
  await page.getByTestId('product-detail').getByTestId('variant-select').selectOption(String(second!.id));
  await expect(fact(page, 'net-quantity')).toHaveText(second!.name);
  const mrp = second!.productVariantPrice!.mrpPaise;
  await expect(fact(page, 'mrp')).toHaveText(mrp > 0 ? rupees(mrp) : 'Not given by the seller');

  // Not food: no mark, and no FSSAI licence to show.
  const cleaner = products.find((p) => p.foodType === null && p.fssaiLicence === null)!;
  await page.goto(`/product-detail?id=${cleaner.id}`);
  await expect(page.getByRole('heading', { level: 1 }).locator('.food-mark')).toHaveCount(0);
  await expect(fact(page, 'fssai-licence')).toHaveText('Not given by the seller');
  // A plain product whose pack names no quantity (the demo's '1 pack' of cotton wicks) says that too.
  const noQuantity = products.find((p) => p.type === 'normal' && p.netQuantity === null);
  expect(noQuantity, 'the seed has a plain product without a net quantity').toBeTruthy();
  await page.goto(`/product-detail?id=${noQuantity!.id}`);
  await expect(fact(page, 'net-quantity')).toHaveText('Not given by the seller');
  await expect(fact(page, 'country-of-origin')).toHaveText(noQuantity!.countryOfOrigin!);
});

test('a cart line and the checkout summary carry the mark', async ({ page, request }) => {
  const veg = vegWithFacts();
  const meat = products.find((p) => p.categoryId === 'meat-fish' && p.type === 'normal' && p.inStock)!;
  expect(meat, 'the seed has a plain meat product on the shelf').toBeTruthy();
  const { session } = await registerByApi(request);
  for (const product of [veg, meat]) {
    const added = await request.post('/api/app/Carts', {
      headers: { authorization: `Bearer ${session.token}` },
      data: { productsId: product.id, productVariantsId: 0, qty: 1 },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  await useSession(page, session);
  await page.goto('/cart');
  const vegLine = page.getByTestId('cart-line').filter({ has: page.getByRole('link', { name: veg.name, exact: true }) });
  await expect(vegLine.getByRole('img', { name: 'Vegetarian', exact: true })).toBeVisible();
  const meatLine = page.getByTestId('cart-line').filter({ has: page.getByRole('link', { name: meat.name, exact: true }) });
  await expect(meatLine.getByRole('img', { name: 'Non-vegetarian', exact: true })).toBeVisible();
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-summary').getByRole('img', { name: 'Vegetarian', exact: true })).toBeVisible();
});
