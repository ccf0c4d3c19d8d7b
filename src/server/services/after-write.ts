// What follows a committed write, decided once (issue 33), whoever called it: a shopper's route, the grocer's routes,
// `npm run orders` / `npm run import` on a stopped shop or straight on PostgreSQL, the payment expiry's timer. Every
// order write goes through `orderWrites`: the service writes (its transaction records the step's notice, the outbox:
// services/notices.ts), then `afterOrderWrite` tells every instance's caches what went stale, closes the restock alerts
// of what came back on the shelf and sends the notice now (the outbox's drainer sends it later if this process dies
// first). The pattern is Saleor's and vercel/commerce's: the writer announces its change, the callers only call.
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { staleAfter } from '../cache/stale-after.ts';
import type { Database } from '../db/client.ts';
import { orderLines } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import { advanceOrder, cancelOrderByShop } from './grocer.ts';
import { importCatalogue, type ImportOptions } from './import.ts';
import { NO_NOTICES, type NoticeEvent, type OrderNotices } from './notices.ts';
import { cancelOrder, placeOrder, type OrderRules, type PlaceOrder } from './orders.ts';
import { confirmPayment, expireUnpaidOrders } from './payments.ts';
import { setPackPrice, setPackStock, setProductFacts } from './shelf.ts';
import { closeRestockedAlerts } from './stock-alerts.ts';
import type { PackPriceInput, PackStockInput, ProductFactsInput } from '../shelf-schemas.ts';

export interface AfterWriteDeps {
  db: Database;
  /** Every instance's caches: in process on PGlite, LISTEN/NOTIFY on PostgreSQL (cache/invalidation-bus.ts). */
  stale: InvalidationBus;
  /** The outbox's sender; none: the recorded notices wait for a shop's drainer. */
  notices?: OrderNotices;
}

/** What an order write changed, as its service reports it. */
export interface OrderChange {
  orderId: number;
  /** The step it made, whose notice its transaction recorded. */
  step: NoticeEvent;
  /** The products of the order's lines. */
  productIds: readonly number[];
  /** The catalogue pages show a different shelf afterwards (a product sold out, or back). */
  shelfChanged: boolean;
}

export interface FollowUp {
  /** The cache tags the write made stale (cache/stale-after.ts). */
  staleTags: string[];
  /** Products back on the shelf: the shoppers who waited for them are no longer counted as waiting (issue 24). */
  restocked: readonly number[];
  /** The notice to send now. */
  notice: NoticeEvent;
}

/** What must follow an order change: the one place it is decided. */
export function followUpOf(change: OrderChange): FollowUp {
  const shelf = change.shelfChanged ? staleAfter.shelfChanged(change.productIds) : [];
  return {
    // Delivered: its shopper's reviews of its products now read 'Certified buyer'.
    staleTags: change.step === 'delivered' ? staleAfter.orderDelivered(change.productIds) : shelf,
    restocked: change.step === 'cancelled' && change.shelfChanged ? change.productIds : [],
    notice: change.step,
  };
}

/** Does what follows a committed order change. A failed publish never throws (the bus logs it); the notice is sent later. */
export async function afterOrderWrite({ db, stale, notices = NO_NOTICES }: AfterWriteDeps, change: OrderChange): Promise<void> {
  const followUp = followUpOf(change);
  if (followUp.staleTags.length > 0) await stale.publish(followUp.staleTags);
  if (followUp.restocked.length > 0) await closeRestockedAlerts(db, [...followUp.restocked]);
  // Not awaited: an answer never waits for a mail server. Whoever stops the process drains it first.
  notices.later(change.orderId, followUp.notice);
}

async function productIdsOf(db: Database, orderId: number): Promise<number[]> {
  const lines = await db.selectDistinct({ productId: orderLines.productId }).from(orderLines).where(eq(orderLines.orderId, orderId));
  return lines.map((line) => line.productId);
}

