// The grocer's side of the orders (issue 11): a day's orders by delivery slot, one order, and moving an order along
// placed → packed → out_for_delivery → delivered. Used by the grocer's routes (the shop running) and by
// `npm run orders` itself when the shop is stopped: one code for both.
import { asc, eq, like, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deliverySlots, orderEvents, orderLines, orders, users, type OrderStatus } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import type { GrocerDayDto, GrocerOrderDto, GrocerOrderRowDto } from '../grocer-schemas.ts';
import type { OrderDto } from '../order-schemas.ts';

/** The step after each status; delivered and cancelled are where an order ends. */
export const NEXT_STATUS: Partial<Record<OrderStatus, OrderStatus>> = {
  placed: 'packed',
  packed: 'out_for_delivery',
  out_for_delivery: 'delivered',
};

export const statusLabel = (status: OrderStatus) => status.replaceAll('_', ' ');

/** Today's date (YYYY-MM-DD) on the shop's clock. */
export function todayIn(timeZone: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const itemCount = sql<number>`(select coalesce(sum(${orderLines.qty}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`;

/** The orders to deliver on `date` (a slot id starts with its local date), by slot, earliest slot first. */
export async function ordersOfDay(db: Database, date: string, timeZone: string): Promise<GrocerDayDto> {
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
        'itemCount', ${itemCount}, 'totalPaise', ${orders.totalPaise}, 'paymentMethod', ${orders.paymentMethod}
      ) order by ${orders.id})`,
    })
    .from(deliverySlots)
    .innerJoin(orders, eq(orders.slotId, deliverySlots.id))
    .where(like(deliverySlots.id, `${date}T%`))
    .groupBy(deliverySlots.id)
    .orderBy(asc(deliverySlots.startsAt));
  return {
    date,
    timeZone,
    slots: rows.map((r) => ({ ...r, startsAt: r.startsAt.toISOString(), endsAt: r.endsAt.toISOString() })),
  };
}

export const orderNotFound = (id: number) => notFound(`There is no order ${id}`);

/** One order with its customer, lines, address, slot, summary and timeline, in one query. */
export async function grocerOrder(db: Database, id: number, timeZone: string): Promise<GrocerOrderDto> {
  const [row] = await db
    .select({
      order: orders,
      customer: { id: users.id, name: users.name, email: users.email, phone: users.phone },
      slot: { id: deliverySlots.id, startsAt: deliverySlots.startsAt, endsAt: deliverySlots.endsAt },
      lines: sql<OrderDto['lines']>`(select coalesce(json_agg(json_build_object(
          'productsId', l.product_id, 'productVariantsId', coalesce(l.variant_id, 0), 'name', l.name,
          'variantName', l.variant_name, 'imageUrl', l.image_url, 'unitPricePaise', l.unit_price_paise,
          'unitMrpPaise', l.unit_mrp_paise, 'qty', l.qty, 'lineTotalPaise', l.line_total_paise
        ) order by l.id), '[]') from ${orderLines} l where l.order_id = ${orders.id})`,
      timeline: sql<Array<{ status: OrderStatus; at: string }>>`(select coalesce(json_agg(json_build_object(
          'status', e.status, 'at', to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        ) order by e.at, e.id), '[]') from ${orderEvents} e where e.order_id = ${orders.id})`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(deliverySlots, eq(deliverySlots.id, orders.slotId))
    .where(eq(orders.id, id));
  if (!row) throw orderNotFound(id);
  const { order, customer, slot, lines, timeline } = row;
  return {
    id: order.id,
    status: order.status,
    paymentMethod: order.paymentMethod,
    slot: { id: slot.id, startsAt: slot.startsAt.toISOString(), endsAt: slot.endsAt.toISOString() },
    timeZone,
    address: order.address,
    lines,
    summary: {
      itemCount: lines.reduce((n, l) => n + l.qty, 0),
      subtotalPaise: order.subtotalPaise,
      mrpTotalPaise: order.mrpTotalPaise,
      savingsPaise: order.mrpTotalPaise - order.subtotalPaise,
      discounts: order.discounts as OrderDto['summary']['discounts'],
      discountPaise: order.discountPaise,
      deliveryPaise: order.deliveryPaise,
      totalPaise: order.totalPaise,
    },
    timeline,
    cancellable: order.status === 'placed',
    createdAt: order.createdAt.toISOString(),
    customer,
  };
}

/**
 * Moves an order one step along its timeline and writes the step to order_events, in one transaction holding the
 * order's row (a shopper cancelling at the same moment waits, then finds it packed). Delivered or cancelled: 409.
 */
export async function advanceOrder(db: Database, id: number): Promise<{ from: OrderStatus; to: OrderStatus }> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, id)).for('update');
    if (!order) throw orderNotFound(id);
    const next = NEXT_STATUS[order.status];
    if (!next) throw conflict(`Order ${id} is ${statusLabel(order.status)}: it cannot move any further.`);
    await tx.update(orders).set({ status: next }).where(eq(orders.id, id));
    await tx.insert(orderEvents).values({ orderId: id, status: next });
    return { from: order.status, to: next };
  });
}
