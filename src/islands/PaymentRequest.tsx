// The UPI payment request of an order awaiting its payment (issue 25), shown by OrderView on the order's pages. Not an
// island by itself. On a phone, a button opens the shopper's UPI app with everything filled in (the upi:// link); on a
// computer, the QR code to scan with a phone. The QR was drawn on the server (an SVG in the order's answer), so it
// costs the page no script; the UPI ID, payee, amount and note are written out too, to be typed in by hand.
import type { OrderDto } from '../server/order-schemas.ts';
import { paymentStateText } from '../lib/order-status.ts';

type Request = NonNullable<OrderDto['payment']['request']>;

const svgSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export function PaymentRequest({ order, request }: { order: OrderDto; request: Request }) {
  const amount = `₹${request.amount}`;
  return (
    <section className="order-box pay-now" aria-labelledby="pay-now-title" data-testid="pay-now">
      <h2 id="pay-now-title" data-testid="pay-now-state">
        {paymentStateText(order)}
      </h2>
      <p className="muted">We keep your items and delivery slot until then. Unpaid by then, the order is cancelled.</p>
      <p className="pay-now-app">
        <a className="button" href={request.link} data-testid="pay-with-upi-app">
          Pay with a UPI app
        </a>
      </p>
      <figure className="pay-now-qr" data-testid="pay-now-qr">
        <img
          src={svgSource(request.qrSvg)}
          width="200"
          height="200"
          alt={`QR code: pay ${amount} to ${request.payeeName} (UPI ID ${request.upiId}), note "${request.note}"`}
        />
        <figcaption>Scan with any UPI app on your phone (Google Pay, PhonePe, Paytm, BHIM…).</figcaption>
      </figure>
      <dl className="pay-now-facts" data-testid="pay-now-facts">
        <dt>UPI ID</dt>
        <dd data-testid="pay-now-upi-id">{request.upiId}</dd>
        <dt>Pay to</dt>
        <dd>{request.payeeName}</dd>
        <dt>Amount</dt>
        <dd data-testid="pay-now-amount">{amount}</dd>
        <dt>Note</dt>
        <dd data-testid="pay-now-note">{request.note}</dd>
      </dl>
    </section>
  );
}
