// The page's inline script holds a signed-in press until src/client/cart-controller.ts has started, which then takes
// it from the marks on the form: both must name the same marks.
import { describe, expect, it } from 'vitest';
import { PRESS } from '../../src/client/cart-controller.ts';
import { HOLD_EARLY_ADD } from '../../src/lib/server/inline-scripts.ts';

describe('the first tap and the cart controller', () => {
  it('use the same marks', () => {
    for (const name of Object.values(PRESS)) expect(HOLD_EARLY_ADD).toContain(`'${name}'`);
  });

  it('hand over through marks, not globals or events', () => {
    expect(HOLD_EARLY_ADD).not.toMatch(/dispatchEvent|window\./);
  });
});
