// How an order's status and payment read to a shopper, for the order pages and Order Tracking.
import type { OrderDto, ReorderResultDto } from '../server/order-schemas.ts';
import { formatEventTime } from './dates.ts';
import { formatSlotWhen } from './slots.ts';
import { formatDateTime } from './dates.ts';
import { formatExactRupees } from './money.ts';

type Status = OrderDto['status'];

export const STATUS_LABELS: Record<Status, string> = {
  placed: 'Placed',
  packed: 'Packed',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** The timeline's steps in order; a cancelled order stops where it was and says so. */
export const TIMELINE_STEPS = ['placed', 'packed', 'out_for_delivery', 'delivered'] as const satisfies readonly Status[];

/** The step after each status; delivered and cancelled are where an order ends. */
export const NEXT_STATUS: Partial<Record<Status, Status>> = {
  placed: 'packed',
  packed: 'out_for_delivery',
  out_for_delivery: 'delivered',
};

/** A status as the grocer's messages and `npm run orders` write it: 'out for delivery'. */
export const statusLabel = (status: Status) => status.replaceAll('_', ' ');

export const PAYMENT_LABELS: Record<OrderDto['paymentMethod'], string> = {
  cash: 'Cash on delivery',
  upi: 'UPI on delivery',
  upi_now: 'UPI — pay now',
};

/**
 * What the shopper is told of an order the shop cancelled (issue 22): "Cancelled by the shop: <reason>", or a pay-now
 * order whose payment did not come in time (issue 25): "Cancelled: Payment not received in time". Null when it is not
 * cancelled, or the shopper cancelled it (the status says enough).
 */
export function shopCancelText(order: Pick<OrderDto, 'status' | 'cancelledBy' | 'cancelReason'>): string | null {
  if (order.status === 'cancelled' && order.cancelledBy === 'payment_expired') {
    return `Cancelled: ${order.cancelReason ?? 'Payment not received in time'}`;
  }
  if (order.status !== 'cancelled' || order.cancelledBy !== 'shop') return null;
  return order.cancelReason ? `Cancelled by the shop: ${order.cancelReason}` : 'Cancelled by the shop';
}

/** A time of day in the shop's clock, as a deadline is read: '10:42'. */
const clockTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));

/**
 * Where a pay-now order's payment is (issue 25), in the shopper's words: 'Awaiting payment — pay ₹258.00 by 10:42',
 * 'Paid on 23 Nov 2026, 10:42 am'. Null for an order paid on delivery, and for one no longer awaiting (cancelled:
 * its cancel text says why).
 */
export function paymentStateText(order: Pick<OrderDto, 'status' | 'payment' | 'summary' | 'timeZone'>): string | null {
  const { payment } = order;
  if (payment.status === 'paid' && payment.paidAt) return `Paid on ${formatDateTime(payment.paidAt, order.timeZone)}`;
  if (payment.status === 'awaiting' && order.status === 'placed' && payment.dueAt) {
    return `Awaiting payment — pay ${formatExactRupees(order.summary.totalPaise)} by ${clockTime(payment.dueAt, order.timeZone)}`;
  }
  return null;
}

export const itemCountText = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;

/**
 * What 'Order again' did, in the shopper's words. The API's reasons are whole sentences ('Sorry, Idli Rice is out of
 * stock right now.'), shown as they are under the names.
 */
export function reorderText(result: Pick<ReorderResultDto, 'added' | 'unavailable'>): { added: string; unavailable: string | null; reasons: string[] } {
  const count = result.added.reduce((sum, line) => sum + line.qty, 0);
  return {
    added: count > 0 ? `${itemCountText(count)} added to your cart` : 'Nothing could be added to your cart',
    unavailable: result.unavailable.length ? `No longer available: ${result.unavailable.map((line) => line.name).join(', ')}` : null,
    reasons: result.unavailable.map((line) => line.reason),
  };
}

/** When a delivered or cancelled order became so: its last event of that status; null while it is open. */
export function settledAtOf(order: Pick<OrderDto, 'status' | 'timeline'>): string | null {
  if (order.status !== 'delivered' && order.status !== 'cancelled') return null;
  return order.timeline.filter((event) => event.status === order.status).at(-1)?.at ?? null;
}

/**
 * An order's when, as the shopper reads it (issue 25): a past order says what happened ('Delivered on Thu, 26 Nov,
 * 10:42', 'Cancelled on …'); an open one keeps its promise ('Delivery Tomorrow, 10:00 AM – 12:00 PM').
 */
export function orderWhenText(
  order: Pick<OrderDto, 'status' | 'slot'> & { settledAt: string | null },
  timeZone: string,
  today?: string,
): string {
  if (order.settledAt && order.status === 'delivered') return `Delivered on ${formatEventTime(order.settledAt, timeZone)}`;
  if (order.settledAt && order.status === 'cancelled') return `Cancelled on ${formatEventTime(order.settledAt, timeZone)}`;
  return `Delivery ${formatSlotWhen(order.slot, timeZone, today)}`;
}
