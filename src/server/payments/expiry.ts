// Expiring unpaid pay-now orders (issue 25): on a timer in every shop process (at start, then every 30 s), and for one
// order when it is read. services/payments.ts makes each expiry happen once, whichever process gets there first; this
// tells the caches what shelves the stock given back changed, as a cancel does, and whoever listens (the notices).
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { staleAfter } from '../cache/stale-after.ts';
import type { Database } from '../db/client.ts';
import { expireUnpaidOrders, type ExpiredOrder } from '../services/payments.ts';
import { closeRestockedAlerts } from '../services/stock-alerts.ts';
import { startRepeatingTask } from '../repeating-task.ts';

/** How often each shop process looks for unpaid orders past their time. */
export const EXPIRY_INTERVAL_MS = 30_000;

export interface ExpiryDeps {
  db: Database;
  stale: InvalidationBus;
  /** Told of each order the expiry cancelled (the notices: "cancelled, payment not received"). */
  onExpired?: (expired: ExpiredOrder) => void;
}

/** Expires what is due at `now` (or only the order `only`), then says which shelves changed. */
export async function expireAndPublish({ db, stale, onExpired }: ExpiryDeps, now: Date, only?: number): Promise<ExpiredOrder[]> {
  const expired = await expireUnpaidOrders(db, now, { only });
  for (const order of expired) {
    if (order.shelfChanged) {
      await stale.publish(staleAfter.shelfChanged(order.productIds));
      await closeRestockedAlerts(db, order.productIds);
    }
    onExpired?.(order);
  }
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
