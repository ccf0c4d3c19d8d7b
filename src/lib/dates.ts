// Dates as a shopper in India reads them: '22 November 2026', in India's time zone.
const longDate = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' });

export const formatDate = (date: Date) => longDate.format(date);

/** When something happened to an order: '23 Nov 2026, 6:34 am'. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

/** When an order was delivered or cancelled, short: 'Thu, 26 Nov, 10:42' (24-hour clock, the shop's time zone). */
export function formatEventTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')}, ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')}`;
}
