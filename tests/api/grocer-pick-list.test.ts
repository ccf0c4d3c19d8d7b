// The pick list of a delivery slot (issue 34's back office): every product summed across the slot's open orders, by
// aisle; a cancelled order is left out; a slot that is no slot is a 404, a malformed one a 400; staff and owners only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrocerPickListDto } from '../../src/server/grocer-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { categories, products } from '../../src/server/db/schema.ts';
import { plainProductIds, saveHomeAddress, startTestApi, type TestApi } from './harness.ts';
import { fromShop, signedIn, STAFF_COOKIE } from './staff-helpers.ts';

const TOKEN = 'grocer-pick-list-test-token-0123456789';
// 07:30 in Kolkata: today's slots from 10:00 are open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 40, now: () => clock, grocerToken: TOKEN });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

async function product() {
  const id = spare.shift()!;
  const [row] = await api.db
    .update(products)
    .set({ stock: 50 })
    .where(eq(products.id, id))
    .returning({ id: products.id, name: products.name, categoryId: products.categoryId });
  return row!;
}

/** A new shopper's order for SLOT of these products and quantities. */
async function order(lines: [number, number][]) {
  const s = await api.register();
  const addressId = await saveHomeAddress(api.db, s.user.id);
  for (const [productsId, qty] of lines) {
    expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId, productVariantsId: 0, qty } })).status).toBe(201);
  }
  const res = await api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `pick-list-${s.user.id}` },
    body: { addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as OrderDto;
}

const pickListOf = async (slot: string) => api.grocer('GET', `PickList?slot=${encodeURIComponent(slot)}`);

describe('the pick list of a slot', () => {
  it('sums each product across the slot’s open orders, by aisle, and leaves a cancelled order out', async () => {
    const [a, b, c] = [await product(), await product(), await product()];
    const first = await order([[a.id, 2], [b.id, 1]]);
    const second = await order([[a.id, 3]]);
    const cancelled = await order([[c.id, 4], [a.id, 5]]);
    expect((await api.grocer('POST', `Orders/${cancelled.id}/Cancel`, { reason: 'Shopper asked by phone' })).status).toBe(200);

    const res = await pickListOf(SLOT);
    expect(res.status, await res.clone().text()).toBe(200);
    const list = (await res.json()) as GrocerPickListDto;
    expect(list.slot.id).toBe(SLOT);
    expect(list.orderIds).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(list.orderIds).not.toContain(cancelled.id);
    const items = list.aisles.flatMap((aisle) => aisle.items.map((item) => ({ ...item, aisle: aisle.categoryId })));
    expect(items.find((i) => i.productId === a.id)).toMatchObject({ qty: 5, orders: 2, name: a.name, variantName: null, aisle: a.categoryId });
    expect(items.find((i) => i.productId === b.id)).toMatchObject({ qty: 1, orders: 1 });
    expect(items.find((i) => i.productId === c.id)).toBeUndefined();
    // Each aisle once, named as its category.
    const aisleIds = list.aisles.map((aisle) => aisle.categoryId);
    expect(new Set(aisleIds).size).toBe(aisleIds.length);
    const [category] = await api.db.select({ name: categories.name }).from(categories).where(eq(categories.id, a.categoryId!));
    expect(list.aisles.find((aisle) => aisle.categoryId === a.categoryId)?.name).toBe(category!.name);
  });

  it('is empty for a slot without orders, a 404 for a slot that is not there and a 400 for one written wrongly', async () => {
    const empty = await pickListOf('2026-11-24T12:00');
    // Tomorrow's slot exists once the shop has offered it; either way nothing is picked for it.
    if (empty.status === 200) expect(((await empty.json()) as GrocerPickListDto).aisles).toEqual([]);
    else expect(empty.status).toBe(404);
    expect((await pickListOf('2026-11-23T03:17')).status).toBe(404);
    expect((await pickListOf('tomorrow')).status).toBe(400);
  });

  it('is for staff and owners; an editor is refused', async () => {
    for (const role of ['owner', 'staff'] as const) {
      const { cookie } = await signedIn(api, role);
      expect((await fromShop(api, 'GET', `/api/grocer/PickList?slot=${SLOT}`, { cookie })).status, role).toBe(200);
    }
    const { cookie } = await signedIn(api, 'editor');
    const refused = await api.call('GET', `/api/grocer/PickList?slot=${SLOT}`, { headers: { cookie: `${STAFF_COOKIE}=${cookie}` } });
    expect(refused.status).toBe(403);
  });
});
