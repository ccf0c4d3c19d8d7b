// src/client/first-tap.ts shares no import with the scripts that take over from it (an import would cost a slow phone a
// round trip): the names both sides use must be the same, and the inline script that holds the press must use them.
import { describe, expect, it } from 'vitest';
import { FIRST_TAP } from '../../src/client/first-tap.ts';
import { EARLY_CART_EVENT, EARLY_HEART_EVENT, PENDING_ADD_EVENT, PENDING_HEART_ATTR, PENDING_KEY_ATTR } from '../../src/lib/early-add-to-cart.ts';
import { HOLD_EARLY_ADD } from '../../src/lib/server/inline-scripts.ts';

describe('the first tap and the scripts after it', () => {
  it('use the same events and marks', () => {
    expect(FIRST_TAP.pendingEvent).toBe(PENDING_ADD_EVENT);
    expect(FIRST_TAP.cartEvent).toBe(EARLY_CART_EVENT);
    expect(FIRST_TAP.keyAttr).toBe(PENDING_KEY_ATTR);
    expect(FIRST_TAP.pendingHeartAttr).toBe(PENDING_HEART_ATTR);
    expect(FIRST_TAP.heartEvent).toBe(EARLY_HEART_EVENT);
    // src/lib/early-add-to-cart.ts reads these through form.dataset.
    expect(FIRST_TAP.pendingAttr).toBe('data-pending-add');
    expect(FIRST_TAP.moreAttr).toBe('data-more');
    expect(FIRST_TAP.busyAttr).toBe('data-early-busy');
  });

  it('are the ones the inline script sets when it holds a press', () => {
    for (const name of [FIRST_TAP.pendingEvent, FIRST_TAP.pendingAttr, FIRST_TAP.pendingHeartAttr, FIRST_TAP.moreAttr, FIRST_TAP.busyAttr]) expect(HOLD_EARLY_ADD).toContain(name);
  });
});
