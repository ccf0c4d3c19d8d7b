// Orders (issue 11): placed exactly once per Idempotency-Key in one transaction that takes the stock and the slot's
// place, read back by their owner only, cancelled while not yet packed (giving both back), and ordered again.
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, gt, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { OrderDto, OrderListItemDto, OrderPageDto, PlaceOrderSchema, ReorderResultDto } from '../order-schemas.ts';
import type { FoodType } from '../../lib/food-type.ts';
import { returnsUntilOf } from '../../lib/order-issues.ts';
import type { OrderIssueDto } from '../after-delivery-schemas.ts';
import { issuePhotoUrls } from './issue-photos.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import type { Database } from '../db/client.ts';
import { withTransactionRetry } from '../db/retry.ts';
import { orderPaymentOf } from '../payments/order-payment.ts';
import type { PayNowRules } from '../payments/provider.ts';
import {
  cartLines,
  deliverySlots,
  orderEvents,
  orderIssues,
  orderLines,
  orders,
  products,
  productVariants,
  users,
  type OrderStatus,
} from '../db/schema.ts';
import { ApiError, conflict, notFound } from '../errors.ts';
import { formatRupees } from '../../lib/money.ts';
import { isPhoneBlocked } from './blocked-phones.ts';
import { addressNotFound, findAddress } from './addresses.ts';
import { addToCart, cartOf } from './cart.ts';
import { couponKey, couponRefused, couponTaken, isCouponOnceViolation } from './coupons.ts';
import { ensureSlotRows, offeredSlots } from './slots.ts';
import { areaRulesFor, belowMinimum, outsideArea, withAreaFee } from './delivery-area.ts';
import { recordNotice } from './notices.ts';

export interface OrderRules {
  offers: StoreSettingsData['offers'];
  delivery: StoreSettingsData['delivery'];
  /** Per verified number: open orders, units of one product, orders in one slot. */
  limits: StoreSettingsData['limits'];
  /** The clock the slots are judged by (tests set it). */
  now: () => Date;
  /** store.yaml's serviceable area (issue 25); none: every PIN code is served with the shop's own rules. */
  area?: StoreSettingsData['area'];
  /** store.yaml's coupons (issue 25); none when left out. */
  coupons?: StoreSettingsData['coupons'];
  /** Paying now by UPI (issue 25): how long an unpaid order is kept, and who makes its payment request. */
  payNow: PayNowRules;
}

export type PlaceOrder = z.infer<typeof PlaceOrderSchema>;

export const orderNotFound = (id: number) => notFound(`You have no order ${id}`);
export const KEY_REUSED = 'This Idempotency-Key was already used for a different order';
export const CART_EMPTY = 'Your cart is empty';
export const SLOT_FULL = 'That delivery slot just filled up; please choose another';
export const SLOT_NOT_OFFERED = 'That delivery slot is not offered (it has started or is not one of ours); please choose another';
export const SLOT_CLOSED = 'That delivery slot has closed for new orders; please choose another';
export const ALREADY_CANCELLED = 'This order is already cancelled';
export const PHONE_UNVERIFIED = 'Please verify your mobile number with the code we text you before placing an order.';
export const PHONE_BLOCKED = 'This mobile number cannot place orders. Please call customer care.';
export const SLOT_TAKEN_BY_YOU = 'You already have an order in that delivery slot; please choose another';
const tooManyOpen = (limit: number) =>
  `You already have ${limit} orders on their way. You can place another once one is delivered or cancelled.`;
/**
 * An order not yet delivered or cancelled: it counts against its number's limit, and the shop may still cancel it.
 */
export const OPEN_STATUSES: readonly OrderStatus[] = ['placed', 'packed', 'out_for_delivery'];
export const ALREADY_PACKED = 'This order is already packed and can no longer be cancelled';

