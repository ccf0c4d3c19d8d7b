// The payment step behind one interface (issue 25), so a payment gateway can fill it later without the orders
// changing: a provider makes the payment request of an order awaiting payment, and whoever learns that the money
// arrived (today the grocer, `npm run orders -- paid 12`; later a gateway's webhook, after checking its signature)
// calls confirmPayment (src/server/services/payments.ts). How a gateway would be added: docs/payments.md.
import { upiPaymentRequest, type UpiPayee, type UpiPaymentRequest } from './upi.ts';

export type PaymentRequest = UpiPaymentRequest;

export interface PaymentProvider {
  /** Which provider made a request: 'upi-direct' pays the grocer's own UPI ID, with no gateway between. */
  readonly name: string;
  /** What the shopper pays from: made again at each read (the same order gives the same request). */
  requestFor(order: { id: number; totalPaise: number }): Promise<PaymentRequest>;
}

/** The rules of paying now that the orders need: how long an unpaid order is kept, and who makes its request. */
export interface PayNowRules {
  payWithinMinutes: number;
  provider: PaymentProvider;
}

/** Straight to the grocer's UPI ID (store.yaml's payments): the grocer sees the money arrive and confirms it. */
export function directUpiProvider(payee: UpiPayee, shopName: string): PaymentProvider {
  return { name: 'upi-direct', requestFor: (order) => upiPaymentRequest(payee, order, shopName) };
}

/** The shop's pay-now rules from its settings. */
export function payNowRules(store: { shopName: string; payments: UpiPayee & { payWithinMinutes: number } }): PayNowRules {
  return { payWithinMinutes: store.payments.payWithinMinutes, provider: directUpiProvider(store.payments, store.shopName) };
}
