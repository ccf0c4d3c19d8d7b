// The cart controller (issue 33): every 'Add to cart', stepper '−'/'+' and signed-in heart goes through this one
// module, before and after React has loaded, online and offline. Hydrated or not, the product islands
// (ProductActions.tsx) only draw the cart store; a press is this file's:
//   press → the form busy (a '+' or 'Add to cart' pressed meanwhile counted in data-more, sent after it, one each)
//         → an add or a line's change, said in a toast → the cart store (src/stores/cart.ts) → every stepper, badge and bar.
// Loaded from <head> by Base.astro, in the page's first script file with what it imports (astro.config.mjs, group
// 'page-start'), so it runs one round trip after the page arrives and every other script that imports it finds it
// loaded. Before that, the page's inline script holds a signed-in press (HOLD_EARLY_ADD, src/lib/server/inline-scripts.ts)
// with the marks PRESS names; this file takes those at start, and every press after it itself.
//
// One exception to "every call through the ky client" (src/client/api.ts, 13 KB gzip, loaded on a first change): an
// 'Add to cart' or '+' pressed before its island has hydrated and before that client has loaded, with a fresh token and
// a connection, is posted with plain fetch (src/client/load-api.ts, the browser's only calls without the client) and
// its own Idempotency-Key: on a phone at 400 ms and 400 kbit/s, loading the client first would put the answer past
// 1.5 s (`npm run bench -- --slow-phone`). Anything else goes through src/client/cart.ts: the session refreshed, the
// offline queue, the API's words for a refusal; an add that got no answer goes there with its key, so it counts once.
import { hasStoredUser, storedUserId } from '../lib/auth-state.ts';
import { drawStepper, stepperView, STEPPER_HOOKS, type StepperView } from '../lib/cart-stepper.ts';
import { encodeKeptAdd, KEPT_ADD_KEY, keptAddOfForm } from '../lib/kept-add.ts';
import { newIdempotencyKey } from '../lib/ids.ts';
// Static, as the first suggestions import it (this file's chunk holds it): a dynamic import made the chunk import
// Rolldown's runtime for a namespace object, a round trip before the first tap could be sent (+0.3 s, measured).
import { loginUrl } from '../lib/head-urls.ts';
import { $cartCount, $cartMarks, $pendingChanges, cartKey, showCart, showLastKnownCart } from '../stores/cart.ts';
import type { CartDto } from '../server/account-schemas.ts';
import { isClientLoaded, postWithoutClient } from './load-api.ts';
import type { AddOutcome, LineOutcome } from './cart.ts';

/** The marks a press leaves on its form; the page's inline script sets the same (tests/unit/cart-controller.test.ts). */
export const PRESS = {
  /** A held press: '' for 'Add to cart', '1' or '-1' for a stepper's button. */
  pending: 'data-pending-add',
  /** A held heart. */
  pendingHeart: 'data-pending-heart',
  /** The form and the buttons this file (or the inline script) made busy. */
  busy: 'data-early-busy',
  /** Presses made while the form was busy, each sent after the one on its way. */
  more: 'data-more',
} as const;

/** SPEC §8's text for a cart post that failed for any reason but sign-in and stock (src/client/cart.ts says the same). */
const ADD_FAILED = 'Cannot Add Product In Cart..try again later.';

// src/client/cart.ts (and with it ky and the offline queue), loaded on the first press that needs it.
const fullClient = () => import('./cart.ts');

const isBusy = (form: HTMLFormElement) => form.hasAttribute(PRESS.busy);

/** The form's buttons look and act busy (aria-disabled); clearing takes off only the marks set here. */
function markBusy(form: HTMLFormElement) {
  form.setAttribute(PRESS.busy, '');
  form.setAttribute('aria-busy', 'true');
  for (const button of form.querySelectorAll<HTMLButtonElement>('button[type="submit"]:not([aria-disabled="true"])')) {
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute(PRESS.busy, '');
  }
}

