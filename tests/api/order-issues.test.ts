// After delivery (issue 25) over HTTP: a shopper reports an issue with a line of a delivered order (each refusal, the
// photo stored and served, the return window judged at a fixed clock), the grocer lists and settles it once, the
// shopper reads the outcome on the order, and the invoice's numbers (the GST included, the totals of the order).
import { and, eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrocerIssueDto, GrocerIssueListDto, InvoiceDto, IssuePhotoDto } from '../../src/server/after-delivery-schemas.ts';
import {
  ISSUE_PHOTO_BYTES_PER_ACCOUNT,
  ISSUE_PHOTOS_PER_DAY,
  PHOTO_NOT_YOURS,
  PHOTO_TOO_MANY_PIXELS,
  PHOTOS_KEPT_TEXT,
  photosPerDayText,
  startIssuePhotoSweep,
  sweepIssuePhotos,
  UNREFERENCED_PHOTO_MS,
} from '../../src/server/services/issue-photos.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { imageFiles, issuePhotos, orderEvents, products } from '../../src/server/db/schema.ts';
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
  api = await startTestApi({ products: 60, now: () => clock, grocerToken: TOKEN });
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
  it('with a photo: kept, served to its shopper, and on the line of the order with its outcome open', async () => {
    const { shopper, order } = await orderOf();
    const seen = (await (await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen.status).toBe('delivered');
    expect(seen.lines.every((l) => l.issue === null)).toBe(true);
    const delivered = seen.timeline.at(-1)!.at;
    expect(seen.returnsUntil).toBe(new Date(new Date(delivered).getTime() + store.offers.returnDays * 86_400_000).toISOString());

    const upload = await uploadPhoto(shopper.token, new Uint8Array(jpeg));
    expect(upload.status, await upload.clone().text()).toBe(201);
    const { photoId, photoUrl } = (await upload.json()) as IssuePhotoDto;
    expect(photoUrl).toBe(`/api/app/IssuePhotos/${photoId}`);
    const served = await api.call('GET', photoUrl, { token: shopper.token });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(120);

    const line = seen.lines[0]!;
    const res = await report(shopper.token, order.id, { orderLineId: line.orderLineId, kind: 'damaged', note: '  The packet was torn  ', photoId });
    expect(res.status, await res.clone().text()).toBe(201);
    const after = (await res.json()) as OrderDto;
    expect(after.lines[0]!.issue).toMatchObject({
      kind: 'damaged',
      note: 'The packet was torn',
      photoUrl,
      thumbnailUrl: `${photoUrl}/Thumbnail`,
      outcome: 'open',
      refundPaise: null,
      settledAt: null,
    });
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

  it('refuses a bad photo: not a picture, an SVG, empty, too large, or an id never uploaded', async () => {
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
    const unknown = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoId: 2_000_000 });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toBe(PHOTO_NOT_YOURS);
    const notAnId = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoId: 'https://example.com/x.jpg' });
    expect(notAnId.status).toBe(400);
    expect((await errorOf(notAnId)).message).toBe('photoId must be the photoId POST /api/app/IssuePhotos answered');
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

// Issue 32: a patient attacker's findings about the shoppers' photos, each held here.
describe('shoppers’ photos are theirs (issue 32)', () => {
  /** A phone's photo: 2400×1800, turned by its EXIF orientation, with the camera's make and where it was taken. */
  const phonePhoto = () =>
    sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#a52' } })
      .withExif({ IFD0: { Make: 'KiranaPhone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 17/1', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 40/1' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
  const EXIF_HEADER = Buffer.from('Exif\0\0');

  async function uploaded(token: string, bytes?: Buffer) {
    const res = await uploadPhoto(token, new Uint8Array(bytes ?? jpeg));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as IssuePhotoDto;
  }

  it('keeps no EXIF or GPS: what is served is a JPEG re-made upright, at most 1600 px, thumbnail too', async () => {
    const sent = await phonePhoto();
    const sentMeta = await sharp(sent).metadata();
    expect(sentMeta.exif?.includes('KiranaPhone')).toBe(true);
    expect(sentMeta.orientation).toBe(6);
    const shopper = await api.register();
    const { photoUrl } = await uploaded(shopper.token, sent);

    for (const url of [photoUrl, `${photoUrl}/Thumbnail`]) {
      const served = Buffer.from(await (await api.call('GET', url, { token: shopper.token })).arrayBuffer());
      const meta = await sharp(served).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(served.includes(EXIF_HEADER)).toBe(false);
      expect(served.includes('KiranaPhone')).toBe(false);
      if (url === photoUrl) {
        // Orientation 6 is a quarter turn: upright, the photo is taller than wide.
        expect([meta.width, meta.height]).toEqual([1200, 1600]);
        expect(meta.orientation).toBeUndefined();
      } else expect([meta.width, meta.height]).toEqual([160, 160]);
    }
  });

  it('keeps what is made, not what is sent: a 7 MB upload is a few hundred KB in the database', async () => {
    // Noise is the worst case for JPEG: nothing smaller could be made from it.
    const noise = Buffer.alloc(3000 * 2400 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const sent = await sharp(noise, { raw: { width: 3000, height: 2400, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
    expect(sent.length).toBeGreaterThan(5 * 1024 * 1024);
    const shopper = await api.register();
    const { photoId } = await uploaded(shopper.token, sent);
    const [row] = await api.db
      .select({ byteSize: issuePhotos.byteSize, kept: sql<number>`octet_length(${issuePhotos.bytes}) + octet_length(${issuePhotos.thumbnail})` })
      .from(issuePhotos)
      .where(eq(issuePhotos.id, photoId));
    expect(Number(row!.kept)).toBe(row!.byteSize);
    expect(row!.byteSize).toBeLessThan(600 * 1024);
  });

  it('refuses a photo of more than 50 megapixels before decoding it (a small PNG can hold a huge one)', async () => {
    const shopper = await api.register();
    const wide = await sharp({ create: { width: 10_000, height: 5_001, channels: 3, background: '#fff' } }).png({ compressionLevel: 1 }).toBuffer();
    const res = await uploadPhoto(shopper.token, new Uint8Array(wide), 'image/png');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message: PHOTO_TOO_MANY_PIXELS });
  });

  it('serves a photo to its shopper and the grocer only: 404 to another shopper, 401 without a token, never cached', async () => {
    const owner = await api.register();
    const stranger = await api.register();
    const publicPictures = () => api.db.select({ n: sql<number>`count(*)::int` }).from(imageFiles);
    const [before] = await publicPictures();
    const { photoId, photoUrl } = await uploaded(owner.token);
    // Nothing added where every picture is public (/api/images/files).
    expect(await publicPictures()).toEqual([before]);
    for (const url of [photoUrl, `${photoUrl}/Thumbnail`]) {
      const own = await api.call('GET', url, { token: owner.token });
      expect(own.status).toBe(200);
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      // Another shopper's photo and no photo at all answer alike: the id confirms nothing.
      const theirs = await api.call('GET', url, { token: stranger.token });
      expect(theirs.status).toBe(404);
      expect(theirs.headers.get('cache-control')).toBe('private, no-store');
      const none = await api.call('GET', url.replace(`/${photoId}`, '/2000000'), { token: stranger.token });
      expect(none.status).toBe(404);
      expect((await errorOf(theirs)).code).toBe((await errorOf(none)).code);
      expect((await api.get(url)).status).toBe(401);
      // The grocer's token is not a shopper's.
      expect((await api.call('GET', url, { headers: { authorization: `Grocer ${TOKEN}` } })).status).toBe(401);
    }

    for (const url of [`IssuePhotos/${photoId}`, `IssuePhotos/${photoId}/Thumbnail`]) {
      const grocers = await grocer('GET', url);
      expect(grocers.status).toBe(200);
      expect(grocers.headers.get('content-type')).toBe('image/jpeg');
      expect(grocers.headers.get('cache-control')).toContain('no-store');
      expect((await api.call('GET', `/api/grocer/${url}`, { headers: { authorization: 'Grocer not-the-token-0123456789' } })).status).toBe(401);
    }
    expect((await grocer('GET', 'IssuePhotos/2000000')).status).toBe(404);
  });

  it('a report names only its shopper’s own photo: another account’s is 400, and the grocer’s list links the grocer’s URL', async () => {
    const { shopper, order } = await orderOf();
    const other = await api.register();
    const { photoId: othersPhoto } = await uploaded(other.token);
    const lineId = order.lines[0]!.orderLineId;
    const res = await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoId: othersPhoto });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message: PHOTO_NOT_YOURS });
    expect((await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token }).then((r) => r.json()) as OrderDto).lines[0]!.issue).toBeNull();

    const { photoId } = await uploaded(shopper.token);
    expect((await report(shopper.token, order.id, { orderLineId: lineId, kind: 'damaged', photoId })).status).toBe(201);
    const list = (await (await grocer('GET', 'Issues')).json()) as GrocerIssueListDto;
    expect(list.issues.find((i) => i.orderId === order.id)).toMatchObject({
      photoUrl: `/api/grocer/IssuePhotos/${photoId}`,
      thumbnailUrl: `/api/grocer/IssuePhotos/${photoId}/Thumbnail`,
    });
  });

  it(`takes ${ISSUE_PHOTOS_PER_DAY} photos a day per account (then 429 with Retry-After), and ${ISSUE_PHOTO_BYTES_PER_ACCOUNT / 1024 / 1024} MB kept (then 413)`, async () => {
    const shopper = await api.register();
    const hoursAgo = (h: number) => new Date(clock.getTime() - h * 3_600_000);
    const small = new Uint8Array([0xff, 0xd8, 0xff]);
    // A day's photos, the first 20 hours ago: the next one may come in 4 hours.
    await api.db.insert(issuePhotos).values(
      Array.from({ length: ISSUE_PHOTOS_PER_DAY }, (_, n) => ({ userId: shopper.user.id, bytes: small, byteSize: 3, createdAt: hoursAgo(20 - n * 0.5) })),
    );
    const res = await uploadPhoto(shopper.token, new Uint8Array(jpeg));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(4 * 3600));
    expect(await errorOf(res)).toEqual({ code: 'too_many_requests', message: photosPerDayText(4 * 3600) });

    // A day later the count starts again, but what is kept still counts.
    const later = await api.register();
    await api.db.insert(issuePhotos).values({ userId: later.user.id, bytes: small, byteSize: ISSUE_PHOTO_BYTES_PER_ACCOUNT - 100, createdAt: hoursAgo(48) });
    const full = await uploadPhoto(later.token, new Uint8Array(jpeg));
    expect(full.status).toBe(413);
    expect(await errorOf(full)).toEqual({ code: 'payload_too_large', message: PHOTOS_KEPT_TEXT });
    expect((await api.db.select().from(issuePhotos).where(eq(issuePhotos.userId, later.user.id))).length).toBe(1);
  });

  it('the sweep deletes an upload no report names a day after it, with its bytes, and keeps the reported and the fresh', async () => {
    const { shopper, order } = await orderOf();
    const { photoId: reported } = await uploaded(shopper.token);
    const { photoId: forgotten } = await uploaded(shopper.token);
    const { photoId: fresh } = await uploaded(shopper.token);
    expect((await report(shopper.token, order.id, { orderLineId: order.lines[0]!.orderLineId, kind: 'damaged', photoId: reported })).status).toBe(201);
    const dayAgo = new Date(clock.getTime() - UNREFERENCED_PHOTO_MS - 60_000);
    await api.db.update(issuePhotos).set({ createdAt: dayAgo }).where(inArray(issuePhotos.id, [reported, forgotten]));
    await api.db.update(issuePhotos).set({ createdAt: new Date(clock.getTime() - UNREFERENCED_PHOTO_MS + 60_000) }).where(eq(issuePhotos.id, fresh));

    const swept = await sweepIssuePhotos(api.db, clock);
    expect(swept.deleted).toBeGreaterThanOrEqual(1);
    const left = (await api.db.select({ id: issuePhotos.id }).from(issuePhotos).where(eq(issuePhotos.userId, shopper.user.id))).map((r) => r.id);
    expect(left.sort((a, b) => a - b)).toEqual([reported, fresh]);
    expect((await api.call('GET', `/api/app/IssuePhotos/${forgotten}`, { token: shopper.token })).status).toBe(404);
    expect((await api.call('GET', `/api/app/IssuePhotos/${reported}`, { token: shopper.token })).status).toBe(200);
  });

  it('the sweep re-makes a photo moved as it was sent (migration 0016) without its metadata; until then it is not served', async () => {
    const shopper = await api.register();
    const sent = await phonePhoto();
    const [moved] = await api.db
      .insert(issuePhotos)
      .values({ userId: shopper.user.id, bytes: sent, byteSize: sent.length, stripped: false, createdAt: clock })
      .returning({ id: issuePhotos.id });
    const url = `/api/app/IssuePhotos/${moved!.id}`;
    expect((await api.call('GET', url, { token: shopper.token })).status).toBe(404);

    const stop = startIssuePhotoSweep({ db: api.db, logError: (error) => { throw error; } }, { intervalMs: 3_600_000, now: () => clock });
    await stop();
    const served = await api.call('GET', url, { token: shopper.token });
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes(EXIF_HEADER)).toBe(false);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect((await api.call('GET', `${url}/Thumbnail`, { token: shopper.token })).status).toBe(200);
  });
});
