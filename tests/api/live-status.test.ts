// Live status (issue 25): the open order page and Order Tracking poll their reads with If-None-Match; while nothing
// changed the answer is a bodiless 304, and a step the grocer takes changes the tag.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OrderDto, OrderPageDto } from '../../src/server/order-schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const TOKEN = 'live-status-test-grocer-token-0123456789';
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ products: 20, now: () => clock, grocerToken: TOKEN });
});
afterAll(async () => api?.close());

it('answers 304 to a poll that holds the current ETag, and a new tag once the grocer moves the order', async () => {
  const [productId] = await plainProductIds(api.db);
  await api.db.update(products).set({ stock: 10 }).where(eq(products.id, productId!));
  const shopper = await api.register();
  const addressId = await saveHomeAddress(api.db, shopper.user.id);
  await api.call('POST', '/api/app/Carts', { token: shopper.token, body: { productsId: productId, productVariantsId: 0, qty: 1 } });
  const placed = await api.call('POST', '/api/app/Orders', {
    token: shopper.token,
    headers: { 'Idempotency-Key': `live-status-${shopper.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(placed.status, await placed.clone().text()).toBe(201);
  const order = (await placed.json()) as OrderDto;

  for (const path of [`/api/app/Orders/${order.id}`, '/api/app/Orders/GetOrdersByUser/0']) {
    const first = await api.call('GET', path, { token: shopper.token });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-store');

    const again = await api.call('GET', path, { token: shopper.token, headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const other = await api.call('GET', path, { token: shopper.token, headers: { 'If-None-Match': 'W/"something-else"' } });
    expect(other.status).toBe(200);
    // Another shopper's tag tells nothing: the order is theirs alone (404, never a 304).
    if (path.includes(String(order.id))) {
      const stranger = await api.register();
      const theirs = await api.call('GET', path, { token: stranger.token, headers: { 'If-None-Match': etag! } });
      expect(theirs.status).toBe(404);
    }
  }

  const before = (await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token })).headers.get('etag')!;
  const listBefore = (await api.call('GET', '/api/app/Orders/GetOrdersByUser/0', { token: shopper.token })).headers.get('etag')!;
  const advanced = await api.call('POST', `/api/grocer/Orders/${order.id}/Advance`, { headers: { authorization: `Grocer ${TOKEN}` } });
  expect(advanced.status).toBe(200);
  const after = await api.call('GET', `/api/app/Orders/${order.id}`, { token: shopper.token, headers: { 'If-None-Match': before } });
  expect(after.status).toBe(200);
  expect(((await after.json()) as OrderDto).status).toBe('packed');
  expect(after.headers.get('etag')).not.toBe(before);
  const list = await api.call('GET', '/api/app/Orders/GetOrdersByUser/0', { token: shopper.token, headers: { 'If-None-Match': listBefore } });
  expect(list.status).toBe(200);
  expect(((await list.json()) as OrderPageDto).orders[0]).toMatchObject({ id: order.id, status: 'packed' });
});
