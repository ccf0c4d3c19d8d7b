// Price, pack-size selector and 'Add to cart' of a product (SPEC §2 product card and product page), and once that pack
// is in the cart a `− qty +` stepper in its place (issue 24). Server-rendered; hydrated on first interaction (the pack
// selector needs React). Without JavaScript the button is a form to /login. With it, every press of 'Add to cart' or the
// stepper, hydrated or not, is src/client/cart-controller.ts's (SPEC §4, issue 33): this island only draws the cart
// store. Before hydration the controller draws the same markup from the same store and view (src/lib/cart-stepper.ts),
// so hydrating finds the page as it would render it.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { STEPPER_HOOKS, stepperView } from '../lib/cart-stepper.ts';
import { formatRupees, percentOff, showsMrp } from '../lib/money.ts';
import { urls } from '../lib/urls.ts';
import type { ProductActionsData } from '../lib/product-actions.ts';
import { $cartMarks, cartKey } from '../stores/cart.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';

interface Props {
  product: ProductActionsData;
  /** The product page shows the percent off next to the price. */
  showPercent?: boolean;
  /** The product page: a bar with the price and 'Add to cart' at the bottom once these scroll away (global.css). */
  buyBar?: boolean;
}

function Actions({ product, showPercent = false, buyBar = false }: Props) {
  // The first pack size on the shelf (SPEC §2 starts at the first; an out-of-stock first pack would hide the rest).
  const [variantId, setVariantId] = useState((product.variants.find((v) => v.inStock) ?? product.variants[0])?.id);
  const selectRef = useRef<HTMLSelectElement>(null);
  // A pack chosen in the server-rendered select before hydration finished still counts.
  useEffect(() => {
    const chosen = Number(selectRef.current?.value);
    if (chosen && chosen !== variantId) setVariantId(chosen);
    // Only on mount: afterwards React owns the select.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const variant = product.variants.find((v) => v.id === variantId);
  // A variant's MRP is compared with the variant's own price (the SPEC's source compared the base price).
  const pricePaise = variant?.pricePaise ?? product.pricePaise;
  const mrpPaise = variant?.mrpPaise ?? product.mrpPaise;
  const off = percentOff(pricePaise, mrpPaise);
  const unit = variant ? variant.unitPrice : product.unitPrice;
  // A pack size has its own stock; a plain product, the product's.
  const available = variant ? variant.inStock : product.inStock;
  // This pack's line in the cart, from the cart store (src/stores/cart.ts).
  const mark = useStore($cartMarks)[cartKey(product.id, variant?.id)];
  const view = stepperView(mark);
  // 'Toor Dal 1 kg': the stepper's buttons name the pack they change.
  const label = variant ? `${product.name} ${variant.name}` : product.name;

  // The stepper, and the same in the product page's bar. Its buttons submit the form, so a press before hydration is
  // held like 'Add to cart' (they show only to a signed-in shopper, so never without JavaScript).
  const stepper = (
    <div className="cart-stepper" role="group" aria-label={`${label} in your cart`} hidden={!view.inCart} {...{ [STEPPER_HOOKS.stepper]: '' }}>
      <button type="submit" name="step" value="-1" aria-label={`Remove one ${label}`}>
        −
      </button>
      <output aria-live="polite" data-testid="in-cart-qty" {...{ [STEPPER_HOOKS.qty]: '' }}>
        {view.qty}
      </output>
      <button
        type="submit"
        name="step"
        value="1"
        aria-label={`Add one ${label}`}
        aria-disabled={view.atMost || undefined}
        {...{ [STEPPER_HOOKS.more]: '' }}
      >
        +
      </button>
    </div>
  );
  const addButton = (
    <button type="submit" className="button add-button" hidden={view.inCart} {...{ [STEPPER_HOOKS.add]: '' }}>
      Add to cart<span className="visually-hidden">: {product.name}</span>
    </button>
  );

  return (
    <div className="product-actions">
      <p className="price" aria-live="polite">
        <span className="now" data-testid="price">{formatRupees(pricePaise)}</span>
        {showsMrp(pricePaise, mrpPaise) && (
          <s className="mrp" data-testid="mrp">
            <span className="visually-hidden">MRP </span>
            {formatRupees(mrpPaise)}
          </s>
        )}
        {showPercent && off > 0 && <span className="off" data-testid="percent-off">{off}% off</span>}
        {unit && (
          <span className="unit-price" data-testid="unit-price">
            {`(${unit})`}
          </span>
        )}
      </p>
      {product.variants.length > 0 && (
        // The label wraps its select: no ids, which would repeat when Load More appends another page of cards.
        <label className="variant">
          <span className="variant-label">Pack size</span>
          <select
            ref={selectRef}
            data-testid="variant-select"
            data-pack-select=""
            value={variantId}
            onChange={(e) => setVariantId(Number(e.target.value))}
          >
            {product.variants.map((v) => (
              <option key={v.id} value={v.id} data-price-id={v.priceId}>
                {v.name} – {formatRupees(v.pricePaise)}
                {v.inStock ? '' : ' (out of stock)'}
              </option>
            ))}
          </select>
        </label>
      )}
      {available ? (
        // Without JavaScript there is no session to add with: the form leads to sign-in and back (SPEC §4).
        <form action={urls.login()} method="get" className="add" data-add-to-cart=""
          data-product-id={product.id}
        >
          <input type="hidden" name="next" value={urls.product(product.id)} />
          {addButton}
          {stepper}
          <p className="stock-note" role="status" data-testid="stock-note" {...{ [STEPPER_HOOKS.note]: '' }}>
            {view.note}
          </p>
          {buyBar && (
            // Inside the form: its button submits the same add, with or without JavaScript.
            <div className="buy-bar" data-testid="buy-bar">
              <p className="buy-bar-text">
                <span className="buy-bar-name">{product.name}</span>
                <span>
                  {variant && `${variant.name} · `}
                  <strong>{formatRupees(pricePaise)}</strong>
                </span>
              </p>
              {addButton}
              {stepper}
            </div>
          )}
        </form>
      ) : (
        <p className="out-of-stock" data-testid="out-of-stock">Out of stock</p>
      )}
    </div>
  );
}

export default function ProductActions(props: Props) {
  return (
    <ErrorBoundary>
      <Actions {...props} />
    </ErrorBoundary>
  );
}
