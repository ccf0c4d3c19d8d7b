// Reviews a shopper can weigh (issue 24) over HTTP: an anonymous review still posts (SPEC §7); a signed-in shopper's
// review is theirs (reviews.user_id), and a certified buyer's once an order holding the product is delivered; the
// list puts certified buyers first, then signed-in shoppers, then anonymous reviews, newest first within each.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productTag } from '../../src/server/cache/stale-after.ts';
import { products, reviews } from '../../src/server/db/schema.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import type { ReviewDto } from '../../src/server/schemas.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const GROCER_TOKEN = 'review-buyers-test-token-0123456789';
// 07:30 in Kolkata: today's slots from 10:00 are open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  // Many reviews from one address here: the limit per address has its own test (review-limit.test.ts).
  api = await startTestApi({ products: 40, now: () => clock, grocerToken: GROCER_TOKEN, reviewLimit: { writes: 1000, windowSeconds: 600 } });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

type Shopper = Awaited<ReturnType<TestApi['register']>>;

/** A plain product of its own for one test, in stock. */
async function freshProduct(): Promise<number> {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  await api.db.update(products).set({ stock: 50 }).where(eq(products.id, id));
  return id;
}

const review = (productsId: number, title: string) => ({ title, description: `${title} liked it.`, stars: 4, productsId });

async function postReview(productsId: number, title: string, token?: string): Promise<ReviewDto> {
  const res = await api.call('POST', '/api/Reviews', { body: review(productsId, title), token });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ReviewDto;
}

const listOf = async (productId: number) => (await (await api.get(`/api/Reviews/${productId}`)).json()) as ReviewDto[];

