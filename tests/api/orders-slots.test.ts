// The last place in a delivery slot, with the capacity set to 1 in the settings: two shoppers at once, one gets it.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlotListDto } from '../../src/server/order-schemas.ts';
import { addresses, deliverySlots, orders, products, productVariants } from '../../src/server/db/schema.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
const settings = readStoreSettings();
beforeAll(async () => {
  api = await startTestApi({
    products: 20,
    store: { ...settings, delivery: { ...settings.delivery, capacity: 1 } },
    // 07:30 in Kolkata.
    now: () => new Date('2026-11-23T02:00:00Z'),
  });
});
afterAll(async () => api?.close());

async function shopperWithCart(productId: number) {
  const s = await api.register();
  const [address] = await api.db
    .insert(addresses)
    .values({ userId: s.user.id, name: 'Arjun Rao', phone: '9123456780', line1: '7, MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' })
    .returning({ id: addresses.id });
  const add = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, qty: 1 } });
  expect(add.status).toBe(201);
  return { ...s, addressId: address!.id };
}

describe('the last place in a slot', () => {
  it('goes to one of two shoppers ordering at once; the other is told to choose another slot', async () => {
    const [plain] = await api.db
      .select({ id: products.id })
      .from(products)
      .where(sql`not exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id})`)
      .limit(1);
    const [p] = await api.db.update(products).set({ stock: 10 }).where(eq(products.id, plain!.id)).returning({ id: products.id });
    const slotId = '2026-11-23T14:00';
    const shoppers = await Promise.all([shopperWithCart(p!.id), shopperWithCart(p!.id)]);
    const answers = await Promise.all(
      shoppers.map((s, i) =>
        api.call('POST', '/api/app/Orders', {
          token: s.token,
          headers: { 'Idempotency-Key': `last-place-${i}-of-two` },
          body: { addressId: s.addressId, slotId, paymentMethod: 'upi' },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await errorOf(answers.find((r) => r.status === 409)!)).toEqual({
      code: 'conflict',
      message: 'That delivery slot just filled up; please choose another',
    });
    const [row] = await api.db.select().from(deliverySlots).where(eq(deliverySlots.id, slotId));
    expect(row).toMatchObject({ capacity: 1, taken: 1 });
    expect(await api.db.select({ id: orders.id }).from(orders).where(eq(orders.slotId, slotId))).toHaveLength(1);
    // The refused order took nothing: one unit left the shelf.
    expect((await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, p!.id)))[0]!.stock).toBe(9);
    const list = (await (await api.call('GET', '/api/app/DeliverySlots', { token: shoppers[0]!.token })).json()) as SlotListDto;
    expect(list.slots.find((s) => s.id === slotId)).toMatchObject({ placesLeft: 0, unavailable: 'full' });
    expect(list.slots.find((s) => s.id === '2026-11-23T16:00')).toMatchObject({ placesLeft: 1, unavailable: null });
  });
});
