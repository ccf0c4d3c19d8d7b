// Dates as a shopper in India reads them: '22 November 2026', in India's time zone.
const longDate = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' });

export const formatDate = (date: Date) => longDate.format(date);

/** When something happened to an order: '23 Nov 2026, 6:34 am'. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}
