// What the order pages say: a slot's day and times in the shop's time zone, and what Order again did.
import { describe, expect, it } from 'vitest';
import { paymentStateText, reorderText, shopCancelText } from '../../src/lib/order-status.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { formatSlotWhen } from '../../src/lib/slots.ts';

describe('formatSlotWhen', () => {
  const slot = { id: '2026-11-23T08:00', startsAt: '2026-11-23T02:30:00.000Z', endsAt: '2026-11-23T04:30:00.000Z' };

  it('shows the day and the times in the shop time zone', () => {
    expect(formatSlotWhen(slot, 'Asia/Kolkata', '2026-11-20')).toBe('Mon, 23 Nov, 8:00 AM – 10:00 AM');
  });

  it('says Today and Tomorrow as the checkout does', () => {
    expect(formatSlotWhen(slot, 'Asia/Kolkata', '2026-11-23')).toBe('Today, 8:00 AM – 10:00 AM');
    expect(formatSlotWhen(slot, 'Asia/Kolkata', '2026-11-22')).toBe('Tomorrow, 8:00 AM – 10:00 AM');
  });

  it('takes the day from the slot, not from the UTC start (a slot starting before 5:30 am IST is the day before in UTC)', () => {
    const early = { id: '2026-11-24T04:00', startsAt: '2026-11-23T22:30:00.000Z', endsAt: '2026-11-24T00:30:00.000Z' };
    expect(formatSlotWhen(early, 'Asia/Kolkata', '2026-11-20')).toBe('Tue, 24 Nov, 4:00 AM – 6:00 AM');
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

describe('shopCancelText', () => {
  it("gives the shop's reason for an order the shop cancelled, and nothing otherwise", () => {
    expect(shopCancelText({ status: 'cancelled', cancelledBy: 'shop', cancelReason: 'Out of paneer today' })).toBe(
      'Cancelled by the shop: Out of paneer today',
    );
    expect(shopCancelText({ status: 'cancelled', cancelledBy: 'shopper', cancelReason: null })).toBeNull();
    expect(shopCancelText({ status: 'placed', cancelledBy: null, cancelReason: null })).toBeNull();
  });

  it('says a pay-now order was cancelled because its payment did not come in time', () => {
    expect(shopCancelText({ status: 'cancelled', cancelledBy: 'payment_expired', cancelReason: 'Payment not received in time' })).toBe(
      'Cancelled: Payment not received in time',
    );
  });
});

describe('paymentStateText', () => {
  const order = (payment: Partial<OrderDto['payment']>, status: OrderDto['status'] = 'placed') => ({
    status,
    timeZone: 'Asia/Kolkata',
    summary: { totalPaise: 25800 } as OrderDto['summary'],
    payment: { method: 'upi_now', status: 'awaiting', dueAt: null, paidAt: null, request: null, ...payment } as OrderDto['payment'],
  });

  it('asks for the exact amount by the deadline, in the shop’s clock', () => {
    expect(paymentStateText(order({ dueAt: '2026-11-26T05:12:00.000Z' }))).toBe('Awaiting payment — pay ₹258.00 by 10:42');
  });

  it('says when it was paid', () => {
    expect(paymentStateText(order({ status: 'paid', paidAt: '2026-11-26T05:12:00.000Z' }))).toBe('Paid on 26 Nov 2026, 10:42 am');
  });

  it('says nothing of an order paid on delivery, or one cancelled while awaiting', () => {
    expect(paymentStateText(order({ method: 'cash', status: 'on_delivery' }))).toBeNull();
    expect(paymentStateText(order({ dueAt: '2026-11-26T05:12:00.000Z' }, 'cancelled'))).toBeNull();
  });
});