function clearBusy(form: HTMLFormElement) {
  form.removeAttribute(PRESS.busy);
  form.removeAttribute('aria-busy');
  for (const button of form.querySelectorAll(`[${PRESS.busy}]`)) {
    button.removeAttribute('aria-disabled');
    button.removeAttribute(PRESS.busy);
  }
}

/** One press counted while busy taken, if any. */
function takeMore(form: HTMLFormElement): boolean {
  const more = Number(form.getAttribute(PRESS.more)) || 0;
  if (more > 1) form.setAttribute(PRESS.more, String(more - 1));
  else form.removeAttribute(PRESS.more);
  return more > 0;
}

/** The pack chosen beside the form (its select): as the page came with it, or another; none for one size. */
function packOf(form: HTMLFormElement) {
  const select = form.closest('.product-actions')?.querySelector<HTMLSelectElement>('select[data-pack-select]');
  const option = select?.selectedOptions[0];
  return { variantId: Number(select?.value) || 0, priceId: Number(option?.dataset.priceId) || 0, asServed: option?.defaultSelected !== false };
}

/** 'Toor Dal 1 kg', as the stepper names it. */
const labelOf = (form: HTMLFormElement) =>
  form.querySelector(`[${STEPPER_HOOKS.stepper}]`)?.getAttribute('aria-label')?.replace(/ in your cart$/, '') ?? 'this product';

// ---- Drawing: the store drawn on islands React has not hydrated (a hydrated island draws itself, from the same view).

/** Forms of islands not yet hydrated (Astro drops `ssr` once it has). */
const WAITING_FORMS = 'astro-island[ssr] form[data-add-to-cart]';

function drawWaitingForms(marks: ReturnType<typeof $cartMarks.get>) {
  for (const form of document.querySelectorAll<HTMLFormElement>(WAITING_FORMS)) {
    const { variantId, asServed } = packOf(form);
    // Another pack than the page came with wakes the island, which draws it: drawn here too, the markup would differ
    // from React's first render and React would draw the box again, losing the chosen pack.
    if (asServed) drawStepper(form, stepperView(marks[cartKey(Number(form.dataset.productId), variantId)]));
  }
}

/** The header's badge and its label (SPEC §4). */
function drawCount(count: number | null) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-cart-link]')) {
    const badge = link.querySelector<HTMLElement>('[data-cart-count]');
    if (badge) {
      badge.textContent = count === null ? '' : String(count);
      badge.hidden = count === null || count === 0;
    }
    link.setAttribute('aria-label', count ? `Cart, ${count} ${count === 1 ? 'item' : 'items'}` : 'Cart');
  }
}

/**
 * After an answer: the pressed button may be hidden now ('Add to cart' gave way to the stepper, or a last '−' the
 * other way); focus goes to what took its place, in the same part of the form (the product page's bar or not).
 * A hydrated island draws in a task after the store changes, so this looks after it has.
 */
function keepFocus(form: HTMLFormElement, inBar: boolean) {
  setTimeout(() => {
    const focused = document.activeElement;
    if (form.contains(focused) && !focused?.closest('[hidden]')) return;
    const scope = (inBar ? form.querySelector('.buy-bar') : form) ?? form;
    scope.querySelector<HTMLElement>(`[${STEPPER_HOOKS.stepper}]:not([hidden]) [${STEPPER_HOOKS.more}], [${STEPPER_HOOKS.add}]:not([hidden])`)?.focus();
  }, 0);
}

// ---- Presses.

/** A press on an add-to-cart form: sent now, or counted when one is on its way. */
function press(form: HTMLFormElement, value: string) {
  if (isBusy(form)) {
    if (value !== '-1') form.setAttribute(PRESS.more, String((Number(form.getAttribute(PRESS.more)) || 0) + 1));
    return;
  }
  markBusy(form);
  void settle(form, value);
}

