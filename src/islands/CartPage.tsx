// The cart (/cart): an island because everything in it is the shopper's own, fetched after the page loads
// (the page's HTML is the same for everyone), and it changes as they step quantities and remove lines. Lines out of
// stock are set apart, out of the total, each with Remove and 'Notify me when back' (issue 24).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { browserCart } from '../client/api.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { formatRupees } from '../lib/money.ts';
import { itemCountText } from '../lib/order-status.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { pictureProps } from '../lib/picture.ts';
import { inShownOrder } from '../lib/shown-order.ts';
import type { CartDto, CartLineDto } from '../server/account-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { $cartMarks, $pendingChanges, cartKey, showCart } from '../stores/cart.ts';
import { changeLine } from '../client/cart.ts';
import { WILL_BE_SENT } from '../lib/cart-stepper.ts';
import { $couponCode, applyCoupon, removeCoupon } from '../stores/coupon.ts';
import { CouponField } from './checkout/CouponField.tsx';
import { MoneySummary } from './checkout/MoneySummary.tsx';
import { ErrorBoundary } from './ErrorFallback.tsx';
import { FoodMark } from './FoodMark.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; cart: CartDto };

function Cart() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [busyLine, setBusyLine] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [removed, setRemoved] = useState<CartLineDto | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  /** The lines' order as shown (src/lib/shown-order.ts): a line put back by Undo returns to its place. */
  const shownOrder = useRef<string[]>([]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const couponCode = useStore($couponCode);
  const [couponBusy, setCouponBusy] = useState(false);
  const [couponSaid, setCouponSaid] = useState({ text: '', refused: false });
  // Changes made offline (issue 26): the lines show them, "will be sent", until the queue has sent them.
  const marks = useStore($cartMarks);
  const pending = useStore($pendingChanges);
  const hadPending = useRef(false);

  /** The cart priced with the kept coupon (issue 25): a change's answer has none, so it is asked again with it. */
  const withKeptCoupon = async (cart: CartDto): Promise<CartDto> => {
    const code = $couponCode.get();
    return code && userId ? browserCart.cart(userId, code) : cart;
  };

  /** The cart as the API answers it, its lines where the shopper saw them; the badge follows it (showCart). */
  const shown = (cart: CartDto): CartDto => {
    const { list, known } = inShownOrder(cart.lines, (line) => `${line.productsId}:${line.productVariantsId}`, shownOrder.current);
    shownOrder.current = known;
    return showCart({ ...cart, lines: list });
  };

  useEffect(() => {
    if (!userId) return;
    browserCart
      .cart(userId, $couponCode.get() || undefined)
      .then((cart) => setView({ state: 'ready', cart: shown(cart) }))
      .catch((error: unknown) => {
        console.error('Cannot load the cart', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your cart could not be loaded.') });
      });
  }, [userId]);

  useEffect(() => {
    if (removed) undoRef.current?.focus();
  }, [removed]);

  // The queue sent what waited (src/client/cart-queue.ts): the cart is priced again, as the server has it now.
  useEffect(() => {
    const waiting = pending.length > 0;
    if (hadPending.current && !waiting && userId && navigator.onLine) {
      browserCart
        .cart(userId, $couponCode.get() || undefined)
        .then((cart) => setView({ state: 'ready', cart: shown(cart) }))
        .catch((error: unknown) => console.error('Cannot reload the cart', error));
    }
    hadPending.current = waiting;
  }, [pending.length]);

  /** Runs one change; the answer is the whole cart, which replaces what is shown (and the badge). */
  async function change(lineId: number, call: () => Promise<CartDto>, failure: string): Promise<boolean> {
    setBusyLine(lineId);
    setProblem('');
    try {
      setView({ state: 'ready', cart: shown(await withKeptCoupon(await call())) });
      return true;
    } catch (error) {
      console.error(failure, error);
      setProblem(apiErrorMessage(error, failure));
      return false;
    } finally {
      setBusyLine(null);
    }
  }

  /** Offline, a change waits to be sent (src/client/cart.ts keeps it); the line shows it until then. */
  const keepOffline = async (line: CartLineDto, qty: number): Promise<boolean> => {
    if (navigator.onLine) return false;
    const label = line.variantName ? `${line.name} ${line.variantName}` : line.name;
    const outcome = await changeLine(line.id, qty, label);
    if (outcome.kind !== 'changed') setProblem(outcome.message);
    return true;
  };

  const setQty = async (line: CartLineDto, qty: number) => {
    if (await keepOffline(line, qty)) return;
    await change(line.id, () => browserCart.setQty(line.id, qty), `Could not change the quantity of ${line.name}.`);
  };

  // The removed row takes focus with it: the Undo button takes it over (the effect above).
  const remove = async (line: CartLineDto) => {
    if (await keepOffline(line, 0)) return;
    if (await change(line.id, () => browserCart.remove(line.id), `Could not remove ${line.name}.`)) setRemoved(line);
  };

  /** 'Notify me when back', pressed or released: kept by the API, shown on the line. */
  const toggleNotify = async (line: CartLineDto) => {
    setBusyLine(line.id);
    setProblem('');
    const target = { productsId: line.productsId, productVariantsId: line.productVariantsId };
    try {
      const answer = line.notifyRequested ? await browserCart.stopNotifying(target) : await browserCart.notifyWhenBack(target);
      setView((shown) =>
        shown.state === 'ready'
          ? { state: 'ready', cart: { ...shown.cart, lines: shown.cart.lines.map((l) => (l.id === line.id ? { ...l, notifyRequested: answer.notifyRequested } : l)) } }
          : shown,
      );
    } catch (error) {
      console.error('Cannot change the stock alert', error);
      setProblem(apiErrorMessage(error, `Could not change the alert for ${line.name}.`));
      // Back on the shelf meanwhile (409): the cart as it is now puts it back in the total.
      if (apiStatus(error) === 409 && userId) setView({ state: 'ready', cart: showCart(await browserCart.cart(userId, $couponCode.get() || undefined)) });
    } finally {
      setBusyLine(null);
    }
  };

  /** Apply: the server prices the cart with the code; one that applies is kept, one that does not says why. */
  const applyCode = async (typed: string) => {
    if (!userId) return;
    setCouponBusy(true);
    setCouponSaid({ text: '', refused: false });
    try {
      const cart = await browserCart.cart(userId, typed);
      const check = cart.coupon;
      if (check?.applies) {
        applyCoupon(check.code);
        setView({ state: 'ready', cart: shown(cart) });
        setCouponSaid({ text: `Coupon ${check.code} applied: ${formatRupees(check.amountPaise)} off.`, refused: false });
      } else {
        setCouponSaid({ text: check?.reason?.message ?? 'That coupon does not apply.', refused: true });
      }
    } catch (error) {
      console.error('Cannot check the coupon', error);
      setCouponSaid({ text: apiErrorMessage(error, 'The coupon could not be checked. Please try again.'), refused: true });
    } finally {
      setCouponBusy(false);
    }
  };

  const removeCode = async () => {
    if (!userId) return;
    const code = $couponCode.get();
    removeCoupon();
    setCouponBusy(true);
    try {
      setView({ state: 'ready', cart: shown(await browserCart.cart(userId)) });
      setCouponSaid({ text: `Coupon ${code} removed.`, refused: false });
    } catch (error) {
      console.error('Cannot reload the cart', error);
      setProblem(apiErrorMessage(error, 'Your cart could not be loaded.'));
    } finally {
      setCouponBusy(false);
    }
  };

  const undo = async (line: CartLineDto) => {
    const ok = await change(
      line.id,
      () =>
        browserCart.add({
          productsId: line.productsId,
          productVariantsId: line.productVariantsId,
          productVariantPriceId: line.productVariantPriceId,
          packing: 'packaging',
          qty: line.qty,
        }),
      `Could not put ${line.name} back.`,
    );
    if (ok) {
      setRemoved(null);
      headingRef.current?.focus();
    }
  };

  if (view.state === 'loading') return <p className="cart-loading" role="status">Loading your cart…</p>;
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message}
      </p>
    );

  const { lines, summary } = view.cart;
  // A line changed offline shows the quantity it will have; one removed offline leaves the list until it is sent.
  const waiting = (line: CartLineDto) => marks[cartKey(line.productsId, line.productVariantsId)];
  const removedOffline = (line: CartLineDto) => pending.some((c) => c.kind === 'remove' && c.lineId === line.id);
  const onShelf = lines
    .filter((line) => line.inStock && !removedOffline(line))
    .map((line) => {
      const mark = waiting(line);
      return mark?.pending ? { ...line, qty: mark.qty, waiting: true } : { ...line, waiting: false };
    });
  const outOfStock = lines.filter((line) => !line.inStock);
  // More in the cart than the shelf holds now: the order would be refused, so the shopper lowers it first.
  const overStock = onShelf.filter((line) => line.qty > line.maxQty);
  const blocked =
    onShelf.length === 0
      ? 'Nothing in your cart is in stock right now.'
      : overStock.length > 0
        ? `Only ${overStock.map((line) => `${line.maxQty} of ${line.name}`).join(', ')} left: lower ${overStock.length === 1 ? 'it' : 'them'} to check out.`
        : '';
  return (
    <div className="cart">
      <div role="status" className="cart-undo" aria-live="polite">
        {removed && (
          <p>
            Removed {removed.name}
            {removed.variantName ? ` (${removed.variantName})` : ''}.{' '}
            <button ref={undoRef} type="button" className="link-button" onClick={() => void undo(removed)} disabled={busyLine !== null}>
              Undo
            </button>
          </p>
        )}
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {lines.length === 0 ? (
        <div className="cart-empty" data-testid="cart-empty">
          <h2 ref={headingRef} tabIndex={-1}>Your cart is empty</h2>
          <p>Fill it with fresh groceries from our popular products.</p>
          <a className="button" href={urls.hot()}>
            Start shopping
          </a>
        </div>
      ) : (
        <div className="cart-layout">
          <div className="cart-groups">
          <section aria-labelledby="cart-lines-title">
            <h2 id="cart-lines-title" ref={headingRef} tabIndex={-1}>
              {onShelf.length > 0 ? itemCountText(summary.itemCount) : 'Nothing in stock'}
            </h2>
            <ul className="cart-lines">
              {onShelf.map((line) => (
                <li key={line.id} className="cart-line" data-testid="cart-line" data-product-id={line.productsId}>
                  <img {...pictureProps(line.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'line')} alt="" width="80" height="80" loading="lazy" />
                  <div className="cart-line-info">
                    <span>
                      <FoodMark foodType={line.foodType} />{' '}
                      <a href={urls.product(line.productsId)} className="cart-line-name">
                        {line.name}
                      </a>
                    </span>
                    {line.variantName && <span className="cart-line-pack">Pack size: {line.variantName}</span>}
                    <span>
                      {formatRupees(line.unitPricePaise)} each
                      {line.unitMrpPaise > line.unitPricePaise && (
                        <s className="mrp">
                          <span className="visually-hidden">MRP </span>
                          {formatRupees(line.unitMrpPaise)}
                        </s>
                      )}
                    </span>
                    {line.waiting && (
                      <span className="stock-note" data-testid="will-be-sent">
                        {WILL_BE_SENT}
                      </span>
                    )}
                    {line.qty > line.maxQty ? (
                      <span className="form-error" data-testid="stock-note">
                        Only {line.maxQty} left: lower it to {line.maxQty} to check out
                      </span>
                    ) : (
                      line.qty === line.maxQty && (
                        <span className="stock-note" data-testid="stock-note">
                          {line.limitedByStock ? `Only ${line.maxQty} left` : `At most ${line.maxQty} per order`}
                        </span>
                      )
                    )}
                  </div>
                  <div className="stepper" role="group" aria-label={`Quantity of ${line.name}`}>
                    <button
                      type="button"
                      aria-label={`One less ${line.name}`}
                      disabled={line.qty <= 1 || busyLine !== null}
                      onClick={() => void setQty(line, line.qty - 1)}
                    >
                      −
                    </button>
                    <output aria-live="polite" data-testid="cart-qty">
                      {line.qty}
                    </output>
                    <button
                      type="button"
                      aria-label={`One more ${line.name}`}
                      disabled={line.qty >= line.maxQty || busyLine !== null}
                      onClick={() => void setQty(line, line.qty + 1)}
                    >
                      +
                    </button>
                  </div>
                  <strong className="cart-line-total">{formatRupees(line.lineTotalPaise)}</strong>
                  <button type="button" className="link-button" onClick={() => void remove(line)} disabled={busyLine !== null}>
                    Remove<span className="visually-hidden"> {line.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
          {outOfStock.length > 0 && (
            <section className="cart-gone" aria-labelledby="cart-gone-title" data-testid="cart-out-of-stock">
              <h2 id="cart-gone-title">Out of stock</h2>
              <p className="fine-print">Not in your total and not ordered; they stay here until you remove them.</p>
              <ul className="cart-lines">
                {outOfStock.map((line) => (
                  <li key={line.id} className="cart-line cart-line-gone" data-testid="cart-line-gone" data-product-id={line.productsId}>
                    <img {...pictureProps(line.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'line')} alt="" width="80" height="80" loading="lazy" />
                    <div className="cart-line-info">
                      <a href={urls.product(line.productsId)} className="cart-line-name">
                        {line.name}
                      </a>
                      {line.variantName && <span className="cart-line-pack">Pack size: {line.variantName}</span>}
                      <span>{line.qty} in your cart</span>
                      {line.notifyRequested && (
                        <span className="fine-print" data-testid="notify-asked">
                          The shop knows you are waiting; it comes back into your total when it is back.
                        </span>
                      )}
                    </div>
                    <div className="cart-line-actions">
                    <button
                      type="button"
                      className="button secondary notify-button"
                      aria-pressed={line.notifyRequested}
                      onClick={() => void toggleNotify(line)}
                      disabled={busyLine !== null}
                    >
                      Notify me when back<span className="visually-hidden">: {line.variantName ? `${line.name} ${line.variantName}` : line.name}</span>
                    </button>
                    <button type="button" className="link-button" onClick={() => void remove(line)} disabled={busyLine !== null}>
                      Remove<span className="visually-hidden"> {line.name}</span>
                    </button>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          )}
          </div>
          <section className="cart-summary" aria-labelledby="cart-summary-title" data-testid="cart-summary">
            <h2 id="cart-summary-title">Summary</h2>
            <CouponField
              applied={couponCode}
              check={view.cart.coupon}
              message={couponSaid}
              busy={couponBusy || busyLine !== null}
              onApply={(code) => void applyCode(code)}
              onRemove={() => void removeCode()}
            />
            <MoneySummary summary={summary} />
            {blocked ? (
              <>
                <p className="form-error" id="cart-blocked">
                  {blocked}
                </p>
                <a className="button" role="link" aria-disabled="true" aria-describedby="cart-blocked">
                  Proceed to checkout
                </a>
              </>
            ) : (
              <a className="button" href={urls.checkout()}>
                Proceed to checkout
              </a>
            )}
          </section>
          {/* Phones: the total and the way on stay at the bottom of the screen, not 2.5 screens down (cart.astro). */}
          <div className="checkout-bar" data-testid="checkout-bar">
            <p>
              {itemCountText(summary.itemCount)} · <strong>{formatRupees(summary.totalPaise)}</strong>
            </p>
            {blocked ? (
              <a className="button" role="link" aria-disabled="true" aria-describedby="cart-blocked">
                Proceed to checkout
              </a>
            ) : (
              <a className="button" href={urls.checkout()}>
                Proceed to checkout
              </a>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

export default function CartPage() {
  return (
    <ErrorBoundary>
      <Cart />
    </ErrorBoundary>
  );
}
