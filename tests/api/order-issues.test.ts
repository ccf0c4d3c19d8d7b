// After delivery (issue 25) over HTTP: a shopper reports an issue with a line of a delivered order (each refusal, the
// photo stored and served, the return window judged at a fixed clock), the grocer lists and settles it once, the
// shopper reads the outcome on the order, and the invoice's numbers (the GST included, the totals of the order).
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrocerIssueDto, GrocerIssueListDto, InvoiceDto } from '../../src/server/after-delivery-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { orderEvents, products } from '../../src/server/db/schema.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const TOKEN = 'order-issues-test-token-0123456789';
// 07:30 in Kolkata on 23 Nov: today's slots from 10:00 are open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
const store = readStoreSettings();
let api: TestApi;
let spare: number[] = [];
let jpeg: Buffer;

beforeAll(async () => {
  api = await startTestApi({ products: 40, now: () => clock, grocerToken: TOKEN });
  spare = await plainProductIds(api.db);
  jpeg = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#c33' } }).jpeg().toBuffer();
});
afterAll(async () => api?.close());

const grocer = (method: string, route: string, body?: unknown) => api.grocer(method, route, body);

async function product(stock: number) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  await api.db.update(products).set({ stock }).where(eq(products.id, id));
  return id;
}

/** A shopper's order of two products, moved to `delivered` by the grocer's route (unless `deliver` is false). */
async function orderOf({ deliver = true, deliveredAt }: { deliver?: boolean; deliveredAt?: Date } = {}) {
  const s = await api.register();
  const addressId = await saveHomeAddress(api.db, s.user.id);
  for (const [id, qty] of [[await product(10), 2], [await product(10), 1]] as const) {
    expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: id, productVariantsId: 0, qty } })).status).toBe(201);
  }
  const res = await api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `issues-test-${s.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const order = (await res.json()) as OrderDto;
  if (deliver) {
    for (let step = 0; step < 3; step++) expect((await grocer('POST', `Orders/${order.id}/Advance`)).status).toBe(200);
  }
  if (deliveredAt) {
    await api.db.update(orderEvents).set({ at: deliveredAt }).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.status, 'delivered')));
  }
  return { shopper: s, order };
}

const report = (token: string, orderId: number, body: unknown) => api.call('POST', `/api/app/Orders/${orderId}/Issues`, { token, body });

async function uploadPhoto(token: string, bytes: Uint8Array<ArrayBuffer>, type = 'image/jpeg') {
  return fetch(`${api.baseUrl}/api/app/IssuePhotos`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: bytes });
}

describe('a shopper reports an issue', () => {
  it('with a photo: stored, served by /api/images, and on the line of the order with its outcome open', async () => {
    const { shopper, order } = await orderOf();
    const seen = (await (await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen.status).toBe('delivered');
    expect(seen.lines.every((l) => l.issue === null)).toBe(true);
    const delivered = seen.timeline.at(-1)!.at;
    expect(seen.returnsUntil).toBe(new Date(new Date(delivered).getTime() + store.offers.returnDays * 86_400_000).toISOString());

    const upload = await uploadPhoto(shopper.token, new Uint8Array(jpeg));
    expect(upload.status, await upload.clone().text()).toBe(201);
    const { photoUrl } = (await upload.json()) as { photoUrl: string };
    expect(photoUrl).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.jpg$/);
    const served = await api.get(photoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await served.arrayBuffer()).equals(jpeg)).toBe(true);

    const line = seen.lines[0]!;
    const res = await report(shopper.token, order.id, { orderLineId: line.orderLineId, kind: 'damaged', note: '  The packet was torn  ', photoUrl });
    expect(res.status, await res.clone().text()).toBe(201);
    const after = (await res.json()) as OrderDto;
    expect(after.lines[0]!.issue).toMatchObject({ kind: 'damaged', note: 'The packet was torn', photoUrl, outcome: 'open', refundPaise: null, settledAt: null });
    expect(after.lines[1]!.issue).toBeNull();
  });

  it('refuses an order not delivered yet, with a 409 that says so', async () => {
    const { shopper, order } = await orderOf({ deliver: false });
    const res = await report(shopper.token, order.id, { orderLineId: order.lines[0]!.orderLineId, kind: 'missing' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'conflict', message: 'You can report an issue once the order is delivered.' });
  });

  it('refuses once the return window has closed, naming the day, at a fixed clock', async () => {
    // Delivered on 1 Oct; 30 days later is 31 Oct, before the clock's 23 Nov.
    const { shopper, order } = await orderOf({ deliveredAt: new Date('2026-10-01T06:00:00Z') });
    const res = await report(shopper.token, order.id, { orderLineId: order.lines[0]!.orderLineId, kind: 'quality' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'conflict', message: 'Returns closed on 31 Oct' });
    // A day inside the window: delivered on 30 Oct, open until 29 Nov.
    const { shopper: other, order: recent } = await orderOf({ deliveredAt: new Date('2026-10-30T06:00:00Z') });
    expect((await report(other.token, recent.id, { orderLineId: recent.lines[0]!.orderLineId, kind: 'quality' })).status).toBe(201);
  });

  it('refuses a line already reported, and a line of another order', async () => {
    const { shopper, order } = await orderOf();
    const lineId = order.lines[1]!.orderLineId;
    expect((await report(shopper.token, order.id, { orderLineId: lineId, kind: 'missing' })).status).toBe(201);
    const again = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(`You already reported an issue with ${order.lines[1]!.name}.`);
    const { order: other } = await orderOf();
    const wrongLine = await report(shopper.token, order.id, { orderLineId: other.lines[0]!.orderLineId, kind: 'missing' });
    expect(wrongLine.status).toBe(404);
  });

  it("answers another shopper's order with a 404, as every order call does", async () => {
    const { order } = await orderOf();
    const stranger = await api.register();
    const res = await report(stranger.token, order.id, { orderLineId: order.lines[0]!.orderLineId, kind: 'missing' });
    expect(res.status).toBe(404);
    expect((await api.call('GET', `/api/app/Invoices/${order.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('refuses a bad photo: not a picture, an SVG, empty, too large, or a URL never uploaded', async () => {
    const { shopper, order } = await orderOf();
    const text = await uploadPhoto(shopper.token, new TextEncoder().encode('not a picture at all'));
    expect(text.status).toBe(400);
    expect(await errorOf(text)).toEqual({ code: 'bad_request', message: 'The photo must be a JPEG, PNG or WebP picture.' });
    const svg = await uploadPhoto(shopper.token, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(svg.status).toBe(400);
    expect((await uploadPhoto(shopper.token, new Uint8Array(0))).status).toBe(400);
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set([0xff, 0xd8, 0xff]);
    const tooLarge = await uploadPhoto(shopper.token, huge);
    expect(tooLarge.status).toBe(413);
    expect((await errorOf(tooLarge)).message).toBe('The request body must be at most 10 MB');
    expect((await fetch(`${api.baseUrl}/api/app/IssuePhotos`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(jpeg) })).status).toBe(401);

    const lineId = order.lines[0]!.orderLineId;
    const unknown = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoUrl: `/api/images/files/${'a'.repeat(64)}.jpg` });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toBe('That photo was not uploaded: send it to /api/app/IssuePhotos first.');
    const foreign = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoUrl: 'https://example.com/x.jpg' });
    expect(foreign.status).toBe(400);
    const badKind = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'late' });
    expect(badKind.status).toBe(400);
    const longNote = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', note: 'x'.repeat(501) });
    expect(longNote.status).toBe(400);
    expect((await errorOf(longNote)).message).toBe('note must be at most 500 characters');
  });
});

