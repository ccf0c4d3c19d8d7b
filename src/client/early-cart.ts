// The first tap answers at once (issue 26). Islands hydrate on first interaction, and on a slow phone React takes
// seconds to arrive: a press on 'Add to cart' or a stepper held before hydration (src/lib/early-add-to-cart.ts, which
// also makes the form busy at once) is sent from here without waiting for React: an add with plain fetch (quickAdd
// below), a stepper's change through ./cart.ts as the island does. The answer sets the cart store, which draws the
// stepper (./cart-marks.ts, or the island if it has hydrated meanwhile). A form stays busy until then: the island takes
// no press on it either (ProductActions.tsx).
import { apiBaseUrl } from '../lib/api/base-url.ts';
import type { Product } from '../lib/api/types.ts';
import { expiresWithin, readToken } from '../lib/auth/token.ts';
import { drawStepper, STEPPER_HOOKS, stepperView } from '../lib/cart-stepper.ts';
import { clearEarlyBusy, EARLY_CART_EVENT, markEarlyBusy, PENDING_ADD_EVENT, PENDING_KEY_ATTR, takePressWhileBusy } from '../lib/early-add-to-cart.ts';
import { urls } from '../lib/urls.ts';
import { $userId, sessionStore } from '../stores/auth.ts';
import { $cartMarks, $pendingChanges, cartKey, showCart } from '../stores/cart.ts';
import type { CartDto } from '../server/account-schemas.ts';
import { newIdempotencyKey } from './cart-queue.ts';
import { ADD_FAILED, addPayload, addToCart, changeLine, SIGN_IN_AGAIN, type AddOutcome, type CartChoice, type LineOutcome } from './cart.ts';

let started = false;

/** Signed in (header-account.ts): presses held before hydration are sent from now on, and any held already. */
export function startEarlyCart() {
  if (started) return;
  started = true;
  // Adds ./first-tap.ts posted before this file arrived, and after: each is said as the island says it.
  takeEarlyAdds();
  document.addEventListener(EARLY_CART_EVENT, takeEarlyAdds);
  document.addEventListener(PENDING_ADD_EVENT, (event) => {
    if (event.target instanceof HTMLFormElement) void sendHeldPress(event.target);
  });
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-add-to-cart][data-pending-add]')) void sendHeldPress(form);
}

/** The adds ./first-tap.ts posted, said as the island says them (the store took their cart: src/stores/cart.ts). */
function takeEarlyAdds() {
  for (const { name } of window.kiranaEarlyAdds?.splice(0) ?? []) void tell({ kind: 'added', name, label: name, qtyInCart: 0 });
}

/** The pack chosen beside the form (its select), and its price id; none for a product sold in one size. */
function packOf(form: HTMLFormElement) {
  const select = form.closest('.product-actions')?.querySelector<HTMLSelectElement>('select[data-pack-select]');
  if (!select) return { variantId: undefined, priceId: undefined };
  const option = select.selectedOptions[0];
  return { variantId: Number(select.value) || undefined, priceId: Number(option?.dataset.priceId) || undefined };
}

async function sendHeldPress(form: HTMLFormElement) {
  const value = form.dataset.pendingAdd;
  // Taken already (the island mounted first and took it): one press, one post.
  if (value === undefined) return;
  delete form.dataset.pendingAdd;
  // The key of a post ./first-tap.ts sent without an answer: sent again with it, the add still counts once.
  const key = form.getAttribute(PENDING_KEY_ATTR) ?? undefined;
  form.removeAttribute(PENDING_KEY_ATTR);
  const productId = Number(form.dataset.productId);
  const { variantId, priceId } = packOf(form);
  const line = $cartMarks.get()[cartKey(productId, variantId)];
  const now = stepperView(line);
  // Pressed from the keyboard: the pressed button may be hidden by the answer ('Add to cart' gives way to the stepper).
  const hadFocus = form.contains(document.activeElement);
  // 'Toor Dal 1 kg', as the stepper names it (a toast says it when the add has to wait offline).
  const label = form.querySelector('[data-cart-stepper]')?.getAttribute('aria-label')?.replace(/ in your cart$/, '') ?? 'this product';
  let outcome: AddOutcome | LineOutcome;
  try {
    if (value === '1' && now.atMost) outcome = { kind: 'failed', message: `${now.note}.` };
    else if (value === '' || !line || !now.inCart) outcome = await quickAdd({ productId, variantId, priceId, label, key });
    else {
      outcome = await changeLine(line.lineId, line.qty + (value === '-1' ? -1 : 1), label);
    }
  } finally {
    clearEarlyBusy(form);
    // Clearing took the busy mark off '+'; a line at its most keeps '+' marked (the island draws itself).
    if (form.closest('astro-island[ssr]')) drawStepper(form, stepperView($cartMarks.get()[cartKey(productId, variantId)]));
    const focused = document.activeElement;
    if (hadFocus && (!form.contains(focused) || focused?.closest('[hidden]'))) {
      form.querySelector<HTMLElement>(`[${STEPPER_HOOKS.stepper}]:not([hidden]) [${STEPPER_HOOKS.more}], [${STEPPER_HOOKS.add}]:not([hidden])`)?.focus();
    }
  }
  await tell(outcome);
  // '+' or 'Add to cart' pressed while this one was on its way: one more each, in turn; after a refusal, none.
  if (outcome.kind === 'added' || outcome.kind === 'changed') {
    if (!takePressWhileBusy(form)) return;
    markEarlyBusy(form);
    form.dataset.pendingAdd = '1';
    form.dispatchEvent(new Event(PENDING_ADD_EVENT, { bubbles: true }));
  } else delete form.dataset.more;
}

