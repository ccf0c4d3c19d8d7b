// The Content Security Policy breaks nothing: every island, the `client:interaction` directive, the inline
// scripts (header, drawer, forms, footer) and the pages without JavaScript run under it, and Chromium reports
// no violation anywhere on the way (a `securitypolicyviolation` event, or a console error about a policy).
import { expect, test, type Page } from '@playwright/test';
import { allProducts } from './helpers.ts';
import { registerByApi, useSession } from './session.ts';

const SEARCH_LABEL = 'Search products, brands and categories';
let violations: string[];

test.beforeEach(async ({ page }) => {
  violations = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.documentURI}`,
      );
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to|Permissions.Policy/i.test(message.text())) violations.push(message.text());
  });
});

test.afterEach(() => {
  expect(violations).toEqual([]);
});

async function hydrated(page: Page, inside: string) {
  await expect(page.locator(`astro-island:has(${inside})`)).not.toHaveAttribute('ssr', /.*/);
}

test('home: search suggestions, the brand menu and Load More Categories', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('combobox', { name: SEARCH_LABEL }).first();
  await box.click();
  await hydrated(page, '#site-search');
  await box.pressSequentially('tomatoe');
  await expect(page.getByRole('option', { name: /tomato/i }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  // Pointing at the Brands link hydrates the menu island; its button then opens the panel of brands.
  await page.getByRole('link', { name: 'Brands', exact: true }).hover();
  const brands = page.getByRole('button', { name: 'Brands', exact: true });
  await brands.click();
  await expect(brands).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await page.getByTestId('load-more-categories').click();
  await expect(page.getByTestId('category-card')).toHaveCount(30);
});

test('product page: variants, add to cart and a review posted with JavaScript', async ({ page, request }) => {
  const product = (await allProducts(request)).find((p) => p.productVariants.filter((v) => v.productVariantPrice).length > 1)!;
  await page.goto(`/product-detail?id=${product.id}`);
  const detail = page.getByTestId('product-detail');
  const select = detail.getByTestId('variant-select');
  await select.focus();
  await expect(detail.locator('astro-island').first()).not.toHaveAttribute('ssr', /.*/);
  await select.selectOption({ index: 1 });
  await detail.getByRole('button', { name: /Add to cart/ }).click();
  // Signed out, Add to cart leads to sign-in (SPEC §4); the review form is back on the product page.
  await page.waitForLoadState();
  await page.goto(`/product-detail?id=${product.id}#reviews`);
  await page.getByLabel('Comment').fill('Checked under a strict content policy');
  await page.getByLabel('Name').fill('Lata');
  await page.getByRole('radio', { name: '4 stars' }).check();
  await page.getByRole('button', { name: 'Post review' }).click();
  await expect(page.getByText('Thank you! Your review has been posted.')).toBeVisible();
});

test('signed in: add to cart with its toast, the cart page, My Account and the protected pages', async ({ page, request }) => {
  const { session } = await registerByApi(request);
  await useSession(page, session);
  const product = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock)!;
  await page.goto(`/product-detail?id=${product.id}`);
  await page.getByTestId('product-detail').getByRole('button', { name: /Add to cart/ }).click();
  const toast = page.locator('.Toastify').getByText(`${product.name} added to cart!`);
  await expect(toast).toBeVisible();
  // The toast's stylesheet is a file of the build (no injected <style>): it sits fixed at the bottom right.
  await expect(page.locator('.Toastify__toast-container')).toHaveCSS('position', 'fixed');
  await page.goto('/cart');
  await expect(page.getByText(product.name).first()).toBeVisible();
  for (const path of ['/myaccount', '/checkout', '/previous-order', '/orderdetails', '/invoice', '/OrderComplete']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test('listings, search, content pages and the error page', async ({ page }) => {
  await page.goto('/shop?type=hot');
  await expect(page.getByTestId('product-card')).toHaveCount(24);
  await page.getByTestId('load-more').click();
  await expect(page.getByTestId('product-card')).not.toHaveCount(24);
  await page.goto('/search?name=rice');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  for (const path of ['/about', '/brands', '/privacy-policy']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  const missing = await page.goto('/no-such-page');
  expect(missing?.status()).toBe(404);
});

test('contact form sent with JavaScript', async ({ page }) => {
  await page.goto('/contact');
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/ContactMessages'));
  await page.getByLabel('Name').fill('Policy Check');
  await page.getByLabel('Email').fill('policy@example.in');
  await page.getByLabel('Message').fill('Checking the form under a strict content policy.');
  await page.getByRole('button', { name: 'Send message' }).click();
  expect((await sent).status()).toBe(201);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the drawer opens and closes', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await menu.click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('pages and the review form work', async ({ page, request }) => {
    const [product] = await allProducts(request);
    await page.goto(`/product-detail?id=${product!.id}`);
    await expect(page.getByTestId('product-detail')).toBeVisible();
    await page.goto('/shop?type=hot');
    await page.getByTestId('load-more').click();
    await expect(page).toHaveURL(/page=2/);
  });
});
