// /previous-order (Order Tracking, SPEC §2): the shopper's orders, newest first, a page at a time (?page=N), each
// with 'Order again'. An island: the orders are the shopper's own, fetched after the page loads.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { browserOrders } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { formatDateTime } from '../lib/dates.ts';
import { formatRupees } from '../lib/money.ts';
import { itemCountText, orderWhenText, reorderText, shopCancelText, STATUS_LABELS } from '../lib/order-status.ts';
import { isSettledStatus } from '../lib/poll-backoff.ts';
import { startLivePoll } from '../client/live-poll.ts';
import { pageFromUrl } from '../lib/paging.ts';
import { urls } from '../lib/urls.ts';
import type { OrderListItemDto, OrderPageDto, ReorderResultDto } from '../server/order-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { showCart } from '../stores/cart.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; page: OrderPageDto };
type Reordered = { orderId: number; result: ReorderResultDto } | { orderId: number; problem: string };

function ReorderNotice({ outcome }: { outcome: Reordered }) {
  if ('problem' in outcome)
    return (
      <p className="form-error" role="alert">
        {outcome.problem}
      </p>
    );
  const text = reorderText(outcome.result);
  return (
    <div className="notice reorder-notice" data-testid="reorder-notice">
      <p>
        <strong>{text.added}.</strong> <a href={urls.cart()}>Go to your cart</a>
      </p>
      {text.unavailable && (
        <>
          <p data-testid="reorder-unavailable">{text.unavailable}.</p>
          <ul className="reorder-reasons">
            {text.reasons.map((reason, i) => (
              <li key={i}>{reason}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function OrderCard({ order, timeZone, busy, onReorder }: { order: OrderListItemDto; timeZone: string; busy: boolean; onReorder: () => void }) {
  const shopCancelled = shopCancelText(order);
  return (
    <li className="order-card" data-testid="order-card" data-order-id={order.id}>
      <div className="order-card-head">
        <h2>
          <a href={urls.orderDetails(order.id)}>Order #{order.id}</a>
        </h2>
        <span className={`status-badge status-${order.status}`} data-testid="order-status">
          {STATUS_LABELS[order.status]}
        </span>
      </div>
      <p className="muted">
        Placed on {formatDateTime(order.createdAt, timeZone)} · <span data-testid="order-when">{orderWhenText(order, timeZone)}</span>
      </p>
      <p>
        {itemCountText(order.itemCount)} · <strong>{formatRupees(order.totalPaise)}</strong>
      </p>
      <p className="order-card-names">{order.names.join(', ')}</p>
      {shopCancelled && (
        <p className="order-cancel-reason" data-testid="cancel-reason">
          {shopCancelled}
        </p>
      )}
      <p className="order-card-actions">
        <a className="button secondary" href={urls.orderDetails(order.id)}>
          Details<span className="visually-hidden"> of order #{order.id}</span>
        </a>
        <button type="button" className="button" onClick={onReorder} aria-disabled={busy || undefined} disabled={busy}>
          Order again<span className="visually-hidden"> (order #{order.id})</span>
        </button>
      </p>
    </li>
  );
}

function Tracking() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [busyOrder, setBusyOrder] = useState<number | null>(null);
  const [reordered, setReordered] = useState<Reordered | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const pageNo = pageFromUrl(new URL(window.location.href));

  useEffect(() => {
    if (!userId) return;
    if (pageNo === null) {
      setView({ state: 'failed', message: 'There is no such page of orders.' });
      return;
    }
    browserOrders
      .list(userId, pageNo)
      .then((page) => setView({ state: 'ready', page }))
      .catch((error: unknown) => {
        console.error('Cannot load the orders', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your orders could not be loaded.') });
      });
  }, [userId, pageNo]);

  useEffect(() => {
    if (reordered) noticeRef.current?.focus();
  }, [reordered]);

  // Live status (issue 25): while an order on this page is on its way, the list follows the grocer's steps.
  const [news, setNews] = useState('');
  const loadedPage = view.state === 'ready' ? view.page : null;
  const open = loadedPage?.orders.some((order) => !isSettledStatus(order.status)) ?? false;
  const shownRef = useRef(loadedPage);
  shownRef.current = loadedPage;
  useEffect(() => {
    if (!userId || pageNo === null || !open || !shownRef.current) return;
    return startLivePoll({
      current: () => shownRef.current!,
      poll: (etag) => browserOrders.pollList(userId, pageNo, etag),
      onChange: (page) => {
        const before = new Map(shownRef.current?.orders.map((order) => [order.id, order.status]));
        const moved = page.orders.filter((order) => before.has(order.id) && before.get(order.id) !== order.status);
        setNews(moved.map((order) => `Order #${order.id} is now ${STATUS_LABELS[order.status].toLowerCase()}.`).join(' '));
        setView({ state: 'ready', page });
      },
      settled: (page) => page.orders.every((order) => isSettledStatus(order.status)),
    });
  }, [userId, pageNo, open]);

  const reorder = async (orderId: number) => {
    setBusyOrder(orderId);
    try {
      const result = await browserOrders.reorder(orderId);
      showCart(result.cart);
      setReordered({ orderId, result });
    } catch (error) {
      console.error('Cannot order again', error);
      setReordered({ orderId, problem: apiErrorMessage(error, `Order #${orderId} could not be put back in your cart.`) });
    } finally {
      setBusyOrder(null);
    }
  };

  if (view.state === 'loading') return <p role="status">Loading your orders…</p>;
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message} <a href={urls.previousOrders()}>Back to your latest orders</a>
      </p>
    );

  const { orders, pageNo: shown, pageSize, total, timeZone } = view.page;
  if (orders.length === 0)
    return (
      <div className="notice" data-testid="no-orders">
        <h2>{total === 0 ? 'No orders yet' : 'No orders on this page'}</h2>
        <p>{total === 0 ? 'Your orders will show here, with where each one is.' : 'This page is past your last order.'}</p>
        <a className="button" href={total === 0 ? urls.hot() : urls.previousOrders()}>
          {total === 0 ? 'Start shopping' : 'Your latest orders'}
        </a>
      </div>
    );

  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  return (
    <>
      {/* Focus moves here when 'Order again' is done, so the outcome is read out whatever order it came from. */}
      <div ref={noticeRef} tabIndex={-1} aria-live="polite" className="reorder-outcome">
        {reordered && <ReorderNotice outcome={reordered} />}
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="order-news">
        {news}
      </p>
      <p className="muted">
        {total} {total === 1 ? 'order' : 'orders'}, newest first
      </p>
      <ul className="order-cards">
        {orders.map((order) => (
          <OrderCard
            key={order.id}
            order={order}
            timeZone={timeZone}
            busy={busyOrder !== null}
            onReorder={() => void reorder(order.id)}
          />
        ))}
      </ul>
      {lastPage > 1 && (
        <nav className="order-pages" aria-label="Pages of orders">
          {shown > 1 && (
            <a href={urls.previousOrders(shown - 1)} rel="prev">
              ← Prev
            </a>
          )}
          <span>
            Page {shown} of {lastPage}
          </span>
          {shown < lastPage && (
            <a href={urls.previousOrders(shown + 1)} rel="next">
              Next →
            </a>
          )}
        </nav>
      )}
    </>
  );
}

export default function OrderTracking() {
  return (
    <ErrorBoundary>
      <Tracking />
    </ErrorBoundary>
  );
}