/** The order writes, each followed by what must follow it. */
export function orderWrites(deps: AfterWriteDeps) {
  const { db } = deps;
  const follow = (change: OrderChange) => afterOrderWrite(deps, change);
  return {
    /** The shopper places the cart (a replay of the same key changes nothing, and is followed by nothing). */
    async place(rules: OrderRules, userId: number, idempotencyKey: string, input: PlaceOrder) {
      const placed = await placeOrder(db, rules, userId, idempotencyKey, input);
      if (!placed.replayed) {
        const productIds = placed.order.lines.map((line) => line.productsId);
        await follow({ orderId: placed.order.id, step: 'placed', productIds, shelfChanged: placed.shelfChanged });
      }
      return placed;
    },
    /** The shopper cancels an order not yet packed. */
    async cancel(rules: Pick<OrderRules, 'delivery'>, userId: number, orderId: number) {
      const cancelled = await cancelOrder(db, rules, userId, orderId);
      const productIds = cancelled.order.lines.map((line) => line.productsId);
      await follow({ orderId, step: 'cancelled', productIds, shelfChanged: cancelled.shelfChanged });
      return cancelled;
    },
    /** The shop cancels an order not yet delivered, with the reason the shopper reads. */
    async cancelByShop(orderId: number, reason: string) {
      const cancelled = await cancelOrderByShop(db, orderId, reason);
      await follow({ orderId, step: 'cancelled', productIds: await productIdsOf(db, orderId), shelfChanged: cancelled.shelfChanged });
      return cancelled;
    },
    /** The shop moves an order one step (packed, out for delivery, delivered). */
    async advance(orderId: number) {
      const moved = await advanceOrder(db, orderId);
      const productIds = moved.to === 'delivered' ? await productIdsOf(db, orderId) : [];
      await follow({ orderId, step: moved.to as NoticeEvent, productIds, shelfChanged: false });
      return moved;
    },
    /** A pay-now order's payment arrived (confirming again changes nothing, and is followed by nothing). */
    async confirmPayment(orderId: number, options?: { now?: Date }) {
      const confirmed = await confirmPayment(db, orderId, options);
      if (confirmed.outcome === 'paid') await follow({ orderId, step: 'payment_confirmed', productIds: [], shelfChanged: false });
      return confirmed;
    },
    /** Cancels the pay-now orders unpaid past their time at `now` (or only the order `only`). */
    async expireUnpaid(now: Date, only?: number) {
      const expired = await expireUnpaidOrders(db, now, { only });
      for (const order of expired) {
        await follow({ orderId: order.orderId, step: 'cancelled', productIds: order.productIds, shelfChanged: order.shelfChanged });
      }
      return expired;
    },
  };
}

export type OrderWrites = ReturnType<typeof orderWrites>;

/** The grocer's catalogue import, then every instance's caches forget the catalogue and restocked alerts close. */
export async function importAndTell({ db, stale }: AfterWriteDeps, csv: string, images: Readonly<Record<string, string>>, options?: ImportOptions) {
  const summary = await importCatalogue(db, csv, images, options);
  if (summary.changed) {
    await stale.publish(staleAfter.catalogueImported());
    await closeRestockedAlerts(db);
  }
  return summary;
}

/**
 * The back office's writes on a product (issue 34), each followed by every instance's caches forgetting it (its page,
 * its cards, the listings), so a new price shows on every shop at once; stock back on the shelf closes the restock
 * alerts of whoever waited for it.
 */
export function shelfWrites({ db, stale }: AfterWriteDeps) {
  const tell = (productId: number) => stale.publish(staleAfter.productEdited(productId));
  return {
    async setStock(productId: number, input: PackStockInput) {
      const product = await setPackStock(db, productId, input);
      await tell(productId);
      if (input.stock > 0) await closeRestockedAlerts(db, [productId]);
      return product;
    },
    async setPrice(productId: number, input: PackPriceInput) {
      const product = await setPackPrice(db, productId, input);
      await tell(productId);
      return product;
    },
    async setFacts(productId: number, input: ProductFactsInput) {
      const product = await setProductFacts(db, productId, input);
      await tell(productId);
      return product;
    },
  };
}
