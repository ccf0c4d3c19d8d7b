// After delivery (issue 25) in the browser at 390×844: a delivered order (moved along by the grocer's route, as
// `npm run orders -- advance` does), the shopper reports a damaged item with a photo and a note (its counter counting),
// the grocer settles it with a refund through the grocer's route (as `npm run orders -- settle N --refund`), and after
// a reload the line reads "Refund of ₹… settled on …". The invoice page shows the shop's GSTIN and the order's totals.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { GrocerIssueListDto } from '../../src/server/after-delivery-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { allProducts } from './helpers.ts';
import { addAddressByApi, addToCartByApi, expectAccessible, placedOrder } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import { grocerToken } from './grocer.ts';

const SCREENSHOTS = '/tmp/h5-shots';
const store = readStoreSettings();

const grocer = () => ({ Authorization: `Grocer ${grocerToken()}` });

/** A delivered order of two plain products, of a new shopper (signed in on the page). */
async function deliveredOrder(request: APIRequestContext) {
  const plain = (await allProducts(request)).filter((p) => p.type === 'normal' && p.inStock).slice(0, 2);
  const { session } = await registerByApi(request);
  for (const product of plain) await addToCartByApi(request, session.token, product, 1);
  const order = await placedOrder(request, session.token, await addAddressByApi(request, session.token));
  for (let step = 0; step < 3; step++) {
    // A JSON body: a write with none is taken for another site's form.
    const res = await request.post(`/api/grocer/Orders/${order.id}/Advance`, { headers: grocer(), data: {} });
    expect(res.status(), await res.text()).toBe(200);
  }
  return { session, order: order as OrderDto };
}

test.use({ viewport: { width: 390, height: 844 } });

test('a damaged item reported with a photo, settled with a refund by the grocer, read by the shopper after a reload', async ({ page, request }, testInfo) => {
  const { session, order } = await deliveredOrder(request);
  await useSession(page, session);
  await page.goto(`/orderdetails?id=${order.id}`);
  await expect(page.getByTestId('order-status')).toHaveText('Delivered');
  const line = page.getByTestId('order-line').first();
  await line.getByText('Report an issue').click();
  await line.getByRole('radio', { name: 'Damaged' }).check();
  await line.getByLabel('Note (optional)').fill('The packet was torn open');
  await expect(line.getByTestId('issue-note-count')).toHaveText('24 of 500 characters');
  const photo = testInfo.outputPath('torn.jpg');
  await sharp({ create: { width: 160, height: 120, channels: 3, background: '#b33' } }).jpeg().toFile(photo);
  await line.getByLabel(/^Photo/).setInputFiles(photo);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'issue-form-390.png'), fullPage: true });
  await line.getByRole('button', { name: 'Send the report' }).click();

  const report = line.getByTestId('line-issue');
  await expect(report).toContainText('Damaged reported on');
  await expect(report).toContainText('The packet was torn open');
  await expect(line.getByTestId('line-issue-outcome')).toHaveText('Reported: the shop will get back to you');
  const shown = report.getByRole('img', { name: /Your photo/ });
  await expect(shown).toBeVisible();
  // The photo is the shopper's alone (issue 32): the page fetches it with their token and shows it from memory; its
  // URL answers nobody without the token.
  expect(await shown.getAttribute('src')).toMatch(/^blob:/);
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 160)).toBe(true);
  await report.getByRole('button', { name: /Your photo/ }).click();
  const large = report.getByTestId('line-issue-photo-large');
  await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  const reported = (await (await request.get(`/api/app/Orders/${order.id}`, { headers: { authorization: `Bearer ${session.token}` } })).json()) as OrderDto;
  const photoUrl = reported.lines[0]!.issue!.photoUrl!;
  expect(photoUrl).toMatch(/^\/api\/app\/IssuePhotos\/\d+$/);
  expect((await request.get(photoUrl)).status()).toBe(401);
  expect((await request.get(photoUrl, { headers: { authorization: `Bearer ${session.token}` } })).status()).toBe(200);
  await expectAccessible(page);

  // The grocer sees it open and settles it with a refund, as `npm run orders -- issues` and `-- settle N --refund` do.
  const list = (await (await request.get('/api/grocer/Issues', { headers: grocer() })).json()) as GrocerIssueListDto;
  const issue = list.issues.find((i) => i.orderId === order.id)!;
  expect(issue).toMatchObject({ kind: 'damaged', outcome: 'open', photoUrl: photoUrl.replace('/app/', '/grocer/') });
  expect((await request.get(issue.photoUrl!, { headers: grocer() })).status()).toBe(200);
  const settled = await request.post(`/api/grocer/Issues/${issue.id}/Settle`, { headers: grocer(), data: { outcome: 'refunded', note: 'Refunded to your UPI' } });
  expect(settled.status(), await settled.text()).toBe(200);

  await page.reload();
  const refunded = page.getByTestId('order-line').first().getByTestId('line-issue-outcome');
  const total = order.lines[0]!.lineTotalPaise;
  const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 }).format(total / 100);
  await expect(refunded).toHaveText(new RegExp(`^Refund of ${rupees.replace(/[.₹]/g, '\\$&')} settled on \\d{1,2} [A-Z][a-z]{2} — Refunded to your UPI$`));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'issue-refunded-390.png'), fullPage: true });
});

test('the invoice of a delivered order: GSTIN, lines and the order’s totals; printable', async ({ page, request }) => {
  const { session, order } = await deliveredOrder(request);
  await useSession(page, session);
  await page.goto(`/orderdetails?id=${order.id}`);
  await page.getByTestId('invoice-link').click();
  await page.waitForURL(new RegExp(`/invoice\\?id=${order.id}$`));
  const invoice = page.getByTestId('invoice');
  await expect(invoice.getByTestId('invoice-gstin')).toHaveText(`GSTIN: ${store.invoice.gstin}`);
  await expect(invoice).toContainText(store.invoice.legalName);
  await expect(invoice.getByRole('row')).toHaveCount(order.lines.length + 1);
  const money = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: paise % 100 === 0 ? 0 : 2 }).format(paise / 100);
  await expect(invoice.getByTestId('invoice-total')).toHaveText(money(order.summary.totalPaise));
  const rate = store.invoice.gstPercent;
  await expect(invoice.getByTestId('invoice-tax')).toHaveText(money(Math.round((order.summary.totalPaise * rate) / (100 + rate))));
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'invoice-390.png'), fullPage: true });
  // On paper: the invoice alone, without the shop's header, footer or the Print button.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.site-header')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(invoice.getByTestId('invoice-gstin')).toBeVisible();
});
