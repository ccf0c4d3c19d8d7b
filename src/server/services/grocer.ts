// The grocer's side of the orders (issue 11): a day's orders by delivery slot, one order, and moving an order along
// placed → packed → out_for_delivery → delivered, and cancelling one not yet delivered (issue 22). Used by the grocer's
// routes (the shop running) and by
// `npm run orders` itself when the shop is stopped: one code for both.
import { and, asc, eq, gte, inArray, isNull, like, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { withTransactionRetry } from '../db/retry.ts';
import { categories, deliverySlots, orderEvents, orderIssues, orderLines, orders, products, stockAlerts, users, type OrderStatus } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import type { GrocerDayDto, GrocerOrderDto, GrocerOrderRowDto, GrocerPickListDto, GrocerTodayDto } from '../grocer-schemas.ts';
import { ORDER_STATUS_VALUES } from '../order-schemas.ts';
import { LOW_STOCK_UNITS } from '../shelf-schemas.ts';
import { lowStockCount } from './shelf.ts';
import { OPEN_STATUSES, orderOf, releaseOrder } from './orders.ts';
import { shopDate, zonedInstant, type DeliveryRules } from './slots.ts';
import { recordNotice, type NoticeEvent } from './notices.ts';
import { NEXT_STATUS, statusLabel } from '../../lib/order-status.ts';

const itemCount = sql<number>`(select coalesce(sum(${orderLines.qty}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`;

/** The orders to deliver on `date` (a slot id starts with its local date; default: today), by slot, earliest first. */
export async function ordersOfDay(db: Database, delivery: DeliveryRules, date = shopDate(new Date(), 0, delivery.timeZone)): Promise<GrocerDayDto> {
  const rows = await db
    .select({
      id: deliverySlots.id,
      startsAt: deliverySlots.startsAt,
      endsAt: deliverySlots.endsAt,
      capacity: deliverySlots.capacity,
      taken: deliverySlots.taken,
      orders: sql<GrocerOrderRowDto[]>`json_agg(json_build_object(
        'id', ${orders.id}, 'status', ${orders.status},
        'customerName', ${orders.address}->>'name', 'pincode', ${orders.address}->>'pincode',
        'itemCount', ${itemCount}, 'totalPaise', ${orders.totalPaise}, 'paymentMethod', ${orders.paymentMethod},
        'paymentStatus', ${orders.paymentStatus}
      ) order by ${orders.id})`,
    })
    .from(deliverySlots)
    .innerJoin(orders, eq(orders.slotId, deliverySlots.id))
    .where(like(deliverySlots.id, `${date}T%`))
    .groupBy(deliverySlots.id)
    .orderBy(asc(deliverySlots.startsAt));
  return {
    date,
    timeZone: delivery.timeZone,
    slots: rows.map((r) => ({ ...r, startsAt: r.startsAt.toISOString(), endsAt: r.endsAt.toISOString() })),
  };
}

/**
 * Today at a glance (issue 34): the orders placed since the shop's midnight and their takings, today's deliveries by
 * state, and what needs a hand now, whatever its day: pay-now orders awaiting their payment, unsettled issues, products
 * running low, shoppers waiting for a restock. Each a count in one query of its own, run together.
 */
export async function todayAtAGlance(db: Database, delivery: DeliveryRules, now = new Date()): Promise<GrocerTodayDto> {
  const date = shopDate(now, 0, delivery.timeZone);
  const from = zonedInstant(date, 0, delivery.timeZone);
  const to = zonedInstant(shopDate(now, 1, delivery.timeZone), 0, delivery.timeZone);
  const counted = sql<number>`count(*)::int`;
  const kept = sql`${orders.status} <> 'cancelled'`;
  const [[placed], deliveries, [awaiting], [issues], lowStock, [waiting]] = await Promise.all([
    db
      .select({
        orders: sql<number>`(count(*) filter (where ${kept}))::int`,
        salesPaise: sql<number>`coalesce(sum(${orders.totalPaise}) filter (where ${kept}), 0)::int`,
        cancelled: sql<number>`(count(*) filter (where not ${kept}))::int`,
      })
      .from(orders)
      .where(and(gte(orders.createdAt, from), lt(orders.createdAt, to))),
    db.select({ status: orders.status, count: counted }).from(orders).where(like(orders.slotId, `${date}T%`)).groupBy(orders.status),
    db.select({ count: counted }).from(orders).where(and(eq(orders.paymentStatus, 'awaiting'), inArray(orders.status, [...OPEN_STATUSES]))),
    db.select({ count: counted }).from(orderIssues).where(isNull(orderIssues.settledAt)),
    lowStockCount(db, LOW_STOCK_UNITS),
    db.select({ count: counted }).from(stockAlerts).where(isNull(stockAlerts.notifiedAt)),
  ]);
  const byStatus = Object.fromEntries(ORDER_STATUS_VALUES.map((status) => [status, deliveries.find((d) => d.status === status)?.count ?? 0]));
  return {
    date,
    timeZone: delivery.timeZone,
    placed: placed ?? { orders: 0, salesPaise: 0, cancelled: 0 },
    deliveries: byStatus as GrocerTodayDto['deliveries'],
    needs: { awaitingPayment: awaiting?.count ?? 0, openIssues: issues?.count ?? 0, lowStock, waitingShoppers: waiting?.count ?? 0 },
  };
}

/**
 * The pick list of a slot (issue 34): each product and pack summed across the slot's open orders, by aisle (the
 * category's shelf order, then its name), in one query. A slot that does not exist is a 404; one without open orders
 * has no aisles.
 */
export async function pickList(db: Database, delivery: DeliveryRules, slotId: string): Promise<GrocerPickListDto> {
  const [slot] = await db.select({ id: deliverySlots.id, startsAt: deliverySlots.startsAt, endsAt: deliverySlots.endsAt }).from(deliverySlots).where(eq(deliverySlots.id, slotId));
  if (!slot) throw notFound(`There is no delivery slot ${slotId}`);
  const open = and(eq(orders.slotId, slotId), inArray(orders.status, [...OPEN_STATUSES]));
  const [ids, rows] = await Promise.all([
    db.select({ id: orders.id }).from(orders).where(open).orderBy(asc(orders.id)),
    db
      .select({
        productId: orderLines.productId,
        variantId: orderLines.variantId,
        name: sql<string>`min(${orderLines.name})`,
        variantName: sql<string | null>`min(${orderLines.variantName})`,
        imageUrl: sql<string | null>`min(${orderLines.imageUrl})`,
        qty: sql<number>`sum(${orderLines.qty})::int`,
        orders: sql<number>`count(distinct ${orderLines.orderId})::int`,
        categoryId: categories.id,
        categoryName: categories.name,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(products, eq(products.id, orderLines.productId))
      .leftJoin(categories, eq(categories.id, products.categoryId))
      .where(open)
      .groupBy(orderLines.productId, orderLines.variantId, categories.id)
      .orderBy(sql`${categories.priority} nulls last`, asc(categories.name), sql`min(${orderLines.name})`, sql`min(${orderLines.variantName}) nulls first`),
  ]);
  const aisles: GrocerPickListDto['aisles'] = [];
  for (const { categoryId, categoryName, ...item } of rows) {
    let aisle = aisles.at(-1);
    if (!aisle || aisle.categoryId !== categoryId) {
      aisle = { categoryId, name: categoryName ?? 'Other', items: [] };
      aisles.push(aisle);
    }
    aisle.items.push(item);
  }
  return {
    slot: { id: slot.id, startsAt: slot.startsAt.toISOString(), endsAt: slot.endsAt.toISOString() },
    timeZone: delivery.timeZone,
    orderIds: ids.map((r) => r.id),
    aisles,
  };
}

const noSuchOrder = (id: number) => notFound(`There is no order ${id}`);
export const awaitingPayment = (id: number) =>
  `Order ${id} is awaiting its UPI payment: it cannot be packed until the payment is confirmed (npm run orders -- paid ${id}).`;

/** One order as its shopper sees it (services/orders.ts), with who the shopper is. */
export async function grocerOrder(db: Database, delivery: DeliveryRules, id: number): Promise<GrocerOrderDto> {
  const [owner] = await db
    .select({ id: users.id, name: users.name, email: users.email, phone: users.phone })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, id));
  const order = owner && (await orderOf(db, { delivery }, owner.id, id));
  if (!order) throw noSuchOrder(id);
  return { ...order, customer: owner };
}

/**
 * Moves an order one step along its timeline and writes the step to order_events, in one transaction holding the
 * order's row (a shopper cancelling at the same moment waits, then finds it packed). Delivered or cancelled: 409.
 */
export async function advanceOrder(db: Database, id: number): Promise<{ from: OrderStatus; to: OrderStatus }> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, paymentStatus: orders.paymentStatus })
      .from(orders)
      .where(eq(orders.id, id))
      .for('update');
    if (!order) throw noSuchOrder(id);
    // A pay-now order is packed once its money is in: packing one that may yet expire would pack for nobody.
    if (order.status === 'placed' && order.paymentStatus === 'awaiting') throw conflict(awaitingPayment(id));
    const next = NEXT_STATUS[order.status];
    if (!next) throw conflict(`Order ${id} is ${statusLabel(order.status)}: it cannot move any further.`);
    await tx.update(orders).set({ status: next }).where(eq(orders.id, id));
    await tx.insert(orderEvents).values({ orderId: id, status: next });
    await recordNotice(tx, id, next as NoticeEvent);
    return { from: order.status, to: next };
  });
}


/**
 * The shop cancels an order not yet delivered (placed, packed or out for delivery), with a reason the shopper is
 * shown; its stock and slot place go back as with the shopper's own cancel (releaseOrder), in one transaction that
 * runs again after a deadlock or serialization failure. Delivered or already cancelled: 409.
 */
export async function cancelOrderByShop(
  db: Database,
  id: number,
  reason: string,
): Promise<{ from: OrderStatus; shelfChanged: boolean }> {
  return withTransactionRetry(() =>
    db.transaction(async (tx) => {
      const [order] = await tx
        .select({ id: orders.id, status: orders.status, slotId: orders.slotId })
        .from(orders)
        .where(eq(orders.id, id))
        .for('update');
      if (!order) throw noSuchOrder(id);
      if (!OPEN_STATUSES.includes(order.status)) {
        throw conflict(`Order ${id} is ${statusLabel(order.status)}: it can no longer be cancelled.`);
      }
      const shelfChanged = await releaseOrder(tx, order, 'shop', reason);
      return { from: order.status, shelfChanged };
    }),
  );
}
