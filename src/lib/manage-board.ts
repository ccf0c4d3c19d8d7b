// The back office's orders board (issue 34): what its headings and rows say, and the board's signature, which the page
// writes into its HTML and its small live script computes again from /api/grocer/Orders to see that something changed.
import type { GrocerDayDto, GrocerOrderRowDto } from '../server/grocer-schemas.ts';
import { STATUS_LABELS } from './order-status.ts';

type Status = GrocerOrderRowDto['status'];

/** The board's filters, in the order an order moves. */
export const BOARD_FILTERS: readonly Status[] = ['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'];

export const isBoardFilter = (value: string | null): value is Status => BOARD_FILTERS.includes(value as Status);

/** Where an order's money is, as the person packing or delivering it needs to know. */
export function paymentStateLabel(order: Pick<GrocerOrderRowDto, 'paymentMethod' | 'paymentStatus'>): string {
  switch (order.paymentStatus) {
    case 'paid':
      return 'Paid (UPI)';
    case 'awaiting':
      return 'Awaiting UPI payment';
    case 'expired':
      return 'Payment not received';
    case 'on_delivery':
      return order.paymentMethod === 'upi' ? 'Collect by UPI' : 'Collect cash';
  }
}

export const statusLabel = (status: Status) => STATUS_LABELS[status];

/** The step the board's button takes an order to, as its label says it: 'Mark packed'. */
export const NEXT_STEP: Partial<Record<Status, Status>> = { placed: 'packed', packed: 'out_for_delivery', out_for_delivery: 'delivered' };

/** One string for what the board shows: which orders, in which state. A new order or a change makes another. */
export function boardSignature(days: readonly Pick<GrocerDayDto, 'slots'>[]): string {
  return days
    .flatMap((day) => day.slots.flatMap((slot) => slot.orders.map((o) => `${o.id}:${o.status}:${o.paymentStatus}`)))
    .sort()
    .join(',');
}

/** The day after a 'YYYY-MM-DD' date. */
export function nextDate(date: string): string {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
