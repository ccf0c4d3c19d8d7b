// One placed order as the shopper sees it: on OrderComplete and on its details page (not an island by itself; the
// OrderComplete and OrderDetails islands render it). Every number comes from the server's order, only formatted.
import { useEffect, useState, type ReactNode } from 'react';
import { browserOrders } from '../client/api.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { ADDRESS_TYPE_LABELS, addressLine } from '../lib/address-form.ts';
import { positiveIdFrom } from '../lib/ids.ts';
import { formatRupees } from '../lib/money.ts';
import { itemCountText, orderWhenText, PAYMENT_LABELS, paymentStateText, settledAtOf } from '../lib/order-status.ts';
import { formatSlotWhen } from '../lib/slots.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { pictureProps } from '../lib/picture.ts';
import type { OrderDto } from '../server/order-schemas.ts';
import { MoneySummary } from './checkout/MoneySummary.tsx';
import { FoodMark } from './FoodMark.tsx';
import { LineIssue } from './LineIssue.tsx';
import { PaymentRequest } from './PaymentRequest.tsx';

export type LoadedOrder =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; order: OrderDto };

/** The order the page's `?id=` names. Not a number, not there or another shopper's (404): 'missing'. */
export function useOrderFromUrl(): [LoadedOrder, (order: OrderDto) => void] {
  const [view, setView] = useState<LoadedOrder>({ state: 'loading' });
  useEffect(() => {
    const id = positiveIdFrom(new URLSearchParams(window.location.search).get('id'));
    if (id === null) {
      setView({ state: 'missing' });
      return;
    }
    browserOrders
      .one(id)
      .then((order) => setView({ state: 'ready', order }))
      .catch((error: unknown) => {
        if (apiStatus(error) === 404) return setView({ state: 'missing' });
        console.error('Cannot load the order', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'This order could not be loaded.') });
      });
  }, []);
  return [view, (order) => setView({ state: 'ready', order })];
}

/** What to show while an order is not ready; null once it is. */
export function OrderPlaceholder({ view }: { view: LoadedOrder }): ReactNode {
  if (view.state === 'loading') return <p role="status">Loading your order…</p>;
  if (view.state === 'missing')
    return (
      <div className="notice" data-testid="no-such-order">
        <h2>No such order</h2>
        <p>
          It is not one of your orders. <a href={urls.previousOrders()}>See your orders in Order Tracking</a>
        </p>
      </div>
    );
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message}
      </p>
    );
  return null;
}

/** `onReported`: where a line's issue report puts the order the API answers (the details page); none: no reports. */
export function OrderView({ order, onReported }: { order: OrderDto; onReported?: (order: OrderDto) => void }) {
  const { summary, address } = order;
  const paymentState = paymentStateText(order);
  return (
    <>
    {order.payment.request && <PaymentRequest order={order} request={order.payment.request} />}
    <div className="order-view" data-testid="order-view">
      <section aria-labelledby="order-lines-title">
        <h2 id="order-lines-title">{itemCountText(summary.itemCount)}</h2>
        <ul className="order-lines">
          {order.lines.map((line) => (
            <li key={`${line.productsId}-${line.productVariantsId}`} className="order-line" data-testid="order-line">
              <img {...pictureProps(line.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'line')} alt="" width="64" height="64" loading="lazy" />
              <div className="order-line-info">
                <span>
                  <FoodMark foodType={line.foodType} />{' '}
                  <a href={urls.product(line.productsId)} className="order-line-name">
                    {line.name}
                  </a>
                </span>
                {line.variantName && <span className="muted">Pack size: {line.variantName}</span>}
                <span className="muted">
                  {line.qty} × {formatRupees(line.unitPricePaise)}
                </span>
              </div>
              <strong data-testid="order-line-total">{formatRupees(line.lineTotalPaise)}</strong>
              {onReported && (line.issue || order.status === 'delivered') && (
                <div className="order-line-issue">
                  <LineIssue order={order} line={line} onReported={onReported} />
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>
      <div className="order-side">
        <section className="order-box" aria-labelledby="order-summary-title" data-testid="order-summary">
          <h2 id="order-summary-title">Summary</h2>
          <MoneySummary summary={summary} />
        </section>
        <section className="order-box" aria-labelledby="order-delivery-title">
          <h2 id="order-delivery-title">Delivery</h2>
          <p data-testid="order-slot">
            {/* A past order says what happened ('Delivered on …'); an open one keeps its promise (the slot). */}
            <strong>{settledAtOf(order) ? orderWhenText({ ...order, settledAt: settledAtOf(order) }, order.timeZone) : formatSlotWhen(order.slot, order.timeZone)}</strong>
          </p>
          <address data-testid="order-address">
            {address.name}
            {address.addressType && ` (${ADDRESS_TYPE_LABELS[address.addressType]})`}
            <br />
            {addressLine(address)}
            <br />
            Mobile: {address.phone}
          </address>
          {address.instructions && <p data-testid="order-instructions">Delivery instructions: {address.instructions}</p>}
          <h3>Payment</h3>
          <p data-testid="order-payment">{PAYMENT_LABELS[order.paymentMethod]}</p>
          {paymentState && <p data-testid="order-payment-state">{paymentState}</p>}
        </section>
      </div>
    </div>
    </>
  );
}
