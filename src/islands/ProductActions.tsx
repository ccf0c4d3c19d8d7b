// Price, pack-size selector and 'Add to cart' of a product (SPEC §2 product card and product page).
// Server-rendered; hydrated on first interaction. Without JavaScript the button is a form to /login.
// With it, 'Add to cart' follows SPEC §4 (src/client/cart.ts) and says how it went in a toast.
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { takePendingAdd } from '../lib/early-add-to-cart.ts';
import { formatRupees, percentOff, showsMrp } from '../lib/money.ts';
import { toastError, toastSuccess } from '../lib/toast.ts';
import { urls } from '../lib/urls.ts';
import { addToCart } from '../client/cart.ts';
import type { ProductActionsData } from '../lib/product-actions.ts';
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
  const [adding, setAdding] = useState(false);
  const [inCart, setInCart] = useState(0);

  const formRef = useRef<HTMLFormElement>(null);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void add();
  };

  const add = async () => {
    if (adding) return;
    setAdding(true);
    const here = `${window.location.pathname}${window.location.search}`;
    // The select's own value: right even for a press held from before hydration (the state catches up later).
    const pack = product.variants.find((v) => v.id === Number(selectRef.current?.value)) ?? variant;
    try {
      const outcome = await addToCart({ productId: product.id, variantId: pack?.id, priceId: pack?.priceId });
      if (outcome.kind === 'added') {
        setInCart(outcome.qtyInCart);
        void toastSuccess(`${outcome.name} added to cart!`);
      } else if (outcome.kind === 'failed') {
        void toastError(outcome.message);
      } else if (outcome.message) {
        // Say why before leaving for the sign-in page, then come back here (SPEC §4).
        void toastError(outcome.message, { autoClose: 1500, onClose: () => window.location.assign(urls.login(here)) });
      } else {
        window.location.assign(urls.login(here));
      }
    } finally {
      setAdding(false);
    }
  };
  // A press held before hydration (src/lib/early-add-to-cart.ts).
  const addRef = useRef(add);
  addRef.current = add;
  useEffect(() => {
    const form = formRef.current;
    return form ? takePendingAdd(form, () => void addRef.current()) : undefined;
  }, []);

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
            value={variantId}
            onChange={(e) => setVariantId(Number(e.target.value))}
          >
            {product.variants.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} – {formatRupees(v.pricePaise)}
                {v.inStock ? '' : ' (out of stock)'}
              </option>
            ))}
          </select>
        </label>
      )}
      {available ? (
        // Without JavaScript there is no session to add with: the form leads to sign-in and back (SPEC §4).
        <form ref={formRef} action={urls.login()} method="get" className="add" onSubmit={onSubmit} data-add-to-cart>
          <input type="hidden" name="next" value={urls.product(product.id)} />
          <button type="submit" className="button add-button" aria-disabled={adding || undefined}>
            Add to cart<span className="visually-hidden">: {product.name}</span>
          </button>
          {inCart > 0 && (
            <span className="in-cart" data-testid="in-cart">
              {inCart} in cart
            </span>
          )}
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
              <button type="submit" className="button" aria-disabled={adding || undefined}>
                Add to cart<span className="visually-hidden">: {product.name}</span>
              </button>
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
