// The money of a cart or an order as the server computed it (SPEC §1 offers, each discount on its own line): the
// browser only formats it (src/lib/money.ts), so the cart, the checkout and the order show the same numbers.
import { Fragment } from 'react';
import { formatRupees } from '../../lib/money.ts';
import type { CartSummaryDto } from '../../server/account-schemas.ts';

export function MoneySummary({ summary }: { summary: CartSummaryDto }) {
  return (
    <dl className="money-summary" data-testid="money-summary">
      <dt>Subtotal</dt>
      <dd data-testid="summary-subtotal">{formatRupees(summary.subtotalPaise)}</dd>
      {summary.savingsPaise > 0 && (
        <>
          <dt>You save on MRP</dt>
          <dd data-testid="summary-savings">{formatRupees(summary.savingsPaise)}</dd>
        </>
      )}
      {summary.discounts.map((discount) => (
        <Fragment key={discount.code}>
          <dt data-testid="discount-label">{discount.label}</dt>
          <dd data-testid="discount-amount" className="discount">
            −{formatRupees(discount.amountPaise)}
          </dd>
        </Fragment>
      ))}
      <dt>Delivery</dt>
      <dd data-testid="summary-delivery">{summary.deliveryPaise === 0 ? 'Free' : formatRupees(summary.deliveryPaise)}</dd>
      <dt className="summary-total">Total</dt>
      <dd className="summary-total" data-testid="summary-total">
        {formatRupees(summary.totalPaise)}
      </dd>
    </dl>
  );
}
