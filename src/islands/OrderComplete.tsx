// /OrderComplete?id=N: the thanks and the order just placed. An island because the order is the shopper's own,
// fetched after the page loads (the page's HTML is the same for everyone).
import { STATUS_LABELS } from '../lib/order-status.ts';
import { urls } from '../lib/urls.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';
import { OrderPlaceholder, OrderView, useOrderFromUrl } from './OrderView.tsx';

function Complete() {
  const [view] = useOrderFromUrl();
  if (view.state !== 'ready') return <OrderPlaceholder view={view} />;
  const { order } = view;
  return (
    <>
      {/* Come back to later, the page says where the order is now, not that it was just placed. */}
      {order.status === 'placed' ? (
        <p className="notice order-thanks" data-testid="order-thanks">
          <strong>Thank you! Your order #{order.id} is placed.</strong> We will bring it in the slot you chose.
        </p>
      ) : (
        <p className="notice order-thanks" data-testid="order-thanks">
          <strong>
            Your order #{order.id} is {STATUS_LABELS[order.status].toLowerCase()}.
          </strong>
        </p>
      )}
      <OrderView order={order} />
      <p className="order-next">
        <a className="button" href={urls.orderDetails(order.id)}>
          Track this order
        </a>{' '}
        <a className="button secondary" href={urls.hot()}>
          Keep shopping
        </a>
      </p>
    </>
  );
}

export default function OrderComplete() {
  return (
    <ErrorBoundary>
      <Complete />
    </ErrorBoundary>
  );
}