/** Sends the press, says how it went, then one more for each press counted meanwhile; the form busy until the last. */
async function settle(form: HTMLFormElement, value: string) {
  const focusWasHere = form.contains(document.activeElement);
  const inBar = Boolean(document.activeElement?.closest('.buy-bar'));
  for (;;) {
    let outcome: AddOutcome | LineOutcome;
    try {
      outcome = await send(form, value);
    } catch (error) {
      console.error('Cannot change the cart', error);
      outcome = { kind: 'failed', message: ADD_FAILED };
    }
    const again = (outcome.kind === 'added' || outcome.kind === 'changed') && takeMore(form);
    if (!again) {
      form.removeAttribute(PRESS.more);
      clearBusy(form);
      // Clearing took the busy mark off '+'; a line at its most keeps '+' marked (as the island and drawStepper mark it).
      const { variantId } = packOf(form);
      if (stepperView($cartMarks.get()[cartKey(Number(form.dataset.productId), variantId)]).atMost) {
        for (const more of form.querySelectorAll(`[${STEPPER_HOOKS.more}]`)) more.setAttribute('aria-disabled', 'true');
      }
      if (focusWasHere) keepFocus(form, inBar);
    }
    await tell(outcome);
    if (!again) return;
    value = '1';
  }
}

/** One press: an add, or a line one more or one less. */
async function send(form: HTMLFormElement, value: string): Promise<AddOutcome | LineOutcome> {
  const productId = Number(form.dataset.productId);
  const { variantId, priceId } = packOf(form);
  const line = $cartMarks.get()[cartKey(productId, variantId)];
  const now: StepperView = stepperView(line);
  const label = labelOf(form);
  // '+' at the most the line may hold says why, and asks nothing of the server.
  if (value === '1' && now.atMost) return { kind: 'failed', message: `${now.note}.` };
  // Before its island has hydrated and the full client has loaded, '+' is an add of one more too (one plain post, no
  // client to load first); after, the line's own change. Changes made offline still waiting go first (src/client/cart.ts
  // sends this one behind them).
  const plain = Boolean(form.closest('astro-island[ssr]')) && !isClientLoaded() && $pendingChanges.get().length === 0;
  if (value === '' || !line || !now.inCart || (value === '1' && plain)) {
    const key = newIdempotencyKey();
    const early = plain ? await addWithoutClient(productId, variantId, priceId, key) : undefined;
    if (early) return early;
    return (await fullClient()).addToCart({ productId, variantId, priceId, label, key });
  }
  return (await fullClient()).changeLine(line.lineId, line.qty + (value === '-1' ? -1 : 1), label);
}

/**
 * The exception (see the top): an add posted with plain fetch while the full client has not loaded. Undefined when it
 * cannot or did not settle it (no fresh token, offline, a refusal, no answer): src/client/cart.ts takes it, same key.
 */
async function addWithoutClient(productId: number, variantId: number, priceId: number, key: string): Promise<AddOutcome | undefined> {
  if (!navigator.onLine) return undefined;
  const userId = Number(storedUserId());
  // The API prices the line itself; SPEC §4's product fetch before the post is left out here.
  const cart = await postWithoutClient<CartDto>(
    'app/Carts',
    { productsId: productId, usersId: userId, productVariantsId: variantId, productVariantPriceId: priceId, packing: 'packaging', qty: 1 },
    key,
  );
  if (!cart) return undefined;
  showCart(cart);
  const line = cart.lines.find((l) => l.productsId === productId && l.productVariantsId === variantId);
  const name = line?.name ?? 'This product';
  return { kind: 'added', name, label: name, qtyInCart: line?.qty ?? 1 };
}

