// Delivery slots as the checkout shows them: times in the shop's time zone whatever the machine's, days by name,
// why a slot cannot be chosen.
import { describe, expect, it } from 'vitest';
import { formatSlotDay, formatSlotRange, shopToday, slotNote, slotsByDay } from '../../src/lib/slots.ts';
import type { SlotDto } from '../../src/server/order-schemas.ts';

const slot = (id: string, startsAt: string, endsAt: string, change: Partial<SlotDto> = {}): SlotDto => ({
  id,
  date: id.slice(0, 10),
  startsAt,
  endsAt,
  placesLeft: 20,
  unavailable: null,
  ...change,
});

describe('slot times', () => {
  it("shows the shop's local times, with AM and PM", () => {
    // 02:30Z is 8:00 in India; 10:30Z is 16:00.
    expect(formatSlotRange(slot('2026-11-23T08:00', '2026-11-23T02:30:00.000Z', '2026-11-23T04:30:00.000Z'), 'Asia/Kolkata')).toBe(
      '8:00 AM – 10:00 AM',
    );
    expect(formatSlotRange(slot('2026-11-23T16:00', '2026-11-23T10:30:00.000Z', '2026-11-23T12:30:00.000Z'), 'Asia/Kolkata')).toBe(
      '4:00 PM – 6:00 PM',
    );
    expect(formatSlotRange(slot('2026-11-23T10:00', '2026-11-23T04:30:00.000Z', '2026-11-23T06:30:00.000Z'), 'Asia/Kolkata')).toBe(
      '10:00 AM – 12:00 PM',
    );
  });

  it("finds today's date in the shop's time zone, not UTC's", () => {
    // 20:00Z on the 22nd is already 01:30 on the 23rd in India.
    expect(shopToday('Asia/Kolkata', new Date('2026-11-22T20:00:00Z'))).toBe('2026-11-23');
    expect(shopToday('UTC', new Date('2026-11-22T20:00:00Z'))).toBe('2026-11-22');
  });

  it('names today and tomorrow, and other days by weekday and date', () => {
    expect(formatSlotDay('2026-11-23', '2026-11-23')).toBe('Today');
    expect(formatSlotDay('2026-11-24', '2026-11-23')).toBe('Tomorrow');
    expect(formatSlotDay('2026-11-25', '2026-11-23')).toBe('Wed, 25 Nov');
    expect(formatSlotDay('2027-01-01', '2026-12-31')).toBe('Tomorrow');
  });
});

describe('slot notes and days', () => {
  it.each([
    [{ unavailable: 'full' as const, placesLeft: 0 }, 'Full'],
    [{ unavailable: 'closed' as const, placesLeft: 12 }, 'Closed'],
    [{ unavailable: null, placesLeft: 3 }, '3 left'],
    [{ unavailable: null, placesLeft: 5 }, '5 left'],
    [{ unavailable: null, placesLeft: 6 }, ''],
  ])('%o says %j', (state, note) => {
    expect(slotNote(state)).toBe(note);
  });

  it('groups slots by day in order, and marks a day with nothing left', () => {
    const days = slotsByDay([
      slot('2026-11-23T08:00', 'a', 'b', { unavailable: 'closed' }),
      slot('2026-11-23T16:00', 'a', 'b', { unavailable: 'full', placesLeft: 0 }),
      slot('2026-11-24T08:00', 'a', 'b'),
      slot('2026-11-24T10:00', 'a', 'b'),
    ]);
    expect(days.map((d) => [d.date, d.slots.length, d.open])).toEqual([
      ['2026-11-23', 2, false],
      ['2026-11-24', 2, true],
    ]);
  });
});
