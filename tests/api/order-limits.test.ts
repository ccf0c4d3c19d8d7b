// Trust at checkout (issue 22): an order needs a verified mobile number that the grocer has not blocked, and the limits
// of store.yaml hang on that number: open orders, orders in one slot, units of one product, the first-order offer.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto, UserDto } from '../../src/server/account-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { addresses, cartLines, orders, phoneCodes, products, users } from '../../src/server/db/schema.ts';
import { blockPhone } from '../../src/server/services/blocked-phones.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

// 07:30 in Kolkata: today's slots from 10:00 are open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOTS = ['2026-11-23T10:00', '2026-11-23T12:00', '2026-11-23T14:00', '2026-11-23T16:00'];
let api: TestApi;
let productId: number;

beforeAll(async () => {
  api = await startTestApi({ products: 60, now: () => clock });
  const [row] = await api.db.select({ id: products.id }).from(products).where(eq(products.type, 'normal')).orderBy(products.id).limit(1);
  productId = row!.id;
  await api.db.update(products).set({ stock: 10_000 }).where(eq(products.id, productId));
});
afterAll(async () => api?.close());

async function shopper() {
  const session = await api.register();
  const [address] = await api.db
    .insert(addresses)
    .values({ userId: session.user.id, name: 'Meera Iyer', phone: session.user.phone, line1: '12, 4th Cross, Jayanagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560011', isDefault: true })
    .returning({ id: addresses.id });
  return { ...session, addressId: address!.id };
}
type Shopper = Awaited<ReturnType<typeof shopper>>;

async function fillCart(s: Shopper, qty = 1) {
  const res = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, qty } });
  expect(res.status).toBe(201);
  return (await res.json()) as CartDto;
}

let keys = 0;
const place = (s: Shopper, slotId: string) =>
  api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `limits-${process.pid}-${++keys}` },
    body: { addressId: s.addressId, slotId, paymentMethod: 'cash' },
  });

describe('a verified number before the first order', () => {
  it('refuses an order until the number is verified, and keeps the cart for after', async () => {
    const s = await shopper();
    // An account from before numbers were verified.
    await api.db.update(users).set({ phoneVerifiedAt: null }).where(eq(users.id, s.user.id));
    expect(((await (await api.call('GET', '/api/app/Users/Me', { token: s.token })).json()) as UserDto).phoneVerified).toBe(false);
    await fillCart(s, 2);
    const refused = await place(s, SLOTS[0]!);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({ code: 'phone_unverified', message: 'Please verify your mobile number with the code we text you before placing an order.' });

    expect((await api.call('POST', '/api/app/Users/Me/PhoneCode', { token: s.token })).status).toBe(202);
    const code = await api.codeTo(s.user.phone);
    const wrong = await api.call('POST', '/api/app/Users/Me/VerifyPhone', { token: s.token, body: { code: code === '000000' ? '000001' : '000000' } });
    expect(wrong.status).toBe(400);
    const verified = await api.call('POST', '/api/app/Users/Me/VerifyPhone', { token: s.token, body: { code } });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as UserDto).phoneVerified).toBe(true);
    const res = await place(s, SLOTS[0]!);
    expect(res.status).toBe(201);
    expect(((await res.json()) as OrderDto).summary.itemCount).toBe(2);
  });

  it('refuses a number the grocer blocked', async () => {
    const s = await shopper();
    await blockPhone(api.db, `+91 ${s.user.phone}`, 'fake orders');
    await fillCart(s);
    const res = await place(s, SLOTS[0]!);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('phone_blocked');
    expect((await api.call('GET', `/api/app/Carts/GetTotalCart/${s.user.id}`, { token: s.token }).then((r) => r.json())) as { cartsTotal: number }).toEqual({ cartsTotal: 1 });
  });
});

describe('limits per number', () => {
  it('takes one order per slot from a shopper, and three open orders from a number until one is delivered', async () => {
    const s = await shopper();
    await fillCart(s);
    expect((await place(s, SLOTS[0]!)).status).toBe(201);
    await fillCart(s);
    const sameSlot = await place(s, SLOTS[0]!);
    expect(sameSlot.status).toBe(409);
    expect((await errorOf(sameSlot)).message).toBe('You already have an order in that delivery slot; please choose another');
    expect((await place(s, SLOTS[1]!)).status).toBe(201);
    await fillCart(s);
    expect((await place(s, SLOTS[2]!)).status).toBe(201);
    await fillCart(s);
    const fourth = await place(s, SLOTS[3]!);
    expect(fourth.status).toBe(409);
    expect((await errorOf(fourth)).message).toBe('You already have 3 orders on their way. You can place another once one is delivered or cancelled.');
    // The cart stays for when an order is done.
    const [first] = await api.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, s.user.id)).orderBy(orders.id).limit(1);
    await api.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, first!.id));
    expect((await place(s, SLOTS[3]!)).status).toBe(201);
  });

  it('refuses more units of one product than store.yaml allows, even when the cart line was written past it', async () => {
    const limit = readStoreSettings().limits.unitsPerProduct;
    const s = await shopper();
    await fillCart(s, limit);
    await api.db.update(cartLines).set({ qty: limit + 1 }).where(eq(cartLines.userId, s.user.id));
    const res = await place(s, SLOTS[1]!);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toMatch(new RegExp(`^You can order at most ${limit} of `));
  });

  it('gives the first-order offer once per number: a new account on a number that ordered gets none', async () => {
    const first = await shopper();
    expect((await fillCart(first)).summary.discounts.map((d) => d.code)).toEqual(['first-order']);
    expect((await place(first, SLOTS[1]!)).status).toBe(201);
    // The first account moves to another number, and a new account registers with the old one.
    const oldPhone = first.user.phone;
    expect((await api.call('PUT', '/api/app/Users/Me', { token: first.token, body: { name: first.user.name, phone: '7000022222' } })).status).toBe(200);
    const moved = await api.call('POST', '/api/app/Users/Me/VerifyPhone', { token: first.token, body: { code: await api.codeTo('7000022222') } });
    expect(moved.status).toBe(200);
    await api.db.update(phoneCodes).set({ createdAt: sql`now() - interval '31 seconds'` }).where(eq(phoneCodes.phone, oldPhone));
    const second = await api.register({ phone: oldPhone });
    await api.db.insert(addresses).values({ userId: second.user.id, name: 'A', phone: oldPhone, line1: '1, MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', isDefault: true });
    const res = await api.call('POST', '/api/app/Carts', { token: second.token, body: { productsId: productId } });
    expect(((await res.json()) as CartDto).summary.discounts.map((d) => d.code)).toEqual(['all-products']);
  });
});
