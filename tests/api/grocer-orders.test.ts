// The grocer's order routes over HTTP (issue 22): cancelling an order not yet delivered with a reason the shopper
// reads, its stock and slot place given back; blocking and unblocking a mobile number; a day that is no day is a 400.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import type { BlockedPhoneDto, GrocerCancelDto } from '../../src/server/grocer-schemas.ts';
import type { OrderDto, OrderPageDto } from '../../src/server/order-schemas.ts';
import { blockedPhones, deliverySlots, orders, products } from '../../src/server/db/schema.ts';
import { isPhoneBlocked } from '../../src/server/services/blocked-phones.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const TOKEN = 'grocer-orders-test-token-0123456789';
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

const grocer = (method: string, route: string, body?: unknown) => api.grocer(method, route, body);

/** A plain product of its own for one test, with this stock. */
async function product(stock: number) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  const [row] = await api.db.update(products).set({ stock }).where(eq(products.id, id)).returning({ id: products.id, name: products.name });
  return row!;
}

/** A shopper who has ordered `qty` of the product for SLOT. */
async function orderOf(productId: number, qty: number) {
  const s = await api.register();
  const addressId = await saveHomeAddress(api.db, s.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, productVariantsId: 0, qty } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `grocer-test-${s.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { shopper: s, order: (await res.json()) as OrderDto };
}

const stockOf = async (id: number) => (await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const takenOf = async () => (await api.db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, SLOT)))[0]!.taken;

describe('the shop cancels an order', () => {
  it.each(['placed', 'packed', 'out_for_delivery'] as const)(
    'when it is %s: stock and slot place go back, and the shopper reads the reason on the order and in the list',
    async (status) => {
      const p = await product(10);
      const { shopper, order } = await orderOf(p.id, 3);
      await api.db.update(orders).set({ status }).where(eq(orders.id, order.id));
      const taken = await takenOf();
      expect(await stockOf(p.id)).toBe(7);

      const res = await grocer('POST', `Orders/${order.id}/Cancel`, { reason: '  Out of paneer today ' });
      expect(res.status, await res.clone().text()).toBe(200);
      const answer = (await res.json()) as GrocerCancelDto;
      expect(answer.from).toBe(status);
      expect(answer.order).toMatchObject({ id: order.id, status: 'cancelled', cancelledBy: 'shop', cancelReason: 'Out of paneer today', cancellable: false });
      expect(answer.order.timeline.at(-1)!.status).toBe('cancelled');
      expect(await stockOf(p.id)).toBe(10);
      expect(await takenOf()).toBe(taken - 1);

      const seen = (await (await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token })).json()) as OrderDto;
      expect(seen).toMatchObject({ status: 'cancelled', cancelledBy: 'shop', cancelReason: 'Out of paneer today' });
      const list = (await (await api.call('GET', '/api/app/Orders/GetOrdersByUser/0', { token: shopper.token })).json()) as OrderPageDto;
      expect(list.orders[0]).toMatchObject({ id: order.id, status: 'cancelled', cancelledBy: 'shop', cancelReason: 'Out of paneer today' });
    },
  );

  it('refuses a delivered or an already cancelled order with a 409, giving nothing back twice', async () => {
    const p = await product(10);
    const { order: delivered } = await orderOf(p.id, 1);
    await api.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, delivered.id));
    const late = await grocer('POST', `Orders/${delivered.id}/Cancel`, { reason: 'Too late' });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toEqual({ code: 'conflict', message: `Order ${delivered.id} is delivered: it can no longer be cancelled.` });

    const { order } = await orderOf(p.id, 2);
    expect((await grocer('POST', `Orders/${order.id}/Cancel`, { reason: 'Van broke down' })).status).toBe(200);
    const taken = await takenOf();
    const twice = await grocer('POST', `Orders/${order.id}/Cancel`, { reason: 'Van broke down' });
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).message).toBe(`Order ${order.id} is cancelled: it can no longer be cancelled.`);
    expect(await stockOf(p.id)).toBe(9);
    expect(await takenOf()).toBe(taken);
  });

  it('needs a reason of 3 to 200 characters without control characters; a made-up order is 404; no token is 401', async () => {
    const p = await product(10);
    const { order } = await orderOf(p.id, 1);
    for (const [body, message] of [
      [{}, 'reason is required'],
      [{ reason: '  ' }, 'reason must be at least 3 characters'],
      [{ reason: 'x'.repeat(201) }, 'reason must be at most 200 characters'],
      [{ reason: 'Sorry\x1b[2J' }, 'reason must not contain control characters'],
      [{ reason: 'Sorry \u202Eyadot' }, 'reason must not contain control characters'],
    ] as const) {
      const res = await grocer('POST', `Orders/${order.id}/Cancel`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(res)).toEqual({ code: 'bad_request', message });
    }
    expect((await api.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('placed');
    const missing = await grocer('POST', 'Orders/999999/Cancel', { reason: 'No such order' });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe('There is no order 999999');
    const anonymous = await api.call('POST', `/api/grocer/Orders/${order.id}/Cancel`, { body: { reason: 'Out of stock' } });
    expect(anonymous.status).toBe(401);
  });

  it('tells the catalogue caches when a sold-out product is back on the shelf, and only then', async () => {
    const p = await product(4);
    const { order: some } = await orderOf(p.id, 2);
    const { order: last } = await orderOf(p.id, 2);
    expect(await stockOf(p.id)).toBe(0);
    api.takeStale();
    const back = await grocer('POST', `Orders/${last.id}/Cancel`, { reason: 'Address not found' });
    expect(back.status).toBe(200);
    expect(api.takeStale()).toEqual([staleAfter.shelfChanged([p.id])]);
    const more = await grocer('POST', `Orders/${some.id}/Cancel`, { reason: 'Address not found' });
    expect(more.status).toBe(200);
    expect(api.takeStale(), 'it was on the shelf already').toEqual([]);
  });

  it("records the shopper's own cancel as the shopper's, with no reason", async () => {
    const p = await product(5);
    const { shopper, order } = await orderOf(p.id, 1);
    const res = await api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: shopper.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'cancelled', cancelledBy: 'shopper', cancelReason: null });
    const [row] = await api.db.select({ cancelledBy: orders.cancelledBy }).from(orders).where(eq(orders.id, order.id));
    expect(row!.cancelledBy).toBe('shopper');
  });
});

describe('blocked numbers', () => {
  it('blocks a number in any written form, keeps it as ten digits, and unblocks it', async () => {
    const res = await grocer('POST', 'BlockedPhones', { phone: '+91 98450-12345', reason: '295 orders of ₹1' });
    expect(res.status).toBe(200);
    const blocked = (await res.json()) as BlockedPhoneDto;
    expect(blocked).toMatchObject({ phone: '9845012345', reason: '295 orders of ₹1' });
    expect(await isPhoneBlocked(api.db, '9845012345')).toBe(true);
    expect(await isPhoneBlocked(api.db, '09845012345')).toBe(true);
    expect(await isPhoneBlocked(api.db, '9845012346')).toBe(false);

    // Again: the new reason, the first date.
    const again = (await (await grocer('POST', 'BlockedPhones', { phone: '9845012345' })).json()) as BlockedPhoneDto;
    expect(again).toEqual({ phone: '9845012345', reason: '', createdAt: blocked.createdAt });
    expect(await api.db.select().from(blockedPhones).where(eq(blockedPhones.phone, '9845012345'))).toHaveLength(1);

    const lifted = await grocer('DELETE', `BlockedPhones/${encodeURIComponent('+919845012345')}`);
    expect(lifted.status).toBe(200);
    expect(((await lifted.json()) as BlockedPhoneDto).phone).toBe('9845012345');
    expect(await isPhoneBlocked(api.db, '9845012345')).toBe(false);
    const notBlocked = await grocer('DELETE', 'BlockedPhones/9845012345');
    expect(notBlocked.status).toBe(404);
    expect(await errorOf(notBlocked)).toEqual({ code: 'not_found', message: '9845012345 is not blocked' });
  });

  it('refuses a malformed number or reason, and callers without the token', async () => {
    for (const phone of ['12345', '5845012345', '98450123456', 'nine']) {
      const res = await grocer('POST', 'BlockedPhones', { phone });
      expect(res.status, phone).toBe(400);
      expect(await errorOf(res)).toEqual({ code: 'bad_request', message: 'phone must be a 10-digit Indian mobile number' });
    }
    expect((await grocer('DELETE', 'BlockedPhones/12345')).status).toBe(400);
    expect((await grocer('POST', 'BlockedPhones', { phone: '9845012345', reason: 'x\u0007' })).status).toBe(400);
    expect((await api.call('POST', '/api/grocer/BlockedPhones', { body: { phone: '9845012345' } })).status).toBe(401);
    expect(await api.db.select().from(blockedPhones)).toHaveLength(0);
    expect(await isPhoneBlocked(api.db, 'not a number')).toBe(false);
  });
});

describe("a day's orders", () => {
  it.each(['2026-13-45', '2026-02-30', '2026-00-10', '26-11-24', 'today'])('answer 400 for the date %s, in the API error shape', async (date) => {
    const res = await grocer('GET', `Orders?date=${date}`);
    expect(res.status).toBe(400);
    const { code, message } = await errorOf(res);
    expect(code).toBe('bad_request');
    expect(message).toMatch(/^date must be /);
  });

  it('answer a real day', async () => {
    const res = await grocer('GET', 'Orders?date=2026-11-23');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { date: string }).date).toBe('2026-11-23');
  });
});

it('documents the grocer routes and who cancelled an order in /api/openapi.json', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
  };
  for (const name of ['Order', 'OrderListItem']) {
    expect(Object.keys(doc.components.schemas[name]!.properties), name).toEqual(expect.arrayContaining(['cancelledBy', 'cancelReason']));
  }
  expect(doc.components.schemas.Order!.properties.cancelReason!.description).toContain('Cancelled by the shop: <reason>');
  const cancel = doc.paths['/api/grocer/Orders/{id}/Cancel']!.post!;
  expect(Object.keys(cancel.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '409']));
  expect(cancel.description).toContain('Cancelled by the shop: <reason>');
  expect(doc.paths['/api/grocer/BlockedPhones']!.post).toBeDefined();
  expect(Object.keys(doc.paths['/api/grocer/BlockedPhones/{phone}']!.delete!.responses)).toContain('404');
});
