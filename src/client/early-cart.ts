// Presses held before hydration that src/client/first-tap.ts did not send (issue 26): no fresh token, offline, a '−',
// a refusal or a post that got no answer (handed over with its Idempotency-Key). They go through ./cart.ts as the
// island's would: the session refreshed, the offline queue, the API's words for a refusal. The adds first-tap.ts did
// send are said here in the island's toast. A form stays busy until its press is answered: the island counts a press on
// it and sends it after (ProductActions.tsx).
import { drawStepper, STEPPER_HOOKS, stepperView } from '../lib/cart-stepper.ts';
import { clearEarlyBusy, EARLY_CART_EVENT, markEarlyBusy, PENDING_ADD_EVENT, PENDING_KEY_ATTR, takePressWhileBusy } from '../lib/early-add-to-cart.ts';
import { urls } from '../lib/urls.ts';
import { $cartMarks, cartKey } from '../stores/cart.ts';
import { addToCart, changeLine, SIGN_IN_AGAIN, type AddOutcome, type LineOutcome } from './cart.ts';

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
    else if (value === '' || !line || !now.inCart) outcome = await addToCart({ productId, variantId, priceId, label, key });
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