/** What a key stands for: the parsed body only, so extra client fields (prices, totals) change nothing. */
const requestHashOf = ({ addressId, slotId, paymentMethod, couponCode }: PlaceOrder) =>
  createHash('sha256').update(JSON.stringify({ addressId, slotId, paymentMethod, couponCode: couponCode && couponKey(couponCode) })).digest('hex');

const labelOf = (line: { name: string; variantName: string | null }) =>
  line.variantName ? `${line.name} (${line.variantName})` : line.name;

/**
 * Places the shopper's cart as an order, or answers the order this key already placed. Everything happens in one
 * transaction that first locks the shopper's row: a double click waits for the first order and then finds it.
 * Any refusal (409) rolls back the stock and the slot's place taken before it.
 */
export async function placeOrder(
  db: Database,
  rules: OrderRules,
  userId: number,
  idempotencyKey: string,
  input: PlaceOrder,
): Promise<{ order: OrderDto; replayed: boolean; shelfChanged: boolean }> {
  const requestHash = requestHashOf(input);
  let shelfChanged = false;
  const { orderId, replayed } = await withTransactionRetry(() => db.transaction(async (tx) => {
    const [shopper] = await tx
      .select({ phone: users.phone, verified: sql<boolean>`${users.phoneVerifiedAt} is not null` })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    const [previous] = await tx
      .select({ id: orders.id, requestHash: orders.requestHash })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
    if (previous) {
      if (previous.requestHash !== requestHash) throw new ApiError(422, 'unprocessable', KEY_REUSED);
      return { orderId: previous.id, replayed: true };
    }
    // Cash on delivery costs a script nothing: orders hang on a number the shopper proved is theirs, and its limits.
    if (!shopper?.verified) throw new ApiError(403, 'phone_unverified', PHONE_UNVERIFIED);
    if (await isPhoneBlocked(tx, shopper.phone)) throw new ApiError(403, 'phone_blocked', PHONE_BLOCKED);
    const { limits } = rules;
    // Read under the lock on the shopper's row, which is the number's too (one account per number, and a number
    // changes only by a write to that row): two orders racing on one number are counted one after the other.
    const open = await openOrdersOf(tx, shopper.phone, new Date(rules.now().getTime() - EXPIRED_PAY_NOW_WINDOW_MS));
    if (open.count >= limits.openOrdersPerNumber) throw conflict(tooManyOpen(limits.openOrdersPerNumber));

    const saved = await findAddress(tx, userId, input.addressId);
    if (!saved) throw addressNotFound(input.addressId);
    const { id: _id, isDefault: _isDefault, ...address } = saved;
    // The server checks the area, not only the page (issue 25): the PIN's group sets the fee, minimum and slots.
    const areaRules = areaRulesFor(rules.area, rules.delivery, saved.pincode);
    if (!areaRules) throw outsideArea(saved.pincode);

    // The cart priced exactly as the cart page shows it (the offers included), never what the client sent. Its
    // out-of-stock lines are set apart there, left out of the summary, and stay in the cart: they are not ordered.
    // A coupon is priced again here, after the offers (src/server/services/coupons.ts).
    const { lines: cartLinesNow, summary: offersSummary, coupon } = await cartOf(tx, userId, rules, input.couponCode);
    const summary = withAreaFee(offersSummary, areaRules);
    if (cartLinesNow.length === 0) throw conflict(CART_EMPTY);
    const cart = { lines: cartLinesNow.filter((l) => l.inStock), summary };
    if (cart.lines.length === 0) {
      const gone = cartLinesNow.map(labelOf);
      throw conflict(`${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} out of stock`);
    }
    const unpriced = cart.lines.find((l) => l.productVariantsId !== 0 && l.productVariantPriceId === 0);
    if (unpriced) throw conflict(`Sorry, ${labelOf(unpriced)} cannot be bought right now: it has no price yet.`);
    checkOrderSize(cart.lines, summary, limits, open);
    if (input.paymentMethod === 'upi_now') {
      if (open.expiredPayNow >= limits.expiredPayNowPerDay) throw conflict(payNowRested(open.expiredPayNow));
      if (summary.totalPaise > limits.payNowMaxRupees * 100) throw conflict(payNowTooBig(limits.payNowMaxRupees));
    }
    // A coupon that stopped applying (expired, used meanwhile, the cart now below its minimum) orders nothing.
    if (coupon && !coupon.applies) throw couponRefused(coupon);

    if (summary.subtotalPaise < areaRules.minimumOrderPaise) throw belowMinimum(saved.pincode, areaRules.minimumOrderPaise, summary.subtotalPaise);

    const slot = offeredSlots(areaRules.delivery, rules.now()).find((s) => s.id === input.slotId);
    if (!slot) throw conflict(SLOT_NOT_OFFERED);
    if (slot.closed) throw conflict(SLOT_CLOSED);
    const [inSlot] = await tx
      .select({ count: count() })
      .from(orders)
      .where(and(eq(orders.verifiedPhone, shopper.phone), eq(orders.slotId, slot.id), ne(orders.status, 'cancelled')));
    if ((inSlot?.count ?? 0) >= limits.slotPlacesPerShopper) throw conflict(SLOT_TAKEN_BY_YOU);
    await ensureSlotRows(tx, areaRules.delivery, [slot]);
    const took = await tx
      .update(deliverySlots)
      .set({ taken: sql`${deliverySlots.taken} + 1` })
      .where(and(eq(deliverySlots.id, slot.id), lt(deliverySlots.taken, deliverySlots.capacity)))
      .returning({ id: deliverySlots.id });
    if (took.length === 0) throw conflict(SLOT_FULL);

    const shelfBefore = await shelfOf(tx, cart.lines.map((l) => l.productsId));
    // Rows are taken in one order (product, then pack) by every transaction, so two orders cannot deadlock.
    const byRow = [...cart.lines].sort((a, b) => a.productsId - b.productsId || a.productVariantsId - b.productVariantsId);
    for (const line of byRow) {
      const left = await takeStock(tx, line.productsId, line.productVariantsId, line.qty);
      if (left !== null) {
        throw conflict(left > 0 ? `Sorry, only ${left} of ${labelOf(line)} left` : `${labelOf(line)} is out of stock`);
      }
    }

    const [order] = await tx
      .insert(orders)
      .values({
        userId,
        paymentMethod: input.paymentMethod,
        couponCode: coupon?.applies ? coupon.code : null,
        // A pay-now order holds its stock and slot place until it is paid or its time runs out (services/payments.ts).
        ...(input.paymentMethod === 'upi_now'
          ? { paymentStatus: 'awaiting' as const, paymentDueAt: new Date(rules.now().getTime() + rules.payNow.payWithinMinutes * 60_000) }
          : {}),
        slotId: slot.id,
        address,
        subtotalPaise: summary.subtotalPaise,
        mrpTotalPaise: summary.mrpTotalPaise,
        discounts: summary.discounts,
        discountPaise: summary.discountPaise,
        deliveryPaise: summary.deliveryPaise,
        totalPaise: summary.totalPaise,
        verifiedPhone: shopper.phone,
        idempotencyKey,
        requestHash,
      })
      .returning({ id: orders.id });
    const id = order!.id;
    await tx.insert(orderLines).values(
      cart.lines.map((l) => ({
        orderId: id,
        productId: l.productsId,
        variantId: l.productVariantsId || null,
        name: l.name,
        variantName: l.variantName,
        imageUrl: l.imageUrl,
        unitPricePaise: l.unitPricePaise,
        unitMrpPaise: l.unitMrpPaise,
        qty: l.qty,
        lineTotalPaise: l.lineTotalPaise,
      })),
    );
    await tx.insert(orderEvents).values({ orderId: id, status: 'placed' });
    // Its notice is recorded with it (the outbox): an order that committed is never left untold.
    await recordNotice(tx, id, 'placed');
    shelfChanged = shelfBefore !== (await shelfOf(tx, cart.lines.map((l) => l.productsId)));
    // Only the lines ordered: one added from another tab meanwhile stays in the cart.
    await tx.delete(cartLines).where(and(eq(cartLines.userId, userId), inArray(cartLines.id, cart.lines.map((l) => l.id))));
    return { orderId: id, replayed: false };
  })).catch((error: unknown) => {
    // Two orders racing with one coupon and number: the unique index lets one have it; the other rolled back whole
    // (stock, slot, cart as they were) and is told why.
    if (input.couponCode && isCouponOnceViolation(error)) throw couponTaken(couponKey(input.couponCode));
    throw error;
  });
  const order = await orderOf(db, rules, userId, orderId);
  if (!order) throw orderNotFound(orderId);
  return { order, replayed, shelfChanged };
}

