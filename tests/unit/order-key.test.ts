// The Idempotency-Key kept with the body it was made for: one key per order body across a reload, a new one for a
// changed body or after the API refused the key (422), none after the order is placed.
import { describe, expect, it } from 'vitest';
import { ORDER_KEY_STORAGE, orderKeyStore } from '../../src/lib/order-key.ts';
import type { PlaceOrderInput } from '../../src/server/order-schemas.ts';

/** sessionStorage as the browser has it: strings by key. */
function fakeStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    items,
  };
}

function counter() {
  let n = 0;
  return () => `key-${++n}-abcdefgh`;
}

const body: PlaceOrderInput = { addressId: 3, slotId: '2026-11-23T08:00', paymentMethod: 'upi' };

describe('order key store', () => {
  it('gives the same key for the same body, even from a new page (a reload)', () => {
    const storage = fakeStorage();
    const newKey = counter();
    const first = orderKeyStore(storage, newKey).keyFor(body);
    expect(orderKeyStore(storage, newKey).keyFor({ ...body })).toBe(first);
    // Field order does not make a body different.
    expect(orderKeyStore(storage, newKey).keyFor({ paymentMethod: 'upi', slotId: body.slotId, addressId: 3 })).toBe(first);
  });

  it.each([
    ['another slot', { slotId: '2026-11-23T10:00' }],
    ['another address', { addressId: 4 }],
    ['another payment', { paymentMethod: 'cash' as const }],
  ])('gives a new key for %s, and keeps it for that body', (_, change) => {
    const keys = orderKeyStore(fakeStorage(), counter());
    const first = keys.keyFor(body);
    const changed = keys.keyFor({ ...body, ...change });
    expect(changed).not.toBe(first);
    expect(keys.keyFor({ ...body, ...change })).toBe(changed);
  });

  it('renews the key for the same body after a refusal, and forgets it once the order is placed', () => {
    const storage = fakeStorage();
    const keys = orderKeyStore(storage, counter());
    const first = keys.keyFor(body);
    const renewed = keys.renew(body);
    expect(renewed).not.toBe(first);
    expect(keys.keyFor(body)).toBe(renewed);
    keys.clear();
    expect(storage.items.has(ORDER_KEY_STORAGE)).toBe(false);
    expect(keys.keyFor(body)).not.toBe(renewed);
  });

  it('makes UUIDs the API accepts by default', async () => {
    const { IDEMPOTENCY_KEY_PATTERN } = await import('../../src/lib/form-limits.ts');
    expect(orderKeyStore(fakeStorage()).keyFor(body)).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  it('still works when storage refuses (a privacy setting) or holds something else', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const keys = orderKeyStore(refusing, counter());
    expect(keys.keyFor(body)).toBe(keys.keyFor(body));
    const garbled = fakeStorage();
    garbled.setItem(ORDER_KEY_STORAGE, '{not json');
    expect(orderKeyStore(garbled, counter()).keyFor(body)).toBe('key-1-abcdefgh');
  });
});
