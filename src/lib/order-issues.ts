// What a shopper may report about a delivered order's line (issue 25), in one place for the API's checks, the order
// page's form and the grocer's list: the kinds and their words, the note's bound, the photo's limit, and how an
// outcome reads to the shopper.
import { formatExactRupees } from './money.ts';

export const ISSUE_KIND_LABELS = {
  missing: 'Missing',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  quality: 'Quality',
} as const;
export type IssueKindValue = keyof typeof ISSUE_KIND_LABELS;
export const ISSUE_KIND_VALUES = Object.keys(ISSUE_KIND_LABELS) as [IssueKindValue, ...IssueKindValue[]];

/** The note is optional and one short paragraph: what is wrong, in the shopper's words. */
export const ISSUE_NOTE_LIMITS = { min: 0, max: 500 } as const;
/** The grocer's note when settling: one sentence the shopper reads. */
export const SETTLE_NOTE_LIMITS = { min: 0, max: 200 } as const;

/** A shopper's photo of the item: phone photos are a few MB; the grocer's pictures may be 25 MB, a shopper's less. */
export const MAX_ISSUE_PHOTO_BYTES = 10 * 1024 * 1024;
export const ISSUE_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** "25 Dec": the day the return window closes (or closed), in the shop's time zone. */
export function shortDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone }).format(new Date(iso));
}

/** When a delivered order's return window ends: `returnDays` days after its delivery. */
export function returnsUntilOf(deliveredAt: string | Date, returnDays: number): string {
  return new Date(new Date(deliveredAt).getTime() + returnDays * 24 * 60 * 60 * 1000).toISOString();
}

export const returnsClosedText = (until: string, timeZone: string) => `Returns closed on ${shortDay(until, timeZone)}`;

/** How a report reads to the shopper: still open, refunded (the line's total) or a replacement on its way. */
export function issueOutcomeText(
  issue: { outcome: 'open' | 'refunded' | 'replaced'; settledAt: string | null; refundPaise: number | null },
  timeZone: string,
): string {
  if (issue.outcome === 'refunded') {
    const on = issue.settledAt ? ` settled on ${shortDay(issue.settledAt, timeZone)}` : ' settled';
    return `Refund of ${formatExactRupees(issue.refundPaise ?? 0)}${on}`;
  }
  if (issue.outcome === 'replaced') return 'A replacement is on its way';
  return 'Reported: the shop will get back to you';
}
