// The unit sale price beside a pack's price (₹/kg, ₹/l, ₹ per piece), read from the pack's text.
import { describe, expect, it } from 'vitest';
import { formatUnitPrice } from '../../src/lib/money.ts';
import { unitPrice } from '../../src/lib/unit-price.ts';

describe('unitPrice', () => {
  it.each([
    // [pack text, price in paise, paise per unit, unit]
    ['Tata Salt 1 kg', 2800, 2800, 'kg'],
    ['500 g', 4250, 8500, 'kg'],
    ['Besan Ladoo 400 g', 18200, 45500, 'kg'],
    ['Sandalwood Talc 300 g', 14500, 48333, 'kg'],
    ['Basmati Rice 5kg', 60000, 12000, 'kg'],
    ['1.5 KG', 30000, 20000, 'kg'],
    ['Mango Fruit Drink 200 ml', 2000, 10000, 'l'],
    ['1 l', 8000, 8000, 'l'],
    ['Mustard Oil 1 ltr', 18000, 18000, 'l'],
    ['Atta 1 kg (Pack of 2)', 11000, 5500, 'kg'],
    ['Pav Buns (6 pcs)', 3000, 500, 'piece'],
    ['Farm Eggs (6 pcs) (Pack of 2)', 10800, 900, 'piece'],
  ] as const)('%s at %i paise costs %i paise per %s', (text, price, paise, per) => {
    expect(unitPrice(price, text)).toEqual({ paise, per });
  });

  it.each([
    ['a pack with no size', 'Dhoop Cones', 5000],
    ['a single piece', 'Coconut (1 pc)', 3500],
    ['two different sizes', 'Detergent 2 kg + 500 g free', 40000],
    ['a size glued to a word', 'Vitamin B12 drops', 20000],
    ['no price', '1 kg', 0],
  ])('has none for %s', (_, text, price) => {
    expect(unitPrice(price, text)).toBeNull();
  });

  it('is written the way packs print it', () => {
    expect(formatUnitPrice({ paise: 45500, per: 'kg' })).toBe('₹455/kg');
    expect(formatUnitPrice({ paise: 48333, per: 'kg' })).toBe('₹483.33/kg');
    expect(formatUnitPrice({ paise: 500, per: 'piece' })).toBe('₹5/piece');
  });
});
