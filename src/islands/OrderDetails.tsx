// /orderdetails?id=N: one order, where it is on its way, and 'Cancel order' while it is not yet packed. An island:
// the order is the shopper's own and cancelling changes it in place.
import { useEffect, useRef, useState } from 'react';
import { browserOrders } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { formatDateTime } from '../lib/dates.ts';
import { shopCancelText, STATUS_LABELS, TIMELINE_STEPS } from '../lib/order-status.ts';
import { urls } from '../lib/urls.ts';
import type { OrderDto } from '../server/order-schemas.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';
import { startLivePoll } from '../client/live-poll.ts';
import { isSettledStatus } from '../lib/poll-backoff.ts';
import { OrderPlaceholder, OrderView, useOrderFromUrl } from './OrderView.tsx';

function Timeline({ order }: { order: OrderDto }) {
  const at = new Map(order.timeline.map((event) => [event.status, event.at]));
  const cancelled = order.status === 'cancelled';
  // A cancelled order shows the steps it went through, then 'Cancelled'; the others show every step to come.
  const steps = cancelled ? TIMELINE_STEPS.filter((step) => at.has(step)) : TIMELINE_STEPS;
  const shown = cancelled ? [...steps, 'cancelled' as const] : steps;
  return (
    <ol className="order-timeline" data-testid="order-timeline">
      {shown.map((step) => {
        const time = at.get(step);
        return (
          <li
            key={step}
            className={time ? (step === 'cancelled' ? 'cancelled' : 'done') : undefined}
            aria-current={step === order.status ? 'step' : undefined}
          >
            <span className="step-name">{STATUS_LABELS[step]}</span>
            {time ? (
              <time dateTime={time}>{formatDateTime(time, order.timeZone)}</time>
            ) : (
              <span className="muted">Not yet</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function CancelOrder({ order, onCancelled }: { order: OrderDto; onCancelled: (order: OrderDto) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  // Focus follows the question: onto 'Yes' when it appears, back onto 'Cancel order' when it is withdrawn.
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) askRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const cancel = async () => {
    setBusy(true);
    setProblem('');
    try {
      onCancelled(await browserOrders.cancel(order.id));
    } catch (error) {
      console.error('Cannot cancel the order', error);
      // 409: it was packed meanwhile; the API's words say so.
      setProblem(apiErrorMessage(error, 'This order could not be cancelled.'));
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="order-cancel">
      {problem && (
        <p className="form-error" role="alert" data-testid="cancel-problem">
          {problem}
        </p>
      )}
      {asking ? (
        <div role="group" aria-labelledby="cancel-question" className="order-cancel-confirm">
          <p id="cancel-question">
            Cancel order #{order.id}? Its items go back on the shelf and you pay nothing.
          </p>
          <button ref={confirmRef} type="button" className="button danger" onClick={() => void cancel()} aria-disabled={busy || undefined} disabled={busy}>
            Yes, cancel the order
          </button>{' '}
          <button type="button" className="button secondary" onClick={() => setAsking(false)} disabled={busy}>
            Keep the order
          </button>
        </div>
      ) : (
        <button ref={askRef} type="button" className="button secondary" onClick={() => setAsking(true)}>
          Cancel order
        </button>
      )}
    </div>
  );
}

/**
 * Live status (issue 25): while the order is on its way, the page follows the grocer's steps by itself (polling with
 * backoff, src/client/live-poll.ts) and says the new status politely. Returns what to announce.
 */
function useLiveOrder(order: OrderDto | null, setOrder: (order: OrderDto) => void): string {
  const [news, setNews] = useState('');
  const orderRef = useRef(order);
  orderRef.current = order;
  const id = order?.id;
  const open = order !== null && !isSettledStatus(order.status);
  useEffect(() => {
    if (id === undefined || !open) return;
    return startLivePoll({
      current: () => orderRef.current!,
      poll: (etag) => browserOrders.pollOne(id, etag),
      onChange: (next) => {
        if (next.status !== orderRef.current?.status) setNews(`Order #${next.id} is now ${STATUS_LABELS[next.status].toLowerCase()}.`);
        setOrder(next);
      },
      settled: (next) => isSettledStatus(next.status),
    });
  }, [id, open]);
  return news;
}

function Details() {
  const [view, setOrder] = useOrderFromUrl();
  const statusRef = useRef<HTMLHeadingElement>(null);
  const news = useLiveOrder(view.state === 'ready' ? view.order : null, setOrder);
  if (view.state !== 'ready') return <OrderPlaceholder view={view} />;
  const { order } = view;
  const shopCancelled = shopCancelText(order);
  const cancelled = (next: OrderDto) => {
    setOrder(next);
    // The button is gone with the question: the new status takes focus and is read out.
    requestAnimationFrame(() => statusRef.current?.focus());
  };
  return (
    <>
      <section className="order-status" aria-labelledby="order-status-title">
        <h2 id="order-status-title" ref={statusRef} tabIndex={-1}>
          Order #{order.id}:{' '}
          <span className={`status-badge status-${order.status}`} data-testid="order-status">
            {STATUS_LABELS[order.status]}
          </span>
        </h2>
        <p className="muted">Placed on {formatDateTime(order.createdAt, order.timeZone)}</p>
        <p className="visually-hidden" aria-live="polite" data-testid="order-news">
          {news}
        </p>
        {shopCancelled && (
          <p className="order-cancel-reason" data-testid="cancel-reason">
            {shopCancelled}
          </p>
        )}
        <Timeline order={order} />
        {order.cancellable && <CancelOrder order={order} onCancelled={cancelled} />}
      </section>
      {order.status === 'delivered' && (
        <p className="order-invoice-link">
          <a href={urls.invoice(order.id)} data-testid="invoice-link">
            Invoice for order #{order.id}
          </a>
        </p>
      )}
      <OrderView order={order} onReported={setOrder} />
      <p className="order-next">
        <a href={urls.previousOrders()}>All your orders</a>
      </p>
    </>
  );
}

export default function OrderDetails() {
  return (
    <ErrorBoundary>
      <Details />
    </ErrorBoundary>
  );
}
