// The address form's browser checks refuse what the API's schema refuses, in the API's words, so a shopper meets
// one message for one mistake whichever side finds it.
import { describe, expect, it } from 'vitest';
import { addressInput, addressProblems, characterCount, fieldOfAddressMessage, type AddressValues } from '../../src/lib/address-form.ts';
import { AddressInputSchema } from '../../src/server/order-schemas.ts';

const good: AddressValues = {
  name: 'Meera Iyer',
  phone: '98450 12345',
  pincode: '560038',
  line1: '12, 3rd Cross, Indiranagar',
  line2: '',
  landmark: 'Near the temple',
  city: 'Bengaluru',
  state: 'Karnataka',
  addressType: 'home',
  instructions: '',
};

describe('address checks', () => {
  it('accepts a good address, as the API does', () => {
    expect(addressProblems(good)).toEqual({});
    expect(AddressInputSchema.safeParse(addressInput(good)).success).toBe(true);
  });

  it.each([
    ['pincode', '056003'],
    ['pincode', '56003'],
    ['pincode', '5600381'],
    ['pincode', '56a038'],
    ['phone', '12345'],
    ['phone', '5845012345'],
    ['name', 'M'],
    ['name', 'M'.repeat(61)],
    ['line1', 'ab'],
    ['line1', 'Flat 1\u001b[31m'],
    ['line2', 'x'.repeat(121)],
    ['landmark', 'x'.repeat(81)],
    ['city', 'B'],
    ['state', 'Atlantis'],
    ['line1', 'x'.repeat(193)],
    ['instructions', 'x'.repeat(201)],
    ['addressType', 'office'],
  ] as const)('refuses %s %j with the message the API gives', (field, value) => {
    const values = { ...good, [field]: value };
    const problems = addressProblems(values);
    expect(Object.keys(problems)).toEqual([field]);
    const parsed = AddressInputSchema.safeParse({ ...addressInput(good), [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain(problems[field]);
    // An API refusal goes back to the same field.
    expect(fieldOfAddressMessage(problems[field]!)).toBe(field);
  });

  it('says a required field is required, and refuses what the API refuses', () => {
    for (const field of ['name', 'phone', 'pincode', 'line1', 'city', 'state'] as const) {
      const values = { ...good, [field]: '  ' };
      expect(addressProblems(values)[field], field).toMatch(/is required$/);
      expect(AddressInputSchema.safeParse({ ...addressInput(good), [field]: values[field] }).success, field).toBe(false);
    }
  });

  it('accepts a mobile written with +91, spaces or dashes, as the API does', () => {
    for (const phone of ['+91 98450 12345', '098450-12345', '9845012345']) {
      expect(addressProblems({ ...good, phone })).toEqual({});
      expect(AddressInputSchema.safeParse(addressInput({ ...good, phone })).success).toBe(true);
    }
  });

  it('finds the field of an API message, or none', () => {
    expect(fieldOfAddressMessage('address line 2 must be at most 120 characters')).toBe('line2');
    expect(fieldOfAddressMessage('You can keep up to 10 addresses')).toBeNull();
  });

  it('keeps the type and the instructions (lines allowed), as the API does', () => {
    const values = { ...good, addressType: 'work', instructions: 'Ring twice.\nLeave with the guard.' };
    expect(addressProblems(values)).toEqual({});
    expect(AddressInputSchema.parse(addressInput(values))).toMatchObject({ addressType: 'work', instructions: 'Ring twice.\nLeave with the guard.' });
  });

  it('counts towards a limit and says how far past it a 193-character line is, never cutting it', () => {
    expect(characterCount('x'.repeat(87), 120)).toEqual({ text: '87 / 120', over: false });
    expect(characterCount('x'.repeat(193), 120)).toEqual({ text: '73 characters too many (193 / 120)', over: true });
    expect(addressProblems({ ...good, line1: 'x'.repeat(193) }).line1).toBe('address line 1 must be at most 120 characters');
  });
});
