// Paying now by UPI (issue 25): a pay-now order awaits its payment until someone confirms it arrived (the grocer,
// `npm run orders -- paid 12`; later a gateway's webhook: docs/payments.md), or until its time runs out, when it is
// cancelled like any other cancel (releaseOrder: its stock and slot place go back). Both hold the order's row while
// they decide, and each changes the order only while it still awaits its payment: with several shop processes on one
// PostgreSQL an order expires once, and a payment confirmed at the same moment either wins (the order is paid and
// never expires) or loses (the order has expired and the payment is refused), never both.
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { withTransactionRetry } from '../db/retry.ts';
import { orderLines, orders } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import { releaseOrder } from './orders.ts';
import { recordNotice } from './notices.ts';

/** The reason an expired order gives the shopper (and its notices). */
export const PAYMENT_EXPIRED_REASON = 'Payment not received in time';

/** What confirming a payment did: 'paid' now, or it was already (confirming twice changes nothing). */
export interface ConfirmedPayment {
  orderId: number;
  outcome: 'paid' | 'already_paid';
  paidAt: Date;
}

/** An order the expiry cancelled: what a notice needs, and the products whose shelves may show it. */
export interface ExpiredOrder {
  orderId: number;
  userId: number;
  productIds: number[];
  /** The catalogue pages show a different shelf (a sold-out product is back): their caches must forget it. */
  shelfChanged: boolean;
}

const noSuchOrder = (id: number) => notFound(`There is no order ${id}`);

/**
 * Marks an order's payment as received. Only an order awaiting its payment can be paid; paid already: answered again
 * as 'already_paid'. Cash or UPI on delivery, expired, or cancelled (by the shopper or the shop): 409, saying why.
 * A confirmation that comes after the deadline but before the expiry ran wins: the money is there, the order still
 * holds its stock and slot.
 */
export async function confirmPayment(db: Database, orderId: number, { now = new Date() }: { now?: Date } = {}): Promise<ConfirmedPayment> {
  return withTransactionRetry(() =>
    db.transaction(async (tx) => {
      const [order] = await tx
        .select({ status: orders.status, paymentStatus: orders.paymentStatus, paymentMethod: orders.paymentMethod, paidAt: orders.paidAt })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for('update');
      if (!order) throw noSuchOrder(orderId);
      if (order.paymentStatus === 'paid') return { orderId, outcome: 'already_paid' as const, paidAt: order.paidAt ?? now };
      if (order.paymentStatus === 'on_delivery') {
        const how = order.paymentMethod === 'cash' ? 'cash' : 'UPI';
        throw conflict(`Order ${orderId} is paid on delivery (${how}): there is no payment to confirm now.`);
      }
      if (order.paymentStatus === 'expired') {
        throw conflict(
          `Order ${orderId} was not paid in time: it is cancelled and its stock and slot are given back. If the money arrived, refund it or ask the shopper to order again.`,
        );
      }
      if (order.status === 'cancelled') {
        throw conflict(`Order ${orderId} is cancelled: its payment cannot be confirmed. If the money arrived, refund it.`);
      }
      await tx.update(orders).set({ paymentStatus: 'paid', paidAt: now }).where(eq(orders.id, orderId));
      await recordNotice(tx, orderId, 'payment_confirmed');
      return { orderId, outcome: 'paid' as const, paidAt: now };
    }),
  );
}

/** How many expired orders one run cancels at most; the next run takes the rest. */
const EXPIRE_BATCH = 100;

/**
 * Cancels the pay-now orders still unpaid at `now` past their deadline (all, or the one `only` names: an order being
 * read), each in its own transaction, as a cancel does: reason "Payment not received in time", cancelled by
 * 'payment_expired', its stock and slot place given back. Returns what it cancelled; the caller publishes the stale
 * shelves and sends the notices.
 */
export async function expireUnpaidOrders(db: Database, now: Date, { only }: { only?: number } = {}): Promise<ExpiredOrder[]> {
  const due = and(eq(orders.paymentStatus, 'awaiting'), eq(orders.status, 'placed'), lte(orders.paymentDueAt, now));
  const candidates = await db
    .select({ id: orders.id })
    .from(orders)
    .where(only === undefined ? due : and(due, eq(orders.id, only)))
    .orderBy(asc(orders.paymentDueAt), asc(orders.id))
    .limit(EXPIRE_BATCH);
  const expired: ExpiredOrder[] = [];
  for (const { id } of candidates) {
    const done = await withTransactionRetry(() =>
      db.transaction(async (tx) => {
        // Again under the row's lock: another process, or a payment, may have settled it since the look above.
        const [order] = await tx
          .select({ id: orders.id, userId: orders.userId, slotId: orders.slotId })
          .from(orders)
          .where(and(eq(orders.id, id), due))
          .for('update');
        if (!order) return undefined;
        await tx.update(orders).set({ paymentStatus: 'expired' }).where(eq(orders.id, id));
        const shelfChanged = await releaseOrder(tx, order, 'payment_expired', PAYMENT_EXPIRED_REASON);
        const lines = await tx.select({ productId: orderLines.productId }).from(orderLines).where(eq(orderLines.orderId, id));
        return { orderId: id, userId: order.userId, productIds: [...new Set(lines.map((l) => l.productId))], shelfChanged };
      }),
    );
    if (done) expired.push(done);
  }
  return expired;
}
