import { expect, test } from '@playwright/test';

const pages = [
  ['/about', true],
  ['/privacy-policy', true],
  ['/terms', true],
  ['/cancellation-policy', true],
  ['/refund-policy', true],
  ['/contact', false],
] as const;

for (const [path] of pages) {
  test(`${path} renders its title, last-updated date and body`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    const article = page.getByTestId('content-page');
    await expect(article.getByRole('heading', { level: 1 })).not.toBeEmpty();
    await expect(page.getByTestId('last-updated')).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
    await expect(page.getByTestId('last-updated')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
    expect((await article.innerText()).length).toBeGreaterThan(400);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${path}$`));
  });
}

test('long policy pages have a table of contents whose links reach their sections', async ({ page }) => {
  await page.goto('/privacy-policy');
  const toc = page.getByTestId('toc');
  const links = toc.getByRole('link');
  expect(await links.count()).toBeGreaterThan(2);
  const href = (await links.nth(1).getAttribute('href'))!;
  await expect(page.locator(href)).toHaveCount(1);
});

test('the promises come from the settings file, in the footer and on the contact page', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByTestId('offer-strip')).toContainText('5% off on all products');
  await expect(page.getByTestId('offer-strip')).toContainText('Up to 15% off your first order');
  await expect(page.getByTestId('footer-promises')).toContainText('Easy returns within 30 days');
  await expect(page.getByTestId('footer-promises')).toContainText('₹500');
  const details = page.getByTestId('contact-details');
  await expect(details).toContainText('8:00–18:00');
  await expect(details).toContainText('24/7');
  await expect(details.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(details.getByRole('link', { name: /^\+?\d/ })).toHaveAttribute('href', /^tel:\+?\d+$/);
});

test('the contact form sends a message and thanks the shopper', async ({ page }) => {
  await page.goto('/contact');
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/ContactMessages'));
  await page.getByLabel('Name').fill('Suresh Kumar');
  await page.getByLabel('Email').fill('suresh@example.in');
  await page.getByLabel('Message').fill('Do you deliver to Whitefield on Sundays?');
  await page.getByRole('button', { name: 'Send message' }).click();
  expect((await sent).status()).toBe(201);
  await expect(page.getByText('Thank you! We have your message')).toBeVisible();
  await expect(page.getByLabel('Message')).toHaveValue('');
});

test('the contact form explains a mistake and keeps what was typed', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Suresh Kumar');
  await page.getByLabel('Email').fill('suresh-at-example');
  await page.getByLabel('Message').fill('Do you deliver on Sundays?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('alert')).toContainText('email address');
  await expect(page.getByLabel('Message')).toHaveValue('Do you deliver on Sundays?');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the contact form posts, and a bad message comes back with its text kept', async ({ page }) => {
    await page.goto('/contact');
    await page.getByLabel('Name').fill('Meena');
    await page.getByLabel('Email').fill('meena@example.in');
    await page.getByLabel('Message').fill('Too short');
    const [bad] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Send message' }).click()]);
    expect(bad.status()).toBe(400);
    await expect(page.getByRole('alert')).toContainText('message must be at least 10 characters');
    await expect(page.getByLabel('Email')).toHaveValue('meena@example.in');
    await page.getByLabel('Message').fill('Please call me about a bulk order for a wedding.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  });
});
