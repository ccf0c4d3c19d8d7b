// How often an open order page and Order Tracking ask for news (issue 25's live status): every 5 s at first, twice as
// long after each answer that changed nothing, up to a minute; back to 5 s after a change. Polling rather than
// Server-Sent Events: no connection held open per shopper on a small server, and it works through any proxy and
// across the shop's processes without the invalidation bus (docs/spec-notes.md).
import type { OrderDto } from '../server/order-schemas.ts';

export const POLL_FIRST_MS = 5_000;
export const POLL_LONGEST_MS = 60_000;

/** The wait before the next poll, after one that waited `previousMs` and did or did not bring a change. */
export function nextPollDelay(previousMs: number, changed: boolean): number {
  if (changed) return POLL_FIRST_MS;
  return Math.min(POLL_LONGEST_MS, Math.max(POLL_FIRST_MS, previousMs * 2));
}

/** Delivered and cancelled orders change no more: nothing to poll for. */
export const isSettledStatus = (status: OrderDto['status']) => status === 'delivered' || status === 'cancelled';
