// Cart writes with an Idempotency-Key (issue 26): a change queued offline and sent twice counts once; the key is the
// shopper's for 24 hours, and stands for one change only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { CART_KEY_REUSED } from '../../src/server/services/cart-write-keys.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
let clock = new Date('2026-11-20T10:00:00+05:30');
let plainIds: number[];
beforeAll(async () => {
  api = await startTestApi({ products: 60, now: () => clock });
  plainIds = await plainProductIds(api.db);
  for (const id of plainIds.slice(0, 3)) await api.db.update(products).set({ stock: 50 }).where(eq(products.id, id));
});
afterAll(async () => api?.close());

const line = (productsId: number) => ({ productsId, productVariantsId: 0, productVariantPriceId: 0, packing: 'packaging', price: 1, qty: 1 });
const keyed = (key: string) => ({ 'Idempotency-Key': key });
const qtyOf = (cart: CartDto, productId: number) => cart.lines.find((l) => l.productsId === productId)?.qty ?? 0;

describe('cart writes with an Idempotency-Key', () => {
  it('counts the same add sent twice once, and answers the replay with the first answer', async () => {
    const { token, user } = await api.register();
    const id = plainIds[0]!;
    const first = await api.call('POST', '/api/app/Carts', { token, body: { ...line(id), usersId: user.id }, headers: keyed('add-once-0001') });
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const firstCart = (await first.json()) as CartDto;
    const again = await api.call('POST', '/api/app/Carts', { token, body: { ...line(id), usersId: user.id }, headers: keyed('add-once-0001') });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toEqual(firstCart);
    const now = await api.call('GET', `/api/app/Carts/GetCartsByUser/${user.id}`, { token });
    expect(qtyOf((await now.json()) as CartDto, id)).toBe(1);
    // A new key is a new add.
    const another = await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('add-once-0002') });
    expect(qtyOf((await another.json()) as CartDto, id)).toBe(2);
  });

  it('counts the same add sent twice at once (two tabs, a resend racing the first) once', async () => {
    const { token, user } = await api.register();
    const id = plainIds[1]!;
    const send = () => api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('same-moment-01') });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((res) => res.status)).toEqual([201, 201]);
    expect(answers.filter((res) => res.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(1);
    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${user.id}`, { token })).json()) as CartDto;
    expect(qtyOf(cart, id)).toBe(1);
  });

  it('refuses the same key with another change (422), and changes nothing', async () => {
    const { token, user } = await api.register();
    const [a, b] = [plainIds[0]!, plainIds[1]!];
    await api.call('POST', '/api/app/Carts', { token, body: line(a), headers: keyed('reused-key-01') });
    const other = await api.call('POST', '/api/app/Carts', { token, body: line(b), headers: keyed('reused-key-01') });
    expect(other.status).toBe(422);
    expect(await errorOf(other)).toEqual({ code: 'unprocessable', message: CART_KEY_REUSED });
    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${user.id}`, { token })).json()) as CartDto;
    expect(cart.lines.map((l) => l.productsId)).toEqual([a]);
  });

  it('keeps a key per shopper: another shopper may use the same one', async () => {
    const first = await api.register();
    const second = await api.register();
    const id = plainIds[2]!;
    await api.call('POST', '/api/app/Carts', { token: first.token, body: line(id), headers: keyed('shared-key-01') });
    const theirs = await api.call('POST', '/api/app/Carts', { token: second.token, body: line(id), headers: keyed('shared-key-01') });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    expect(qtyOf((await theirs.json()) as CartDto, id)).toBe(1);
  });

  it('sends a quantity change and a removal once each', async () => {
    const { token } = await api.register();
    const id = plainIds[1]!;
    const added = (await (await api.call('POST', '/api/app/Carts', { token, body: line(id) })).json()) as CartDto;
    const lineId = added.lines[0]!.id;
    for (let i = 0; i < 2; i++) {
      const set = await api.call('PUT', `/api/app/Carts/${lineId}`, { token, body: { qty: 3 }, headers: keyed('set-three-01') });
      expect(set.status).toBe(200);
      expect(qtyOf((await set.json()) as CartDto, id)).toBe(3);
    }
    const otherQty = await api.call('PUT', `/api/app/Carts/${lineId}`, { token, body: { qty: 4 }, headers: keyed('set-three-01') });
    expect(otherQty.status).toBe(422);
    const removed = await api.call('DELETE', `/api/app/Carts/${lineId}`, { token, headers: keyed('remove-it-01') });
    expect(removed.status).toBe(200);
    // Sent again (its answer lost on the way): the first answer, not 404 for a line already gone.
    const removedAgain = await api.call('DELETE', `/api/app/Carts/${lineId}`, { token, headers: keyed('remove-it-01') });
    expect(removedAgain.status).toBe(200);
    expect(removedAgain.headers.get('Idempotent-Replayed')).toBe('true');
    expect(((await removedAgain.json()) as CartDto).lines).toEqual([]);
  });

  it('forgets a key after 24 hours: the same key then adds again', async () => {
    const { token, user } = await api.register();
    const id = plainIds[0]!;
    await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('a-day-old-key') });
    clock = new Date(clock.getTime() + 23 * 3600_000);
    const within = await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('a-day-old-key') });
    expect(within.headers.get('Idempotent-Replayed')).toBe('true');
    clock = new Date(clock.getTime() + 2 * 3600_000);
    const after = await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('a-day-old-key') });
    expect(after.status).toBe(201);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${user.id}`, { token })).json()) as CartDto;
    expect(qtyOf(cart, id)).toBe(2);
  });

  it('keeps no key for a refused change: the same key may try again', async () => {
    const { token } = await api.register();
    const id = plainIds[2]!;
    await api.db.update(products).set({ stock: 0 }).where(eq(products.id, id));
    try {
      const refused = await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('refused-key-1') });
      expect(refused.status).toBe(409);
    } finally {
      await api.db.update(products).set({ stock: 50 }).where(eq(products.id, id));
    }
    const later = await api.call('POST', '/api/app/Carts', { token, body: line(id), headers: keyed('refused-key-1') });
    expect(later.status).toBe(201);
    expect(qtyOf((await later.json()) as CartDto, id)).toBe(1);
  });

  it('refuses a malformed key with a plain 400', async () => {
    const { token } = await api.register();
    const res = await api.call('POST', '/api/app/Carts', { token, body: line(plainIds[0]!), headers: keyed('short') });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/Idempotency-Key/);
  });
});
