// The shop's serviceable area (store.yaml's `area`): PIN codes written one by one ("560034") or as ranges
// ("560001-560099"), in groups that may set their own fee, minimum order and slots. Pure rules, so the settings
// schema, the API and the /deliver-to page read a PIN the same way.
import { PINCODE_PATTERN } from './form-limits.ts';
import { formatRupees } from './money.ts';

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

/** What the header and /deliver-to keep of a PIN's answer (localStorage 'deliveryPin'). */
export interface KeptDeliveryPin {
  pincode: string;
  served: boolean;
  nextSlot: { id: string; startsAt: string; endsAt: string } | null;
  timeZone: string;
  /** When the answer was asked for (ms): the next slot moves as the day goes on. */
  checkedAt: number;
}

export const DELIVERY_PIN_KEY = 'deliveryPin';

/** '6 pm', '10:30 am': the hour and its half of the day, in the shop's zone. */
function clockParts(iso: string, timeZone: string): { time: string; period: string } {
  const parts = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const minute = part('minute');
  return { time: minute === '00' ? part('hour') : `${part('hour')}:${minute}`, period: part('dayPeriod').toLowerCase().replace(/\./g, '') };
}

/** A slot as the header says it: 'today 6–8 pm', 'tomorrow 11 am–1 pm', 'Wed 8–10 am'. */
export function shortSlotLabel(slot: { id: string; startsAt: string; endsAt: string }, timeZone: string, now: Date = new Date()): string {
  const today = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(now);
  const date = slot.id.slice(0, 10);
  const dayAfter = (d: string) => new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const day =
    date === today
      ? 'today'
      : date === dayAfter(today)
        ? 'tomorrow'
        : new Intl.DateTimeFormat('en-IN', { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
  const start = clockParts(slot.startsAt, timeZone);
  const end = clockParts(slot.endsAt, timeZone);
  const from = start.period === end.period ? start.time : `${start.time} ${start.period}`;
  return `${day} ${from}–${end.time} ${end.period}`;
}

/** The header's words for a kept PIN: 'Deliver to 560034 · next slot today 6–8 pm', or the refusal. */
export function deliverToLabel(kept: Pick<KeptDeliveryPin, 'pincode' | 'served' | 'nextSlot' | 'timeZone'>, now: Date = new Date()): string {
  if (!kept.served) return notDeliveredTo(kept.pincode);
  const next = kept.nextSlot ? ` · next slot ${shortSlotLabel(kept.nextSlot, kept.timeZone, now)}` : '';
  return `Deliver to ${kept.pincode}${next}`;
}

/** The PIN this browser was told is served (for a new address at checkout), else the account's, else ''. */
export function keptPincode(accountPincode?: string | null): string {
  try {
    const kept = JSON.parse(localStorage.getItem(DELIVERY_PIN_KEY) ?? 'null') as KeptDeliveryPin | null;
    if (kept?.served) return kept.pincode;
  } catch {
    // Nothing kept, or no storage.
  }
  return accountPincode ?? '';
}

/** The words for an order under its area's minimum (the server's refusal, and the checkout's note before it). */
export const belowMinimumText = (pincode: string, minimumPaise: number, subtotalPaise: number) =>
  `The smallest order we deliver to ${pincode} is ${formatRupees(minimumPaise)}; please add ${formatRupees(minimumPaise - subtotalPaise)} more.`;

/** A summary with the delivery fee of the address's area in place of the offers' (an empty cart pays none). */
export function withDeliveryFee<S extends { itemCount: number; deliveryPaise: number; totalPaise: number }>(summary: S, feePaise: number | undefined): S {
  if (feePaise === undefined) return summary;
  const deliveryPaise = summary.itemCount === 0 ? 0 : feePaise;
  return { ...summary, deliveryPaise, totalPaise: summary.totalPaise - summary.deliveryPaise + deliveryPaise };
}
