// The shop's serviceable area (store.yaml's `area`): PIN codes written one by one ("560034") or as ranges
// ("560001-560099"), in groups that may set their own fee, minimum order and slots. Pure rules, so the settings
// schema, the API and the /deliver-to page read a PIN the same way.
import { PINCODE_PATTERN } from './form-limits.ts';

/** One entry of a group's `pincodes`: a PIN or 'first-last', both six digits not starting with 0. */
export const PIN_ENTRY_PATTERN = /^([1-9]\d{5})(?:\s*-\s*([1-9]\d{5}))?$/;

export interface PinRange {
  first: number;
  last: number;
}

/** An entry as a range ('560034' is 560034–560034); null when it is not a PIN, a range, or runs backwards. */
export function parsePinEntry(entry: string): PinRange | null {
  const match = PIN_ENTRY_PATTERN.exec(entry.trim());
  if (!match) return null;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return last >= first ? { first, last } : null;
}

/** Whether a PIN falls in any of the entries (entries already checked by the settings schema). */
export function pinInEntries(pincode: string, entries: readonly string[]): boolean {
  if (!PINCODE_PATTERN.test(pincode)) return false;
  const pin = Number(pincode);
  return entries.some((entry) => {
    const range = parsePinEntry(entry);
    return range !== null && pin >= range.first && pin <= range.last;
  });
}

/** The first group whose entries hold the PIN (groups are read top to bottom), or undefined outside the area. */
export function groupOfPin<G extends { pincodes: readonly string[] }>(pincode: string, groups: readonly G[]): G | undefined {
  return groups.find((group) => pinInEntries(pincode, group.pincodes));
}

/** What a shopper is told about a PIN outside the area. */
export const notDeliveredTo = (pincode: string) => `We don't deliver to ${pincode} yet.`;
