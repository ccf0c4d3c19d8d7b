// Price, pack-size selector and 'Add to cart' of a product (SPEC §2 product card and product page).
// Server-rendered; hydrated on first interaction. Without JavaScript the button is a form to /login.
import { useEffect, useRef, useState } from 'react';
import { formatRupees, percentOff, showsMrp } from '../lib/money.ts';
import type { ProductActionsData } from '../lib/product-actions.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';

interface Props {
  product: ProductActionsData;
  /** The product page shows the percent off next to the price. */
  showPercent?: boolean;
}

function Actions({ product, showPercent = false }: Props) {
  const [variantId, setVariantId] = useState(product.variants[0]?.id);
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
      </p>
      {product.variants.length > 0 && (
        // The label wraps its select: no ids, which would repeat when Load More appends another page of cards.
        <label className="variant">
          Pack size
          <select
            ref={selectRef}
            data-testid="variant-select"
            value={variantId}
            onChange={(e) => setVariantId(Number(e.target.value))}
          >
            {product.variants.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} – {formatRupees(v.pricePaise)}
              </option>
            ))}
          </select>
        </label>
      )}
      {product.inStock ? (
        // The cart itself arrives with sign-in; until a shopper is signed in, adding sends them to sign in (SPEC §4).
        <form action="/login" method="get" className="add">
          <input type="hidden" name="next" value={`/product-detail?id=${product.id}`} />
          <button type="submit" className="button add-button">
            Add to cart<span className="visually-hidden">: {product.name}</span>
          </button>
        </form>
      ) : (
        <p className="out-of-stock">Out of stock</p>
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
