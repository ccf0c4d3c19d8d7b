// Dates as a shopper in India reads them: '22 November 2026', in India's time zone.
const longDate = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' });

export const formatDate = (date: Date) => longDate.format(date);
