// Dates as a shopper in India reads them: '22 November 2026', in India's time zone.
const longDate = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' });

export const formatDate = (date: Date) => longDate.format(date);

/** A delivery slot as a shopper reads it, in the shop's time zone whatever their clock says: 'Mon, 23 Nov, 8:00 – 10:00 am'. */
export function formatSlot(slot: { startsAt: string; endsAt: string }, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone });
  return format.formatRange(new Date(slot.startsAt), new Date(slot.endsAt));
}

/** When something happened to an order: '23 Nov 2026, 6:34 am'. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}
