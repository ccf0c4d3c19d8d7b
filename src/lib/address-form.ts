// The delivery address form's checks in the browser: the API's rules (src/server/order-schemas.ts, bounds from
// form-limits.ts) in the API's own words, so a shopper meets the same message before and after sending.
import type { AddressDto, AddressInput } from '../server/order-schemas.ts';
import { ADDRESS_LIMITS, ADDRESS_TYPE_VALUES, INDIAN_MOBILE_PATTERN, NO_CONTROL, NO_CONTROL_EXCEPT_LINES, normalizeIndianMobile, PINCODE_PATTERN } from './form-limits.ts';
import { INDIAN_STATES } from './indian-states.ts';

export const ADDRESS_FIELDS = ['name', 'phone', 'pincode', 'line1', 'line2', 'landmark', 'city', 'state', 'addressType', 'instructions'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressValues = Record<AddressField, string>;
export type AddressProblems = Partial<Record<AddressField, string>>;

/** How the API's messages name each field (they start with it: 'pincode must be 6 digits…'). */
const API_NAMES: Record<AddressField, string> = {
  name: 'name',
  phone: 'phone',
  pincode: 'pincode',
  line1: 'address line 1',
  line2: 'address line 2',
  landmark: 'landmark',
  city: 'city',
  state: 'state',
  addressType: 'address type',
  instructions: 'delivery instructions',
};

export type AddressType = (typeof ADDRESS_TYPE_VALUES)[number];
/** How the form and the saved address name each type. */
export const ADDRESS_TYPE_LABELS: Record<AddressType, string> = { home: 'Home', work: 'Work', other: 'Other' };

export const EMPTY_ADDRESS: AddressValues = { name: '', phone: '', pincode: '', line1: '', line2: '', landmark: '', city: '', state: '', addressType: 'home', instructions: '' };

export function addressValues(address: AddressDto): AddressValues {
  const { name, phone, pincode, line1, line2, landmark, city, state, addressType, instructions } = address;
  return { name, phone, pincode, line1, line2, landmark, city, state, addressType, instructions };
}

function textProblem(field: AddressField, value: string, min: number, max: number): string | null {
  const label = API_NAMES[field];
  if (!(field === 'instructions' ? NO_CONTROL_EXCEPT_LINES : NO_CONTROL).test(value)) return `${label} must not contain control characters`;
  const length = value.trim().length;
  if (min > 0 && length === 0) return `${label} is required`;
  if (length < min) return `${label} must be at least ${min} characters`;
  if (length > max) return `${label} must be at most ${max} characters`;
  return null;
}

/** Every field's problem (none: an empty object), in the form's order. */
export function addressProblems(values: AddressValues): AddressProblems {
  const { name, line, landmark, city } = ADDRESS_LIMITS;
  const problems: Partial<Record<AddressField, string | null>> = {
    name: textProblem('name', values.name, name.min, name.max),
    phone: !values.phone.trim()
      ? 'phone is required'
      : INDIAN_MOBILE_PATTERN.test(normalizeIndianMobile(values.phone))
        ? null
        : 'phone must be a 10-digit Indian mobile number',
    pincode: !values.pincode.trim()
      ? 'pincode is required'
      : PINCODE_PATTERN.test(values.pincode.trim())
        ? null
        : 'pincode must be 6 digits and cannot start with 0',
    line1: textProblem('line1', values.line1, line.min, line.max),
    line2: textProblem('line2', values.line2, 0, line.max),
    landmark: textProblem('landmark', values.landmark, 0, landmark.max),
    city: textProblem('city', values.city, city.min, city.max),
    state: (INDIAN_STATES as readonly string[]).includes(values.state)
      ? null
      : values.state.trim()
        ? 'state must be one of the states or union territories of India'
        : 'state is required',
    addressType: (ADDRESS_TYPE_VALUES as readonly string[]).includes(values.addressType) ? null : "address type must be 'home', 'work' or 'other'",
    instructions: textProblem('instructions', values.instructions, 0, ADDRESS_LIMITS.instructions.max),
  };
  return Object.fromEntries(Object.entries(problems).filter(([, problem]) => problem)) as AddressProblems;
}

/** The field an API message is about, by the name it starts with; null for a message about the whole form. */
export function fieldOfAddressMessage(message: string): AddressField | null {
  // Longest names first: 'address line 1' before any shorter name it might start with.
  const match = ADDRESS_FIELDS.filter((field) => message.startsWith(`${API_NAMES[field]} `)).sort(
    (a, b) => API_NAMES[b].length - API_NAMES[a].length,
  )[0];
  return match ?? null;
}

/** What the API is sent: the text trimmed (the API trims too). */
export function addressInput(values: AddressValues, isDefault = false): AddressInput {
  return {
    name: values.name.trim(),
    phone: values.phone.trim(),
    pincode: values.pincode.trim(),
    line1: values.line1.trim(),
    line2: values.line2.trim(),
    landmark: values.landmark.trim(),
    city: values.city.trim(),
    state: values.state as AddressInput['state'],
    addressType: values.addressType as AddressType,
    instructions: values.instructions.trim(),
    isDefault,
  };
}

/** A message as a sentence: the API's start with the field's name in lower case. */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** How far a text is from its limit: '87 / 120', or '73 characters too many' (never cut without a word). */
export function characterCount(value: string, max: number): { text: string; over: boolean } {
  const length = value.trim().length;
  return length > max ? { text: `${length - max} ${length - max === 1 ? 'character' : 'characters'} too many (${length} / ${max})`, over: true } : { text: `${length} / ${max}`, over: false };
}

/** One line for a saved address in a list or a summary. */
export function addressLine(address: Pick<AddressDto, 'line1' | 'line2' | 'landmark' | 'city' | 'state' | 'pincode'>): string {
  return [address.line1, address.line2, address.landmark, address.city, `${address.state} ${address.pincode}`]
    .filter(Boolean)
    .join(', ');
}
