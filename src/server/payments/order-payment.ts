// An order's payment as the API answers it: how it is paid, where the payment is, and, while it awaits its payment,
// the request to pay from (made by the shop's PaymentProvider).
import type { OrderPaymentDto } from '../order-schemas.ts';
import type { PaymentMethod, PaymentStatus, OrderStatus } from '../db/schema.ts';
import type { PayNowRules } from './provider.ts';

export interface PaymentColumns {
  id: number;
  status: OrderStatus;
  totalPaise: number;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  paymentDueAt: Date | string | null;
  paidAt: Date | string | null;
}

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** Without pay-now rules (the grocer's view of an order), an awaiting order carries no request. */
export async function orderPaymentOf(row: PaymentColumns, payNow: PayNowRules | undefined): Promise<OrderPaymentDto> {
  const awaiting = row.paymentStatus === 'awaiting' && row.status === 'placed';
  return {
    method: row.paymentMethod,
    status: row.paymentStatus,
    dueAt: iso(row.paymentDueAt),
    paidAt: iso(row.paidAt),
    request: awaiting && payNow ? await payNow.provider.requestFor(row) : null,
  };
}