/** The shopper orders one of the product for SLOT (with an address of their own). */
async function order(shopper: Shopper, productId: number): Promise<OrderDto> {
  const addressId = await saveHomeAddress(api.db, shopper.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: shopper.token, body: { productsId: productId, productVariantsId: 0, qty: 1 } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: shopper.token,
    headers: { 'Idempotency-Key': `review-buyers-${shopper.user.id}-${productId}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as OrderDto;
}

/** The grocer moves the order along, as `npm run orders` does, until it is delivered. */
async function deliver(orderId: number) {
  for (const step of ['packed', 'out_for_delivery', 'delivered']) {
    const res = await api.call('POST', `/api/grocer/Orders/${orderId}/Advance`, { headers: { authorization: `Grocer ${GROCER_TOKEN}` } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { order: OrderDto }).order.status).toBe(step);
  }
}

const userIdOf = async (reviewId: number) => (await api.db.select({ userId: reviews.userId }).from(reviews).where(eq(reviews.id, reviewId)))[0]?.userId;

describe('who wrote a review', () => {
  it('an anonymous review still posts without an auth header (SPEC §7): dated, not signed in, not certified', async () => {
    const productId = await freshProduct();
    const posted = await postReview(productId, 'Anon Asha');
    expect(posted).toMatchObject({ signedIn: false, certifiedBuyer: false });
    expect(posted.date).toBe(posted.updatedAt);
    expect(Math.abs(Date.parse(posted.date) - Date.now())).toBeLessThan(60_000);
    expect(await userIdOf(posted.id)).toBeNull();
    expect(await listOf(productId)).toEqual([posted]);
  });

  it("a signed-in shopper's review is theirs, but not certified while they have had none of it delivered", async () => {
    const productId = await freshProduct();
    const shopper = await api.register();
    const posted = await postReview(productId, 'Signed Sunil', shopper.token);
    expect(posted).toMatchObject({ signedIn: true, certifiedBuyer: false });
    expect(await userIdOf(posted.id)).toBe(shopper.user.id);
  });

  it('a token that is not valid is a 401 and stores nothing (the browser refreshes it and tries again)', async () => {
    const productId = await freshProduct();
    const res = await api.call('POST', '/api/Reviews', { body: review(productId, 'Forged Farah'), token: 'not.a.token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await errorOf(res)).code).toBe('unauthorized');
    expect(await listOf(productId)).toEqual([]);
  });

  it('a shopper delivered the product is a certified buyer; one whose order is only placed or cancelled is not', async () => {
    const productId = await freshProduct();
    const buyer = await api.register();
    await deliver((await order(buyer, productId)).id);
    expect(await postReview(productId, 'Buyer Bhavna', buyer.token)).toMatchObject({ signedIn: true, certifiedBuyer: true });

    const waiting = await api.register();
    await order(waiting, productId);
    expect(await postReview(productId, 'Waiting Waseem', waiting.token)).toMatchObject({ certifiedBuyer: false });

    const cancelled = await api.register();
    const placed = await order(cancelled, productId);
    expect((await api.call('POST', `/api/app/Orders/${placed.id}/Cancel`, { token: cancelled.token })).status).toBe(200);
    expect(await postReview(productId, 'Cancelled Chetan', cancelled.token)).toMatchObject({ certifiedBuyer: false });

    // A delivery of another product certifies nothing here.
    const elsewhere = await api.register();
    await deliver((await order(elsewhere, await freshProduct())).id);
    expect(await postReview(productId, 'Elsewhere Esha', elsewhere.token)).toMatchObject({ certifiedBuyer: false });
  });

  it('a review posted before the delivery reads certified once the order is delivered, and the delivery says so to the caches', async () => {
    const productId = await freshProduct();
    const shopper = await api.register();
    const placed = await order(shopper, productId);
    const early = await postReview(productId, 'Early Esther', shopper.token);
    expect(early.certifiedBuyer).toBe(false);
    api.takeStale();
    await deliver(placed.id);
    // Only the last step, the delivery, changes what a product page shows of its reviews.
    expect(api.takeStale()).toEqual([[productTag(productId)]]);
    expect((await listOf(productId)).find((r) => r.id === early.id)).toMatchObject({ certifiedBuyer: true });
  });
});

describe('the order of the list', () => {
  it('certified buyers first, then signed-in shoppers, then anonymous reviews; newest first within each', async () => {
    const productId = await freshProduct();
    const buyers = [await api.register(), await api.register()];
    for (const buyer of buyers) await deliver((await order(buyer, productId)).id);
    const shoppers = [await api.register(), await api.register()];

    // Posted in an order that the list must not keep: anonymous first, certified last.
    const posted = {
      anonOld: await postReview(productId, 'Anon Old'),
      shopperOld: await postReview(productId, 'Shopper Old', shoppers[0]!.token),
      buyerOld: await postReview(productId, 'Buyer Old', buyers[0]!.token),
      anonNew: await postReview(productId, 'Anon New'),
      shopperNew: await postReview(productId, 'Shopper New', shoppers[1]!.token),
      buyerNew: await postReview(productId, 'Buyer New', buyers[1]!.token),
    };
    // Distinct times, a minute apart in the order posted (one request may share a millisecond with the next).
    const start = Date.parse('2026-11-20T06:00:00Z');
    for (const [i, r] of Object.values(posted).entries()) {
      await api.db.update(reviews).set({ updatedAt: new Date(start + i * 60_000) }).where(eq(reviews.id, r.id));
    }

    const list = await listOf(productId);
    expect(list.map((r) => r.title)).toEqual(['Buyer New', 'Buyer Old', 'Shopper New', 'Shopper Old', 'Anon New', 'Anon Old']);
    expect(list.map((r) => [r.certifiedBuyer, r.signedIn])).toEqual([
      [true, true],
      [true, true],
      [false, true],
      [false, true],
      [false, false],
      [false, false],
    ]);
    for (const r of list) expect(r.date).toBe(r.updatedAt);
    expect(list.at(-1)!.date).toBe('2026-11-20T06:00:00.000Z');
  });
});
