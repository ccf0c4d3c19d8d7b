// Delivery slots (issue 11): the next few days in slots of a few hours inside the delivery hours of
// src/content/settings/store.yaml, written and chosen in the shop's time zone whatever the server's clock zone is.
import { inArray, sql } from 'drizzle-orm';
import type { SlotDto, SlotListDto } from '../order-schemas.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import type { Database } from '../db/client.ts';
import { deliverySlots } from '../db/schema.ts';

export type DeliveryRules = StoreSettingsData['delivery'];

/** A slot the rules offer at a moment: started ones are not offered; one inside its cut-off is offered but closed. */
export interface OfferedSlot {
  id: string;
  date: string;
  startsAt: Date;
  endsAt: Date;
  closed: boolean;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at an instant, as the UTC instant with the same digits (ms dropped). */
function wallClockAsUtc(instant: number, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/**
 * The instant at which the clocks of `timeZone` show this date and minute of the day. The zone's offset is read at a
 * first guess and again at the answer, so a day on which the offset changes (summer time) is right too.
 */
export function zonedInstant(date: string, minuteOfDay: number, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, 0, minuteOfDay);
  const offsetAt = (instant: number) => wallClockAsUtc(instant, timeZone) - Math.floor(instant / 1000) * 1000;
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}

/** 'YYYY-MM-DD' of the day `days` after the shop's today. */
export function shopDate(now: Date, days: number, timeZone: string): string {
  const today = new Date(wallClockAsUtc(now.getTime(), timeZone));
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days)).toISOString().slice(0, 10);
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The slots the rules offer at `now`, earliest first. */
export function offeredSlots(rules: DeliveryRules, now: Date): OfferedSlot[] {
  const slots: OfferedSlot[] = [];
  const length = rules.slotHours * 60;
  const closesAt = now.getTime() + rules.cutoffMinutes * 60_000;
  for (let day = 0; day <= rules.daysAhead; day++) {
    const date = shopDate(now, day, rules.timeZone);
    for (let start = minutesOf(rules.from); start + length <= minutesOf(rules.to); start += length) {
      const startsAt = zonedInstant(date, start, rules.timeZone);
      if (startsAt.getTime() <= now.getTime()) continue;
      slots.push({
        id: `${date}T${clockOf(start)}`,
        date,
        startsAt,
        endsAt: zonedInstant(date, start + length, rules.timeZone),
        closed: startsAt.getTime() <= closesAt,
      });
    }
  }
  return slots;
}

/** Makes the slots' rows (capacity from the rules) where they do not exist yet; existing rows keep their counts. */
export async function ensureSlotRows(db: Database, rules: DeliveryRules, slots: OfferedSlot[]): Promise<void> {
  if (slots.length === 0) return;
  await db
    .insert(deliverySlots)
    .values(slots.map((s) => ({ id: s.id, startsAt: s.startsAt, endsAt: s.endsAt, capacity: rules.capacity })))
    .onConflictDoNothing({ target: deliverySlots.id });
}

/** The slots a shopper can see at checkout, with the places left in each. */
export async function listSlots(db: Database, rules: DeliveryRules, now: Date): Promise<SlotListDto> {
  const offered = offeredSlots(rules, now);
  await ensureSlotRows(db, rules, offered);
  const rows =
    offered.length === 0
      ? []
      : await db
          .select({ id: deliverySlots.id, placesLeft: sql<number>`greatest(${deliverySlots.capacity} - ${deliverySlots.taken}, 0)::int` })
          .from(deliverySlots)
          .where(
            inArray(
              deliverySlots.id,
              offered.map((s) => s.id),
            ),
          );
  const placesLeft = new Map(rows.map((r) => [r.id, r.placesLeft]));
  const slots: SlotDto[] = offered.map((s) => {
    const left = placesLeft.get(s.id) ?? 0;
    return {
      id: s.id,
      date: s.date,
      startsAt: s.startsAt.toISOString(),
      endsAt: s.endsAt.toISOString(),
      placesLeft: left,
      unavailable: s.closed ? 'closed' : left === 0 ? 'full' : null,
    };
  });
  return { timeZone: rules.timeZone, slots };
}