describe('the grocer settles an issue', () => {
  it('with a refund of the line’s total: listed open first, settled once, and the shopper reads the outcome', async () => {
    const { shopper, order } = await orderOf();
    const line = order.lines[0]!;
    expect((await report(shopper.token, order.id, { orderLineId: line.orderLineId, kind: 'damaged', note: 'Torn' })).status).toBe(201);

    const list = (await (await grocer('GET', 'Issues')).json()) as GrocerIssueListDto;
    const mine = list.issues.find((i) => i.orderId === order.id)!;
    expect(mine).toMatchObject({ orderLineId: line.orderLineId, kind: 'damaged', note: 'Torn', outcome: 'open', customerName: 'Meera Iyer', lineTotalPaise: line.lineTotalPaise });
    const firstSettled = list.issues.findIndex((i) => i.outcome !== 'open');
    expect(firstSettled === -1 || list.issues.slice(firstSettled).every((i) => i.outcome !== 'open')).toBe(true);

    const res = await grocer('POST', `Issues/${mine.id}/Settle`, { outcome: 'refunded', note: 'Refunded to your UPI' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()) as GrocerIssueDto).toMatchObject({ outcome: 'refunded', refundPaise: line.lineTotalPaise, settleNote: 'Refunded to your UPI' });

    const twice = await grocer('POST', `Issues/${mine.id}/Settle`, { outcome: 'replaced' });
    expect(twice.status).toBe(409);
    expect(await errorOf(twice)).toEqual({ code: 'conflict', message: `Issue ${mine.id} is already settled (refunded).` });

    const seen = (await (await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen.lines[0]!.issue).toMatchObject({ outcome: 'refunded', refundPaise: line.lineTotalPaise, settleNote: 'Refunded to your UPI' });
    expect(seen.lines[0]!.issue!.settledAt).not.toBeNull();
    const after = (await (await grocer('GET', 'Issues')).json()) as GrocerIssueListDto;
    expect(after.issues.find((i) => i.id === mine.id)!.outcome).toBe('refunded');
  });

  it('with a replacement; a missing issue is a 404 and a bad outcome a 400', async () => {
    const { shopper, order } = await orderOf();
    const res = await report(shopper.token, order.id, { orderLineId: order.lines[1]!.orderLineId, kind: 'wrong_item' });
    const issueId = ((await res.json()) as OrderDto).lines[1]!.issue!.id;
    const settled = await grocer('POST', `Issues/${issueId}/Settle`, { outcome: 'replaced' });
    expect(settled.status).toBe(200);
    expect((await settled.json()) as GrocerIssueDto).toMatchObject({ outcome: 'replaced', refundPaise: null, settleNote: null });
    expect((await grocer('POST', 'Issues/999999/Settle', { outcome: 'replaced' })).status).toBe(404);
    expect((await grocer('POST', `Issues/${issueId}/Settle`, { outcome: 'open' })).status).toBe(400);
    expect((await api.call('GET', '/api/grocer/Issues')).status).toBe(401);
  });
});

describe('the invoice', () => {
  it('has the seller’s GSTIN, the order’s lines and totals, and the GST the prices include, in paise', async () => {
    const { shopper, order } = await orderOf();
    const res = await api.call('GET', `/api/app/Invoices/${order.id}`, { token: shopper.token });
    expect(res.status, await res.clone().text()).toBe(200);
    const invoice = (await res.json()) as InvoiceDto;
    const rate = store.invoice.gstPercent;
    expect(invoice.seller).toMatchObject({ legalName: store.invoice.legalName, gstin: store.invoice.gstin });
    expect(invoice.number).toBe(`INV-${String(order.id).padStart(6, '0')}`);
    expect(invoice.customer.name).toBe('Meera Iyer');
    expect(invoice.lines.map((l) => [l.name, l.qty, l.unitPricePaise, l.totalPaise])).toEqual(
      order.lines.map((l) => [l.name, l.qty, l.unitPricePaise, l.lineTotalPaise]),
    );
    for (const l of invoice.lines) expect(l.taxPaise).toBe(Math.round((l.totalPaise * rate) / (100 + rate)));
    expect(invoice.subtotalPaise).toBe(order.summary.subtotalPaise);
    expect(invoice.deliveryPaise).toBe(order.summary.deliveryPaise);
    expect(invoice.totalPaise).toBe(order.summary.totalPaise);
    expect(invoice.subtotalPaise - invoice.discounts.reduce((n, d) => n + d.amountPaise, 0) + invoice.deliveryPaise).toBe(invoice.totalPaise);
    expect(invoice.taxPaise).toBe(Math.round((order.summary.totalPaise * rate) / (100 + rate)));
    expect(invoice.taxableValuePaise + invoice.taxPaise).toBe(invoice.totalPaise);
  });

  it('at 5%, ₹105.00 includes ₹5.00 of GST', async () => {
    const { includedTaxPaise } = await import('../../src/server/services/invoice.ts');
    expect(includedTaxPaise(10_500, 5)).toBe(500);
    expect(includedTaxPaise(7_600, 5)).toBe(362); // 76 × 5 / 105 = 3.619…
    expect(includedTaxPaise(10_000, 0)).toBe(0);
  });

  it('is refused until the order is delivered', async () => {
    const { shopper, order } = await orderOf({ deliver: false });
    const res = await api.call('GET', `/api/app/Invoices/${order.id}`, { token: shopper.token });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe('The invoice is ready once the order is delivered.');
  });
});