/**
 * SPEC §4's add (the product fetched fresh, then the line posted) with plain fetch while the stored token is fresh:
 * the full client (ky and the session hooks, 13 KB gzip) would cost a slow phone most of a second before the first
 * call, with React arriving at the same time (measured: `npm run bench -- --slow-phone`). Anything else (no fresh
 * token, offline, a 401) goes through ./cart.ts, which refreshes the token, and keeps the choice for sign-in.
 */
async function quickAdd(choice: CartChoice): Promise<AddOutcome> {
  const token = sessionStore.token();
  const claims = readToken(token);
  const userId = $userId.get();
  // Offline, or changes made offline still wait to be sent: ./cart.ts keeps this one behind them, in order.
  if (!token || !claims || expiresWithin(claims) || !userId || !navigator.onLine || $pendingChanges.get().length > 0) return addToCart(choice);
  const headers = { Authorization: `Bearer ${token}` };
  // One key for this add, here and if ./cart.ts has to send it again: the API counts it once however often it arrives.
  const key = choice.key ?? newIdempotencyKey();
  let product: Product;
  try {
    const productAnswer = await fetch(new URL(`app/Products/${choice.productId}`, apiBaseUrl()));
    if (!productAnswer.ok) return { kind: 'failed', message: ADD_FAILED };
    product = (await productAnswer.json()) as Product;
  } catch {
    // No answer (the connection dropped): nothing was posted yet; ./cart.ts keeps it to send when back online.
    return addToCart({ ...choice, key });
  }
  try {
    const variantId = choice.variantId ?? 0;
    const posted = await fetch(new URL('app/Carts', apiBaseUrl()), {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(addPayload(product, userId, choice)),
    });
    // Refused before anything was written: the full client refreshes the session and tries once more.
    if (posted.status === 401) return addToCart({ ...choice, key });
    if (!posted.ok) {
      const said = (await posted.json().catch(() => null)) as { error?: { message?: string } } | null;
      // Out of stock, too many of it, or too fast: the API's own words say what to do.
      const message = [409, 422, 429].includes(posted.status) ? (said?.error?.message ?? ADD_FAILED) : ADD_FAILED;
      return { kind: 'failed', message };
    }
    const cart = showCart((await posted.json()) as CartDto);
    const line = cart.lines.find((l) => l.productsId === product.id && l.productVariantsId === variantId);
    const label = line?.variantName ? `${line.name} ${line.variantName}` : product.name;
    return { kind: 'added', name: product.name, label, qtyInCart: line?.qty ?? 1 };
  } catch {
    // No answer: it may have arrived or not. ./cart.ts sends it again with the same key (kept offline if need be).
    return addToCart({ ...choice, key });
  }
}

/** As the island says it: a toast for an add or a failure, sign-in when the session is over. */
async function tell(outcome: AddOutcome | LineOutcome) {
  if (outcome.kind === 'changed') return;
  const here = `${window.location.pathname}${window.location.search}`;
  if (outcome.kind === 'sign-in' && !outcome.message) return void window.location.assign(urls.login(here));
  const { toastError, toastSuccess } = await import('../lib/toast.ts');
  // Offline (issue 26), the add is kept to be sent later (./cart-queue.ts), and the toast says so.
  if (outcome.kind === 'added') return void toastSuccess(outcome.queued ?? `${outcome.name} added to cart!`);
  if (outcome.kind === 'failed') return void toastError(outcome.message);
  void toastError(outcome.message ?? SIGN_IN_AGAIN, { autoClose: 1500, onClose: () => window.location.assign(urls.login(here)) });
}
