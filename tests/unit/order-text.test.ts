// What the order pages say: a slot in the shop's time zone whatever the shopper's clock, and what Order again did.
import { describe, expect, it } from 'vitest';
import { formatSlot } from '../../src/lib/dates.ts';
import { reorderText } from '../../src/lib/order-status.ts';

/** Intl puts thin and narrow no-break spaces around the dash and before am/pm. */
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatSlot', () => {
  const slot = { startsAt: '2026-11-23T02:30:00.000Z', endsAt: '2026-11-23T04:30:00.000Z' };

  it('shows the slot in the shop time zone', () => {
    expect(plain(formatSlot(slot, 'Asia/Kolkata'))).toBe('Mon, 23 Nov, 8:00 – 10:00 am');
  });

  it('follows the time zone it is given, not the machine', () => {
    expect(plain(formatSlot(slot, 'UTC'))).toBe('Mon, 23 Nov, 2:30 – 4:30 am');
  });

  it('names both halves of a slot across noon', () => {
    expect(plain(formatSlot({ startsAt: '2026-11-23T06:30:00.000Z', endsAt: '2026-11-23T08:30:00.000Z' }, 'Asia/Kolkata'))).toBe(
      'Mon, 23 Nov, 12:00 – 2:00 pm',
    );
  });
});

describe('reorderText', () => {
  it('counts the units put back, names what is gone and gives the API\'s reasons', () => {
    const text = reorderText({
      added: [
        { productsId: 1, name: 'Basmati Rice', qty: 2 },
        { productsId: 2, name: 'Paneer', qty: 1 },
      ],
      unavailable: [
        { productsId: 3, name: 'Idli Rice', reason: 'Sorry, Idli Rice is out of stock right now.' },
        { productsId: 4, name: 'Maida (1 kg)', reason: 'Sorry, Maida (1 kg) cannot be bought right now: it has no price yet.' },
      ],
    });
    expect(text).toEqual({
      added: '3 items added to your cart',
      unavailable: 'No longer available: Idli Rice, Maida (1 kg)',
      reasons: ['Sorry, Idli Rice is out of stock right now.', 'Sorry, Maida (1 kg) cannot be bought right now: it has no price yet.'],
    });
  });

  it('says one item, and nothing about what is gone when nothing is', () => {
    expect(reorderText({ added: [{ productsId: 1, name: 'Paneer', qty: 1 }], unavailable: [] })).toEqual({
      added: '1 item added to your cart',
      unavailable: null,
      reasons: [],
    });
  });

  it('says so when nothing could be put back', () => {
    expect(reorderText({ added: [], unavailable: [{ productsId: 3, name: 'Idli Rice', reason: 'out of stock' }] }).added).toBe(
      'Nothing could be added to your cart',
    );
  });
});
