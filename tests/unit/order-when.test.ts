// A past order reads as what happened (issue 25): 'Delivered on Thu, 26 Nov, 10:42'; an open one keeps its promise.
import { expect, it } from 'vitest';
import { formatEventTime } from '../../src/lib/dates.ts';
import { orderWhenText, settledAtOf } from '../../src/lib/order-status.ts';

const slot = { id: '2026-11-26T18:00', startsAt: '2026-11-26T12:30:00Z', endsAt: '2026-11-26T14:30:00Z' };
const TZ = 'Asia/Kolkata';

it('writes an event time short, on the 24-hour clock, in the shop time zone', () => {
  expect(formatEventTime('2026-11-26T05:12:00Z', TZ)).toBe('Thu, 26 Nov, 10:42');
  expect(formatEventTime('2026-11-26T17:00:00Z', TZ)).toBe('Thu, 26 Nov, 22:30');
});

it('says when a delivered or cancelled order became so, and keeps the slot for an open one', () => {
  expect(orderWhenText({ status: 'delivered', slot, settledAt: '2026-11-26T05:12:00Z' }, TZ)).toBe('Delivered on Thu, 26 Nov, 10:42');
  expect(orderWhenText({ status: 'cancelled', slot, settledAt: '2026-11-25T10:00:00Z' }, TZ)).toBe('Cancelled on Wed, 25 Nov, 15:30');
  expect(orderWhenText({ status: 'packed', slot, settledAt: null }, TZ, '2026-11-25')).toBe('Delivery Tomorrow, 6:00 PM – 8:00 PM');
});

it('takes the time from the last event of the order’s status', () => {
  const timeline = [
    { status: 'placed' as const, at: '2026-11-25T04:00:00Z' },
    { status: 'packed' as const, at: '2026-11-26T03:00:00Z' },
    { status: 'out_for_delivery' as const, at: '2026-11-26T04:00:00Z' },
    { status: 'delivered' as const, at: '2026-11-26T05:12:00Z' },
  ];
  expect(settledAtOf({ status: 'delivered', timeline })).toBe('2026-11-26T05:12:00Z');
  expect(settledAtOf({ status: 'out_for_delivery', timeline: timeline.slice(0, 3) })).toBeNull();
});