/** As the island used to say it: a toast for an add or a failure, sign-in when the session is over. */
async function tell(outcome: AddOutcome | LineOutcome) {
  if (outcome.kind === 'changed') return;
  const here = `${location.pathname}${location.search}`;
  const login = loginUrl(here);
  if (outcome.kind === 'sign-in' && !outcome.message) return void location.assign(login);
  const { toastError, toastSuccess } = await import('../lib/toast.ts');
  // Offline (issue 26), the add is kept to be sent later (./cart-queue.ts), and the toast says so.
  if (outcome.kind === 'added') return void toastSuccess(outcome.queued ?? `${outcome.name} added to cart!`);
  if (outcome.kind === 'failed') return void toastError(outcome.message);
  void toastError(outcome.message ?? '', { autoClose: 1500, onClose: () => location.assign(login) });
}

// ---- Hearts.

/**
 * A signed-in heart: ./wishlist-toggle.ts once it has started (it knows which are kept: `<html data-hearts>`); before,
 * an add posted from here (keeping one kept already is fine), its answer every kept id, which the hearts show.
 */
async function pressHeart(form: HTMLFormElement) {
  const heart = form.querySelector<HTMLButtonElement>('[data-heart]');
  if (!heart) return;
  if (document.documentElement.hasAttribute('data-hearts')) return void (await import('./wishlist-toggle.ts')).toggleHeart(heart);
  if (isBusy(form)) return;
  markBusy(form);
  const answer = navigator.onLine ? await postWithoutClient<{ productIds: number[] }>('app/Wishlists', { productsId: Number(heart.dataset.heart) }) : undefined;
  clearBusy(form);
  // No answer, or no fresh token: ./wishlist-toggle.ts presses it again when it starts (the add is safe to repeat).
  if (!answer) return void form.setAttribute(PRESS.pendingHeart, '');
  for (const each of document.querySelectorAll<HTMLElement>('button[data-heart]')) {
    const kept = answer.productIds.includes(Number(each.dataset.heart));
    each.setAttribute('aria-pressed', String(kept));
    each.title = kept ? 'Remove from wishlist' : 'Add to wishlist';
  }
  void import('../lib/toast.ts').then((t) => t.toastSuccess('Added to your wishlist'));
}

// ---- Start.

/**
 * Signed out, a press goes to /login as SPEC §4 asks, its choice kept for after (SPEC §3), and back to the page it was
 * made on: a card's form posts to its product page, which would bring the shopper back there instead of the listing.
 */
function keepChoiceAndSignIn(form: HTMLFormElement) {
  const kept = keptAddOfForm(form);
  try {
    if (kept) localStorage.setItem(KEPT_ADD_KEY, encodeKeptAdd(kept));
  } catch {
    // Storage refused (a privacy setting): sign-in still works, the shopper adds again.
  }
  location.assign(loginUrl(`${location.pathname}${location.search}`));
}

let started = false;

export function startCartController() {
  if (started) return;
  started = true;
  // On the window, capturing: before the inline script's hold (on document), which then leaves the press alone.
  addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
      const cart = form.matches('form[data-add-to-cart]');
      if (!cart && !form.matches('form[data-heart-form]')) return;
      if (!hasStoredUser() && !cart) return;
      event.preventDefault();
      if (!hasStoredUser()) return keepChoiceAndSignIn(form);
      if (cart) press(form, event.submitter?.getAttribute('value') ?? '');
      else void pressHeart(form);
    },
    { capture: true },
  );
  $cartMarks.listen(drawWaitingForms);
  $cartCount.listen(drawCount);
  if (!hasStoredUser()) return;
  // The cart as last known here, drawn before any answer: offline, it is all there is (issue 33).
  showLastKnownCart();
  // Presses the inline script held before this file arrived (it made their forms busy).
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[${PRESS.pending}]`)) {
    const value = form.getAttribute(PRESS.pending) ?? '';
    form.removeAttribute(PRESS.pending);
    void settle(form, value);
  }
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[${PRESS.pendingHeart}]`)) {
    form.removeAttribute(PRESS.pendingHeart);
    clearBusy(form);
    void pressHeart(form);
  }
}