/** How far back a pay-now order that expired unpaid counts against its number (limits.expiredPayNowPerDay). */
const EXPIRED_PAY_NOW_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What a number has on its way (its open orders, their units and goods' value) and its pay-now orders that expired since `since`. */
async function openOrdersOf(tx: Database, phone: string, since: Date) {
  const isOpen = inArray(orders.status, [...OPEN_STATUSES]);
  const [row] = await tx
    .select({
      count: sql<number>`count(*) filter (where ${isOpen})`.mapWith(Number),
      valuePaise: sql<number>`coalesce(sum(${orders.subtotalPaise}) filter (where ${isOpen}), 0)`.mapWith(Number),
      units: sql<number>`coalesce((select sum(${orderLines.qty}) from ${orderLines} where ${orderLines.orderId} in
        (select o.id from ${orders} o where o.verified_phone = ${phone} and o.status in (${sql.join(OPEN_STATUSES.map((status) => sql`${status}`), sql`, `)}))), 0)`.mapWith(Number),
      expiredPayNow: sql<number>`count(*) filter (where ${orders.paymentStatus} = 'expired' and ${orders.paymentDueAt} > ${since.toISOString()})`.mapWith(Number),
    })
    .from(orders)
    .where(eq(orders.verifiedPhone, phone));
  return row ?? { count: 0, valuePaise: 0, units: 0, expiredPayNow: 0 };
}

const removeOrWait = 'Please remove some, or place another order once this one is delivered.';
export const orderSizeRefusals = {
  unitsOfProduct: (limit: number, name: string) =>
    `You can order at most ${limit} of ${name} in one order (all its pack sizes together); please lower its quantity.`,
  lines: (limit: number) => `An order can hold at most ${limit} different items. ${removeOrWait}`,
  units: (limit: number) => `An order can hold at most ${limit} items. ${removeOrWait}`,
  value: (limitRupees: number) => `An order can be worth at most ${formatRupees(limitRupees * 100)}. ${removeOrWait}`,
  openUnits: (limit: number, held: number) =>
    `Your orders on their way already hold ${held} items, and one mobile number can have at most ${limit} items on their way. Please remove some, or order again once an order is delivered.`,
  openValue: (limitRupees: number, heldPaise: number) =>
    `Your orders on their way are already worth ${formatRupees(heldPaise)}, and one mobile number can have at most ${formatRupees(limitRupees * 100)} on its way. Please remove some, or order again once an order is delivered.`,
} as const;
const payNowTooBig = (limitRupees: number) =>
  `Paying now by UPI works for orders up to ${formatRupees(limitRupees * 100)}. Please choose cash or UPI on delivery for this order.`;
const payNowRested = (expired: number) =>
  `${expired} of your pay-now orders in the last day were not paid in time, so for now this number can pay on delivery only. Please choose cash or UPI on delivery.`;

/**
 * The size of one order and of the number's open orders with it (store.yaml limits), from the server's prices: a
 * script that fills a cart cannot take the shelves in one free order, nor in three.
 */
function checkOrderSize(
  lines: Array<{ productsId: number; qty: number; name: string }>,
  summary: { subtotalPaise: number },
  limits: OrderRules['limits'],
  open: { units: number; valuePaise: number },
): void {
  // Every pack size of a product counts together: four packs would otherwise take four times the limit.
  const perProduct = new Map<number, number>();
  for (const line of lines) perProduct.set(line.productsId, (perProduct.get(line.productsId) ?? 0) + line.qty);
  const tooMany = lines.find((l) => perProduct.get(l.productsId)! > limits.unitsPerProduct);
  if (tooMany) throw conflict(orderSizeRefusals.unitsOfProduct(limits.unitsPerProduct, tooMany.name));
  if (lines.length > limits.linesPerOrder) throw conflict(orderSizeRefusals.lines(limits.linesPerOrder));
  const units = lines.reduce((n, l) => n + l.qty, 0);
  if (units > limits.unitsPerOrder) throw conflict(orderSizeRefusals.units(limits.unitsPerOrder));
  if (summary.subtotalPaise > limits.orderValueMaxRupees * 100) throw conflict(orderSizeRefusals.value(limits.orderValueMaxRupees));
  if (open.units + units > limits.openUnitsPerNumber) throw conflict(orderSizeRefusals.openUnits(limits.openUnitsPerNumber, open.units));
  if (open.valuePaise + summary.subtotalPaise > limits.openValuePerNumberRupees * 100) {
    throw conflict(orderSizeRefusals.openValue(limits.openValuePerNumberRupees, open.valuePaise));
  }
}

/**
 * What the catalogue pages show of these products' shelves: in stock or not, and which packs are. When an order or
 * a cancellation changes it (a last unit sold, a sold-out pack back), the shop's cached pages must be redrawn.
 */
async function shelfOf(tx: Database, productIds: number[]): Promise<string> {
  const rows = await tx
    .select({
      id: products.id,
      shelf: sql<string>`${products.inStock}::text || ':' || coalesce((select string_agg((${productVariants.stock} > 0)::text, ',' order by ${productVariants.id}) from ${productVariants} where ${productVariants.productId} = ${products.id}), '')`,
    })
    .from(products)
    .where(inArray(products.id, [...new Set(productIds)]))
    .orderBy(asc(products.id));
  return rows.map((r) => `${r.id}=${r.shelf}`).join(' ');
}

/**
 * Takes `qty` units off the shelf in one statement that cannot go below zero (a pack's stock when the line has one; the
 * product's then follows by the trigger of migration 0003). Null when taken, else the units left.
 */
async function takeStock(tx: Database, productId: number, variantId: number, qty: number): Promise<number | null> {
  if (variantId !== 0) {
    const taken = await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} - ${qty}` })
      .where(and(eq(productVariants.id, variantId), gte(productVariants.stock, qty)))
      .returning({ id: productVariants.id });
    if (taken.length > 0) return null;
    const [pack] = await tx.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
    return pack?.stock ?? 0;
  }
  const taken = await tx
    .update(products)
    .set({ stock: sql`${products.stock} - ${qty}` })
    .where(and(eq(products.id, productId), gte(products.stock, qty)))
    .returning({ id: products.id });
  if (taken.length > 0) return null;
  const [product] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return product?.stock ?? 0;
}

/** Puts units back on the shelf (a cancelled order's): the same rows takeStock took them from. */
async function returnStock(tx: Database, productId: number, variantId: number | null, qty: number): Promise<void> {
  if (variantId !== null) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${qty}` })
      .where(eq(productVariants.id, variantId));
  } else {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${qty}` })
      .where(eq(products.id, productId));
  }
}

const iso = (at: Date | string) => new Date(at).toISOString();

interface LineRow {
  productsId: number;
  productVariantsId: number;
  name: string;
  variantName: string | null;
  imageUrl: string | null;
  unitPricePaise: number;
  unitMrpPaise: number;
  qty: number;
  lineTotalPaise: number;
  foodType: FoodType | null;
  orderLineId: number;
  issue: (Omit<OrderIssueDto, 'photoUrl' | 'thumbnailUrl'> & { photoId: number | null }) | null;
}

/**
 * One of the shopper's orders with its lines, their reports and its timeline (one query); undefined when it is not
 * theirs. With the offers, a delivered order says until when its lines can be reported (returnsUntil).
 */
export async function orderOf(
  db: Database,
  rules: Pick<OrderRules, 'delivery'> & { offers?: Pick<OrderRules['offers'], 'returnDays'>; payNow?: PayNowRules },
  userId: number,
  orderId: number,
): Promise<OrderDto | undefined> {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      paymentStatus: orders.paymentStatus,
      paymentDueAt: orders.paymentDueAt,
      paidAt: orders.paidAt,
      slotId: deliverySlots.id,
      startsAt: deliverySlots.startsAt,
      endsAt: deliverySlots.endsAt,
      address: orders.address,
      subtotalPaise: orders.subtotalPaise,
      mrpTotalPaise: orders.mrpTotalPaise,
      discounts: orders.discounts,
      discountPaise: orders.discountPaise,
      deliveryPaise: orders.deliveryPaise,
      totalPaise: orders.totalPaise,
      cancelledBy: orders.cancelledBy,
      cancelReason: orders.cancelReason,
      createdAt: orders.createdAt,
      // A line's food type is its product's now: order_lines keeps no copy of it (migration 0013 added none).
      lines: sql<LineRow[]>`(select coalesce(json_agg(json_build_object(
          'productsId', ${orderLines.productId}, 'productVariantsId', coalesce(${orderLines.variantId}, 0),
          'name', ${orderLines.name}, 'variantName', ${orderLines.variantName}, 'imageUrl', ${orderLines.imageUrl},
          'unitPricePaise', ${orderLines.unitPricePaise}, 'unitMrpPaise', ${orderLines.unitMrpPaise},
          'qty', ${orderLines.qty}, 'lineTotalPaise', ${orderLines.lineTotalPaise},
          'foodType', (select p.food_type from ${products} p where p.id = ${orderLines.productId}),
          'orderLineId', ${orderLines.id}, 'issue', (select json_build_object(
            'id', ${orderIssues.id}, 'kind', ${orderIssues.kind}, 'note', ${orderIssues.note}, 'photoId', ${orderIssues.photoId},
            'outcome', ${orderIssues.outcome}, 'settleNote', ${orderIssues.settleNote},
            'refundPaise', case when ${orderIssues.outcome} = 'refunded' then ${orderLines.lineTotalPaise} end,
            'createdAt', ${orderIssues.createdAt}, 'settledAt', ${orderIssues.settledAt})
            from ${orderIssues} where ${orderIssues.orderLineId} = ${orderLines.id})) order by ${orderLines.id}), '[]'::json)
        from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
      timeline: sql<Array<{ status: OrderStatus; at: string }>>`(select coalesce(json_agg(json_build_object(
          'status', ${orderEvents.status}, 'at', ${orderEvents.at}) order by ${orderEvents.at}, ${orderEvents.id}), '[]'::json)
        from ${orderEvents} where ${orderEvents.orderId} = ${orders.id})`,
    })
    .from(orders)
    .innerJoin(deliverySlots, eq(deliverySlots.id, orders.slotId))
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) return undefined;
  // JSON writes timestamps in PostgreSQL's way; the API's are ISO 8601 throughout.
  const lines = row.lines.map(({ issue, ...line }) => {
    if (!issue) return { ...line, issue };
    const { photoId, ...rest } = issue;
    const photo = photoId === null ? { photoUrl: null, thumbnailUrl: null } : issuePhotoUrls(photoId, 'shopper');
    return { ...line, issue: { ...rest, ...photo, createdAt: iso(issue.createdAt), settledAt: issue.settledAt && iso(issue.settledAt) } };
  });
  const delivered = row.status === 'delivered' ? row.timeline.findLast((e) => e.status === 'delivered') : undefined;
  return {
    id: row.id,
    status: row.status,
    paymentMethod: row.paymentMethod,
    slot: { id: row.slotId, startsAt: iso(row.startsAt), endsAt: iso(row.endsAt) },
    timeZone: rules.delivery.timeZone,
    address: row.address,
    lines,
    summary: {
      itemCount: lines.reduce((n, l) => n + l.qty, 0),
      subtotalPaise: row.subtotalPaise,
      mrpTotalPaise: row.mrpTotalPaise,
      savingsPaise: row.mrpTotalPaise - row.subtotalPaise,
      discounts: row.discounts as OrderDto['summary']['discounts'],
      discountPaise: row.discountPaise,
      deliveryPaise: row.deliveryPaise,
      totalPaise: row.totalPaise,
    },
    timeline: row.timeline.map((e) => ({ status: e.status, at: iso(e.at) })),
    cancellable: row.status === 'placed',
    cancelledBy: row.cancelledBy,
    cancelReason: row.cancelReason,
    createdAt: iso(row.createdAt),
    payment: await orderPaymentOf(row, rules.payNow),
    returnsUntil: delivered && rules.offers ? returnsUntilOf(delivered.at, rules.offers.returnDays) : null,
  };
}

