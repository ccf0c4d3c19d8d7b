// The cart (/cart): an island because everything in it is the shopper's own, fetched after the page loads
// (the page's HTML is the same for everyone), and it changes as they step quantities and remove lines.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { browserCart } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { formatRupees } from '../lib/money.ts';
import { itemCountText } from '../lib/order-status.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { pictureProps } from '../lib/picture.ts';
import type { CartDto, CartLineDto } from '../server/account-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { showCart } from '../stores/cart.ts';
import { MoneySummary } from './checkout/MoneySummary.tsx';
import { ErrorBoundary } from './ErrorFallback.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; cart: CartDto };

function Cart() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [busyLine, setBusyLine] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [removed, setRemoved] = useState<CartLineDto | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!userId) return;
    browserCart
      .cart(userId)
      .then((cart) => setView({ state: 'ready', cart: showCart(cart) }))
      .catch((error: unknown) => {
        console.error('Cannot load the cart', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your cart could not be loaded.') });
      });
  }, [userId]);

  useEffect(() => {
    if (removed) undoRef.current?.focus();
  }, [removed]);

  /** Runs one change; the answer is the whole cart, which replaces what is shown (and the badge). */
  async function change(lineId: number, call: () => Promise<CartDto>, failure: string): Promise<boolean> {
    setBusyLine(lineId);
    setProblem('');
    try {
      setView({ state: 'ready', cart: showCart(await call()) });
      return true;
    } catch (error) {
      console.error(failure, error);
      setProblem(apiErrorMessage(error, failure));
      return false;
    } finally {
      setBusyLine(null);
    }
  }

  const setQty = (line: CartLineDto, qty: number) =>
    change(line.id, () => browserCart.setQty(line.id, qty), `Could not change the quantity of ${line.name}.`);

  // The removed row takes focus with it: the Undo button takes it over (the effect above).
  const remove = async (line: CartLineDto) => {
    if (await change(line.id, () => browserCart.remove(line.id), `Could not remove ${line.name}.`)) setRemoved(line);
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
  const outOfStock = lines.filter((line) => !line.inStock);
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
          <section aria-labelledby="cart-lines-title">
            <h2 id="cart-lines-title" ref={headingRef} tabIndex={-1}>
              {itemCountText(summary.itemCount)}
            </h2>
            <ul className="cart-lines">
              {lines.map((line) => (
                <li key={line.id} className="cart-line" data-testid="cart-line" data-product-id={line.productsId}>
                  <img {...pictureProps(line.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'line')} alt="" width="80" height="80" loading="lazy" />
                  <div className="cart-line-info">
                    <a href={urls.product(line.productsId)} className="cart-line-name">
                      {line.name}
                    </a>
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
                    {!line.inStock && <span className="form-error">Out of stock now</span>}
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
          <section className="cart-summary" aria-labelledby="cart-summary-title" data-testid="cart-summary">
            <h2 id="cart-summary-title">Summary</h2>
            <MoneySummary summary={summary} />
            {outOfStock.length > 0 ? (
              <>
                <p className="form-error" id="cart-blocked">
                  {outOfStock.map((line) => line.name).join(', ')} {outOfStock.length === 1 ? 'is' : 'are'} out of stock: remove{' '}
                  {outOfStock.length === 1 ? 'it' : 'them'} to check out.
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
