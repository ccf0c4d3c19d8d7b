// Delivery slots as the checkout shows them: grouped by day, each as '8:00 AM – 10:00 AM' in the shop's time zone
// (the API's `timeZone`, whatever the shopper's clock says), with why it cannot be chosen or how few places are left.
import type { SlotDto } from '../server/order-schemas.ts';

/** At or under this many places left, a slot says so ('3 left'). */
export const FEW_PLACES = 5;

const timeFormats = new Map<string, Intl.DateTimeFormat>();

function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone });
    timeFormats.set(timeZone, format);
  }
  return format;
}

/** '8:00 AM': en-IN writes 'am' (and ICU versions differ in the space before it), so both are set here. */
export function formatSlotTime(iso: string, timeZone: string): string {
  return timeFormat(timeZone)
    .formatToParts(new Date(iso))
    .map((part) => (part.type === 'dayPeriod' ? part.value.toUpperCase() : part.type === 'literal' ? part.value.replace(/\s+/gu, ' ') : part.value))
    .join('');
}

/** '8:00 AM – 10:00 AM'. */
export function formatSlotRange(slot: Pick<SlotDto, 'startsAt' | 'endsAt'>, timeZone: string): string {
  return `${formatSlotTime(slot.startsAt, timeZone)} – ${formatSlotTime(slot.endsAt, timeZone)}`;
}

/** A chosen slot, day and times: 'Tomorrow, 8:00 AM – 10:00 AM' or 'Mon, 23 Nov, 8:00 AM – 10:00 AM'. */
export function formatSlotWhen(slot: Pick<SlotDto, 'id' | 'startsAt' | 'endsAt'>, timeZone: string, today: string = shopToday(timeZone)): string {
  // A slot's id is its local start, 'YYYY-MM-DDTHH:MM': its first ten characters are its day.
  return `${formatSlotDay(slot.id.slice(0, 10), today)}, ${formatSlotRange(slot, timeZone)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A slot's `date` ('2026-11-23', already in the shop's time zone): 'Today', 'Tomorrow' or 'Wed, 25 Nov'. */
export function formatSlotDay(date: string, today: string): string {
  if (date === today) return 'Today';
  if (dayNoon(date) - dayNoon(today) === 86_400_000) return 'Tomorrow';
  return formatDay(date);
}

/** A date ('2026-11-23', in the shop's time zone) as 'Mon, 23 Nov'. */
export const formatDay = (date: string) => dayFormat.format(dayNoon(date));

function dayNoon(date: string): number {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return Date.UTC(y, m - 1, d, 12);
}

/** Today's date in the shop's time zone, as slot dates are written ('2026-11-23'). */
export function shopToday(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(now);
}

export interface SlotDay {
  date: string;
  slots: SlotDto[];
  /** Some slot of the day can still be chosen. */
  open: boolean;
}

/** The slots by day, in the order the API sends them. */
export function slotsByDay(slots: SlotDto[]): SlotDay[] {
  const days: SlotDay[] = [];
  for (const slot of slots) {
    let day = days.at(-1);
    if (day?.date !== slot.date) {
      day = { date: slot.date, slots: [], open: false };
      days.push(day);
    }
    day.slots.push(slot);
    if (slot.unavailable === null) day.open = true;
  }
  return days;
}

/** What a slot says beside its time: 'Full', 'Closed', '3 left', or nothing. */
export function slotNote(slot: Pick<SlotDto, 'unavailable' | 'placesLeft'>): string {
  if (slot.unavailable === 'full') return 'Full';
  if (slot.unavailable === 'closed') return 'Closed';
  return slot.placesLeft <= FEW_PLACES ? `${slot.placesLeft} left` : '';
}
