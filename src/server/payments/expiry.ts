// Expiring unpaid pay-now orders (issue 25): on a timer in every shop process (at start, then every 30 s), and for one
// order when it is read. services/payments.ts makes each expiry happen once, whichever process gets there first; what
// follows it (the caches told of the shelves the stock given back changed, restock alerts, the notice) is the order
// writes' own (services/after-write.ts), as after any cancel.
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import type { Database } from '../db/client.ts';
import type { ExpiredOrder } from '../services/payments.ts';
import { orderWrites } from '../services/after-write.ts';
import type { OrderNotices } from '../services/notices.ts';
import { startRepeatingTask } from '../repeating-task.ts';

/** How often each shop process looks for unpaid orders past their time. */
export const EXPIRY_INTERVAL_MS = 30_000;

export interface ExpiryDeps {
  db: Database;
  stale: InvalidationBus;
  /** The outbox's sender ("cancelled, payment not received"); none: the recorded notices wait for a shop's drainer. */
  notices?: OrderNotices;
  /** Told of each order the expiry cancelled. */
  onExpired?: (expired: ExpiredOrder) => void;
}

/** Expires what is due at `now` (or only the order `only`), each followed by what follows a cancel. */
export async function expireAndPublish({ onExpired, ...deps }: ExpiryDeps, now: Date, only?: number): Promise<ExpiredOrder[]> {
  const expired = await orderWrites(deps).expireUnpaid(now, only);
  for (const order of expired) onExpired?.(order);
  return expired;
}

/**
 * Runs the expiry now and then every `intervalMs` (tests give their own clock and interval); one run at a time. A run
 * that fails (the database out of reach) is reported and the next one tries again. Returns the stop.
 */
export function startPaymentExpiry(
  deps: ExpiryDeps & { logError: (error: unknown) => void },
  { intervalMs = EXPIRY_INTERVAL_MS, now = () => new Date() }: { intervalMs?: number; now?: () => Date } = {},
): () => Promise<void> {
  return startRepeatingTask(() => expireAndPublish(deps, now()), intervalMs, deps.logError);
}
