// What a product's stepper shows from its cart line, and the choice kept across sign-in (SPEC §3 `proid`, issue 24).
import { describe, expect, it } from 'vitest';
import { stepperView } from '../../src/lib/cart-stepper.ts';
import { decodeKeptAdd, encodeKeptAdd, isFreshKeptAdd, KEPT_ADD_MINUTES } from '../../src/lib/kept-add.ts';

const line = { lineId: 4, qty: 2, maxQty: 10, limitedByStock: false, inStock: true };

describe('stepperView', () => {
  it('shows Add to cart for a pack not in the cart, or whose line went out of stock', () => {
    const none = { inCart: false, qty: 0, atMost: false, note: '' };
    expect(stepperView(undefined)).toEqual(none);
    expect(stepperView({ ...line, inStock: false, maxQty: 0 })).toEqual(none);
  });

  it('shows the quantity, and why + stops at the most: the shelf or the per-order limit', () => {
    expect(stepperView(line)).toEqual({ inCart: true, qty: 2, atMost: false, note: '' });
    expect(stepperView({ ...line, qty: 8, maxQty: 8, limitedByStock: true })).toEqual({ inCart: true, qty: 8, atMost: true, note: 'Only 8 left' });
    expect(stepperView({ ...line, qty: 10 })).toMatchObject({ atMost: true, note: 'At most 10 per order' });
    // More in the cart than the shelf holds now: + stops, − still lowers it.
    expect(stepperView({ ...line, qty: 5, maxQty: 3, limitedByStock: true })).toMatchObject({ qty: 5, atMost: true, note: 'Only 3 left' });
  });
});

describe('the kept choice', () => {
  it('keeps the product, the pack and its price id, and reads a bare product id as kept now', () => {
    const kept = { productId: 7, variantId: 12, priceId: 34, at: 1_700_000_000_000 };
    expect(decodeKeptAdd(encodeKeptAdd(kept))).toEqual(kept);
    const bare = decodeKeptAdd('7');
    expect(bare?.productId).toBe(7);
    expect(bare?.variantId).toBeUndefined();
    expect(isFreshKeptAdd(bare!)).toBe(true);
  });

  it('reads nothing from what is not a choice', () => {
    for (const text of ['', 'null', '"7"', '-3', '{"productId":0,"at":1}', '{"productId":7}', 'not json']) {
      expect(decodeKeptAdd(text), text).toBeUndefined();
    }
    expect(decodeKeptAdd('{"productId":7,"variantId":-1,"priceId":"x","at":5}')).toEqual({ productId: 7, variantId: undefined, priceId: undefined, at: 5 });
  });

  it(`is fresh for ${KEPT_ADD_MINUTES} minutes`, () => {
    const now = Date.now();
    expect(isFreshKeptAdd({ productId: 7, at: now - (KEPT_ADD_MINUTES - 1) * 60_000 }, now)).toBe(true);
    expect(isFreshKeptAdd({ productId: 7, at: now - (KEPT_ADD_MINUTES + 1) * 60_000 }, now)).toBe(false);
  });
});
