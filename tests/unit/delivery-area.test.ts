// PIN codes and ranges of store.yaml's serviceable area (issue 25), the schema's words for a grocer's mistake, and
// the slots starting today when the cut-off allows.
import { describe, expect, it } from 'vitest';
import { deliverToLabel, groupOfPin, parsePinEntry, pinInEntries, shortSlotLabel } from '../../src/lib/delivery-area.ts';
import { areaGroupSchema } from '../../src/lib/store-settings-schema.ts';
import { offeredSlots, type DeliveryRules } from '../../src/server/services/slots.ts';

describe('PIN entries', () => {
  it('reads a single code and a range, spaces around the dash forgiven', () => {
    expect(parsePinEntry('560034')).toEqual({ first: 560034, last: 560034 });
    expect(parsePinEntry('560001-560099')).toEqual({ first: 560001, last: 560099 });
    expect(parsePinEntry(' 560001 - 560099 ')).toEqual({ first: 560001, last: 560099 });
  });

  it('refuses five digits, a leading 0, a backwards range and words', () => {
    for (const entry of ['56001', '060001', '560099-560001', 'Jayanagar', '560001-', '560001-5600999']) {
      expect(parsePinEntry(entry), entry).toBeNull();
    }
  });

  it('finds a PIN in a range, at its ends, and not beside it', () => {
    const entries = ['560001-560099', '560110'];
    expect(pinInEntries('560001', entries)).toBe(true);
    expect(pinInEntries('560099', entries)).toBe(true);
    expect(pinInEntries('560110', entries)).toBe(true);
    expect(pinInEntries('560100', entries)).toBe(false);
    expect(pinInEntries('110024', entries)).toBe(false);
    expect(pinInEntries('5600341', entries)).toBe(false);
  });

  it('takes the first group holding the PIN', () => {
    const groups = [
      { name: 'Near', pincodes: ['560034'] },
      { name: 'City', pincodes: ['560001-560099'] },
    ];
    expect(groupOfPin('560034', groups)?.name).toBe('Near');
    expect(groupOfPin('560035', groups)?.name).toBe('City');
    expect(groupOfPin('110017', groups)).toBeUndefined();
  });

  it('names a grocer’s bad entry in the settings check', () => {
    const parsed = areaGroupSchema.safeParse({ name: 'Bad', pincodes: ['56001'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^area: a PIN code is 6 digits/);
    expect(areaGroupSchema.parse({ name: 'Good', pincodes: ['560001-560099'] })).toMatchObject({ minimumOrderRupees: 0 });
  });
});

describe('slots at fixed clocks in Kolkata', () => {
  const delivery: DeliveryRules = { from: '08:00', to: '18:00', slotHours: 2, daysAhead: 1, capacity: 20, cutoffMinutes: 60, timeZone: 'Asia/Kolkata' };

  it('at 9 a.m. offers today’s remaining slots first: 10:00 closed, 12:00 open', () => {
    const slots = offeredSlots(delivery, new Date('2026-11-23T03:30:00Z'));
    expect(slots.slice(0, 4).map((s) => [s.id, s.closed])).toEqual([
      ['2026-11-23T10:00', true],
      ['2026-11-23T12:00', false],
      ['2026-11-23T14:00', false],
      ['2026-11-23T16:00', false],
    ]);
  });

  it('at 6 a.m. offers today’s 8:00 slot', () => {
    expect(offeredSlots(delivery, new Date('2026-11-23T00:30:00Z'))[0]).toMatchObject({ id: '2026-11-23T08:00', closed: false });
  });

  it('starts tomorrow only once today’s last slot has closed (after 15:00)', () => {
    const slots = offeredSlots(delivery, new Date('2026-11-23T09:45:00Z'));
    expect(slots[0]).toMatchObject({ id: '2026-11-23T16:00', closed: true });
    expect(slots.find((s) => !s.closed)?.id).toBe('2026-11-24T08:00');
  });
});

describe('the header’s words', () => {
  const now = new Date('2026-11-23T03:30:00Z');
  const slot = (id: string, startsAt: string, endsAt: string) => ({ id, startsAt, endsAt });
  it('says the PIN and the next slot, today or tomorrow, in the shop’s clock', () => {
    const evening = slot('2026-11-23T18:00', '2026-11-23T12:30:00Z', '2026-11-23T14:30:00Z');
    expect(deliverToLabel({ pincode: '560034', served: true, nextSlot: evening, timeZone: 'Asia/Kolkata' }, now)).toBe(
      'Deliver to 560034 · next slot today 6–8 pm',
    );
    const noon = slot('2026-11-24T11:00', '2026-11-24T05:30:00Z', '2026-11-24T07:30:00Z');
    expect(shortSlotLabel(noon, 'Asia/Kolkata', now)).toBe('tomorrow 11 am–1 pm');
    const later = slot('2026-11-25T08:30', '2026-11-25T03:00:00Z', '2026-11-25T05:00:00Z');
    expect(shortSlotLabel(later, 'Asia/Kolkata', now)).toBe('Wed 8:30–10:30 am');
  });

  it('says plainly when the PIN is outside the area, and leaves the slot out when none is open', () => {
    expect(deliverToLabel({ pincode: '110024', served: false, nextSlot: null, timeZone: 'Asia/Kolkata' }, now)).toBe("We don't deliver to 110024 yet.");
    expect(deliverToLabel({ pincode: '560034', served: true, nextSlot: null, timeZone: 'Asia/Kolkata' }, now)).toBe('Deliver to 560034');
  });
});