/** How many product names an order shows in the list. */
const LIST_NAMES = 3;

/** A page of the shopper's orders, newest first (pageNo counts from 1). */
export async function ordersOf(
  db: Database,
  rules: Pick<OrderRules, 'delivery'>,
  userId: number,
  pageNo: number,
  pageSize: number,
): Promise<OrderPageDto> {
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      createdAt: orders.createdAt,
      slotId: deliverySlots.id,
      startsAt: deliverySlots.startsAt,
      endsAt: deliverySlots.endsAt,
      totalPaise: orders.totalPaise,
      cancelledBy: orders.cancelledBy,
      cancelReason: orders.cancelReason,
      paymentStatus: orders.paymentStatus,
      // A past order reads as what happened (issue 25): the time of its delivered or cancelled event.
      settledAt: sql<string | null>`(case when ${orders.status} in ('delivered', 'cancelled') then (select max(${orderEvents.at}) from ${orderEvents}
        where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.status} = ${orders.status}) end)`,
      itemCount: sql<number>`(select coalesce(sum(${orderLines.qty}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
      names: sql<string[]>`(select coalesce(json_agg(first.name), '[]'::json) from (select ${orderLines.name} as name from ${orderLines}
        where ${orderLines.orderId} = ${orders.id} order by ${orderLines.id} limit ${LIST_NAMES}) first)`,
    })
    .from(orders)
    .innerJoin(deliverySlots, eq(deliverySlots.id, orders.slotId))
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const [counted] = await db.select({ total: count() }).from(orders).where(eq(orders.userId, userId));
  const items: OrderListItemDto[] = rows.map((r) => ({
    id: r.id,
    status: r.status,
    createdAt: iso(r.createdAt),
    slot: { id: r.slotId, startsAt: iso(r.startsAt), endsAt: iso(r.endsAt) },
    itemCount: r.itemCount,
    totalPaise: r.totalPaise,
    names: r.names,
    cancelledBy: r.cancelledBy,
    cancelReason: r.cancelReason,
    paymentStatus: r.paymentStatus,
    settledAt: r.settledAt === null ? null : iso(r.settledAt),
  }));
  return { orders: items, pageNo, pageSize, total: counted?.total ?? 0, timeZone: rules.delivery.timeZone };
}

/** Who cancelled an order: the shopper, or the shop (the grocer, with a reason the shopper is shown). */
export type CancelledBy = NonNullable<(typeof orders.$inferSelect)['cancelledBy']>;

/**
 * What a cancellation does once its transaction holds the order's row, whoever cancels: the order says who cancelled it
 * and why, its slot's place is freed and its units go back on the shelf. The slot's row is taken before the products'
 * (by product id, then pack id), the order placeOrder takes them in, so an order and a cancellation racing on
 * PostgreSQL cannot deadlock. True when the catalogue pages show a different shelf afterwards.
 */
export async function releaseOrder(
  tx: Database,
  order: { id: number; slotId: string },
  cancelledBy: CancelledBy,
  cancelReason: string | null = null,
): Promise<boolean> {
  await tx.update(orders).set({ status: 'cancelled', cancelledBy, cancelReason }).where(eq(orders.id, order.id));
  await tx.insert(orderEvents).values({ orderId: order.id, status: 'cancelled' });
  await recordNotice(tx, order.id, 'cancelled');
  await tx
    .update(deliverySlots)
    .set({ taken: sql`${deliverySlots.taken} - 1` })
    .where(and(eq(deliverySlots.id, order.slotId), gt(deliverySlots.taken, 0)));
  const lines = await tx
    .select({ productId: orderLines.productId, variantId: orderLines.variantId, qty: orderLines.qty })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.productId), sql`coalesce(${orderLines.variantId}, 0)`);
  const shelfBefore = await shelfOf(tx, lines.map((l) => l.productId));
  for (const line of lines) await returnStock(tx, line.productId, line.variantId, line.qty);
  return shelfBefore !== (await shelfOf(tx, lines.map((l) => l.productId)));
}

/** Cancels a placed order of the shopper's, giving back its stock and its slot's place, in one transaction. */
export async function cancelOrder(
  db: Database,
  rules: Pick<OrderRules, 'delivery'>,
  userId: number,
  orderId: number,
): Promise<{ order: OrderDto; shelfChanged: boolean }> {
  const shelfChanged = await withTransactionRetry(() =>
    db.transaction(async (tx) => {
      const [order] = await tx
        .select({ id: orders.id, status: orders.status, slotId: orders.slotId })
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
        .for('update');
      if (!order) throw orderNotFound(orderId);
      if (order.status === 'cancelled') throw conflict(ALREADY_CANCELLED);
      if (order.status !== 'placed') throw conflict(ALREADY_PACKED);
      return releaseOrder(tx, order, 'shopper');
    }),
  );
  const order = await orderOf(db, rules, userId, orderId);
  if (!order) throw orderNotFound(orderId);
  return { order, shelfChanged };
}

/**
 * Puts an order's lines back in the cart at today's prices, through the cart's own add (so its rules hold: in stock,
 * priced, at most limits.unitsPerProduct of one item). A line that cannot be added is named with the reason.
 */
export async function reorder(db: Database, rules: Pick<OrderRules, 'offers' | 'limits'>, userId: number, orderId: number): Promise<ReorderResultDto> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw orderNotFound(orderId);
  const lines = await db
    .select({ productId: orderLines.productId, variantId: orderLines.variantId, name: orderLines.name, variantName: orderLines.variantName, qty: orderLines.qty })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const added: ReorderResultDto['added'] = [];
  const unavailable: ReorderResultDto['unavailable'] = [];
  for (const line of lines) {
    try {
      await addToCart(db, userId, { productId: line.productId, variantId: line.variantId ?? 0, qty: line.qty }, rules.limits.unitsPerProduct);
      added.push({ productsId: line.productId, name: labelOf(line), qty: line.qty });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      unavailable.push({ productsId: line.productId, name: labelOf(line), reason: error.message });
    }
  }
  return { cart: await cartOf(db, userId, rules), added, unavailable };
}
