// How an order's status and payment read to a shopper, for the order pages and Order Tracking.
import type { OrderDto, ReorderResultDto } from '../server/order-schemas.ts';

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

export const PAYMENT_LABELS: Record<OrderDto['paymentMethod'], string> = {
  cash: 'Cash on delivery',
  upi: 'UPI on delivery',
  upi_now: 'UPI, paid now',
};

/**
 * What the shopper is told of an order the shop cancelled (issue 22): "Cancelled by the shop: <reason>". Null when it
 * is not cancelled, or the shopper cancelled it (the status says enough).
 */
export function shopCancelText(order: Pick<OrderDto, 'status' | 'cancelledBy' | 'cancelReason'>): string | null {
  if (order.status !== 'cancelled' || order.cancelledBy !== 'shop') return null;
  return order.cancelReason ? `Cancelled by the shop: ${order.cancelReason}` : 'Cancelled by the shop';
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
