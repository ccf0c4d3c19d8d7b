// Price, pack-size selector and 'Add to cart' of a product (SPEC §2 product card and product page), and once that pack
// is in the cart a `− qty +` stepper in its place (issue 24). Server-rendered; hydrated on first interaction. Without
// JavaScript the button is a form to /login. With it, 'Add to cart' follows SPEC §4 (src/client/cart.ts) and says how
// it went in a toast. Before hydration the cart's quantities are drawn by src/client/cart-marks.ts, from the same
// store and the same view (src/lib/cart-stepper.ts), so hydrating finds the page as it would render it.
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { STEPPER_HOOKS, stepperView } from '../lib/cart-stepper.ts';
import { clearEarlyBusy, countPressWhileBusy, isEarlyBusy, takePendingAdd } from '../lib/early-add-to-cart.ts';
import { formatRupees, percentOff, showsMrp } from '../lib/money.ts';
import { toastError, toastSuccess } from '../lib/toast.ts';
import { urls } from '../lib/urls.ts';
import { addToCart, changeLine } from '../client/cart.ts';
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

/** What a press asks for: the add button's, or a stepper's −1 / +1 (its button's value). */
type Press = 'add' | 'less' | 'more';
const pressOf = (value: string | null | undefined): Press => (value === '-1' ? 'less' : value === '1' ? 'more' : 'add');

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
  const [busy, setBusy] = useState(false);
  // Issue 26: a press while one is on its way is not lost: each is sent after it as one more (never doubled).
  const busyNow = useRef(false);
  const pressesWaiting = useRef(0);
  // This pack's line in the cart, from the cart store (src/stores/cart.ts).
  const mark = useStore($cartMarks)[cartKey(product.id, variant?.id)];
  const view = stepperView(mark);
  // 'Toor Dal 1 kg': the stepper's buttons name the pack they change.
  const label = variant ? `${product.name} ${variant.name}` : product.name;

  const formRef = useRef<HTMLFormElement>(null);
  // Where focus goes once the stepper and the add button swap (the pressed one is hidden): set by a press.
  const focusNext = useRef<{ inBar: boolean } | null>(null);
  useEffect(() => {
    const where = focusNext.current;
    if (!where) return;
    focusNext.current = null;
    const scope = where.inBar ? formRef.current?.querySelector('.buy-bar') : formRef.current;
    const target = view.inCart ? `[${STEPPER_HOOKS.more}]` : `[${STEPPER_HOOKS.add}]`;
    scope?.querySelector<HTMLElement>(target)?.focus();
  }, [view.inCart]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = event.nativeEvent.submitter;
    void act(pressOf(submitter?.getAttribute('value')), Boolean(submitter?.closest('.buy-bar')));
  };

  const here = () => `${window.location.pathname}${window.location.search}`;

  const act = async (press: Press, inBar = false) => {
    // A press from before hydration still on its way (src/client/first-tap.ts, early-cart.ts), or this island's own:
    // one press, one post; '+' or 'Add to cart' pressed meanwhile is sent after it.
    if (formRef.current && isEarlyBusy(formRef.current)) return void (press !== 'less' && countPressWhileBusy(formRef.current));
    if (busyNow.current) return void (press !== 'less' && pressesWaiting.current++);
    // The select's own value: right even for a press held from before hydration (the state catches up later).
    const pack = product.variants.find((v) => v.id === Number(selectRef.current?.value)) ?? variant;
    const line = $cartMarks.get()[cartKey(product.id, pack?.id)];
    const now = stepperView(line);
    // '+' at the most the line may hold says why, and asks nothing of the server.
    if (press === 'more' && now.atMost) return void toastError(`${now.note}.`);
    busyNow.current = true;
    setBusy(true);
    // The pressed button is about to be hidden: 'Add to cart' gives way to the stepper, or a last '−' the other way.
    focusNext.current = press === 'add' || !now.inCart || (press === 'less' && now.qty === 1) ? { inBar } : null;
    try {
      if (press === 'add' || !line || !now.inCart) {
        const packLabel = pack ? `${product.name} ${pack.name}` : product.name;
        const outcome = await addToCart({ productId: product.id, variantId: pack?.id, priceId: pack?.priceId, label: packLabel });
        // Offline (issue 26), the add is kept and the stepper says it will be sent.
        if (outcome.kind === 'added') void toastSuccess(outcome.queued ?? `${outcome.name} added to cart!`);
        else if (outcome.kind === 'failed') void toastError(outcome.message);
        else if (outcome.message) {
          // Say why before leaving for the sign-in page, then come back here (SPEC §4); the choice is kept.
          void toastError(outcome.message, { autoClose: 1500, onClose: () => window.location.assign(urls.login(here())) });
        } else window.location.assign(urls.login(here()));
        return;
      }
      // − at 1 takes the line out: 'Add to cart' comes back in its place, which puts it back.
      const outcome = await changeLine(line.lineId, line.qty + (press === 'more' ? 1 : -1), label);
      if (outcome.kind === 'failed') void toastError(outcome.message);
      if (outcome.kind === 'sign-in') {
        void toastError(outcome.message, { autoClose: 1500, onClose: () => window.location.assign(urls.login(here())) });
      }
    } finally {
      busyNow.current = false;
      setBusy(false);
      if (pressesWaiting.current > 0) {
        pressesWaiting.current--;
        void actRef.current('more', inBar);
      }
    }
  };
  // A press held before hydration (src/lib/early-add-to-cart.ts): 'Add to cart', or a stepper's button.
  const actRef = useRef(act);
  actRef.current = act;
  useEffect(() => {
    const form = formRef.current;
    // A press from before hydration on its way (src/client/first-tap.ts): when its answer swaps 'Add to cart' for the
    // stepper, focus follows as it would for the island's own press.
    if (form && isEarlyBusy(form) && form.contains(document.activeElement)) {
      focusNext.current = { inBar: Boolean(document.activeElement?.closest('.buy-bar')) };
    }
    // Taken here, the press is this island's: the busy mark the early script set gives way to the island's own.
    return form
      ? takePendingAdd(form, (value) => {
          clearEarlyBusy(form);
          void actRef.current(pressOf(value));
        })
      : undefined;
  }, []);

  // The stepper, and the same in the product page's bar. Its buttons submit the form, so a press before hydration is
  // held like 'Add to cart' (they show only to a signed-in shopper, so never without JavaScript).
  const stepper = (
    <div className="cart-stepper" role="group" aria-label={`${label} in your cart`} hidden={!view.inCart} {...{ [STEPPER_HOOKS.stepper]: '' }}>
      <button type="submit" name="step" value="-1" aria-label={`Remove one ${label}`} aria-disabled={busy || undefined}>
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
        aria-disabled={view.atMost || busy || undefined}
        {...{ [STEPPER_HOOKS.more]: '' }}
      >
        +
      </button>
    </div>
  );
  const addButton = (
    <button type="submit" className="button add-button" aria-disabled={busy || undefined} hidden={view.inCart} {...{ [STEPPER_HOOKS.add]: '' }}>
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
        <form
          ref={formRef}
          action={urls.login()}
          method="get"
          className="add"
          onSubmit={onSubmit}
          data-add-to-cart=""
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
