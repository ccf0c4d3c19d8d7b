// 'Add to cart' (or a cart stepper's − / +) pressed before its island has hydrated (islands hydrate on first
// interaction, so a quick tap can beat React). Signed in, the page's inline script holds the press from the first
// paint (HOLD_EARLY_ADD, src/lib/server/inline-scripts.ts: the form busy, the press marked for src/client/first-tap.ts,
// src/client/early-cart.ts or the island, `takePendingAdd`), with the marks this file names and clears. Signed out,
// the form goes to /login as SPEC §4 asks, and the choice (the product and the pack in the select beside it) is kept
// here for after signing in (SPEC §3 `proid`, src/lib/kept-add.ts).
import { hasStoredUser } from './auth-state.ts';
import { encodeKeptAdd, KEPT_ADD_KEY, keptAddOfForm } from './kept-add.ts';

export const PENDING_ADD_EVENT = 'kirana:pending-add';
/** src/client/first-tap.ts was answered (window.kiranaEarlyCart): src/stores/cart.ts shows it, early-cart.ts says it. */
export const EARLY_CART_EVENT = 'kirana:early-cart';
/** A signed-in heart pressed before src/client/wishlist-toggle.ts started (set by the inline HOLD_EARLY_ADD). */
export const PENDING_HEART_ATTR = 'data-pending-heart';
/** src/client/first-tap.ts answered a heart (window.kiranaEarlyHearts) or left it to wishlist-toggle.ts. */
export const EARLY_HEART_EVENT = 'kirana:early-heart';
/** The Idempotency-Key of a post src/client/first-tap.ts sent without an answer (data-pending-key on the form). */
export const PENDING_KEY_ATTR = 'data-pending-key';

/** Signed out: a press before hydration goes to /login with its choice kept (signed in, the inline script took it). */
export function keepChoiceBeforeSignIn() {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('[data-add-to-cart]') || event.defaultPrevented) return;
    if (form.closest('astro-island[ssr]') && !hasStoredUser()) keepChoice(form);
  });
}

/** Set on the buttons this script made busy, so that clearing takes off only its own aria-disabled. */
const EARLY_BUSY_MARK = 'data-early-busy';

/** A press held before hydration is on its way: its form takes no other until it is answered. */
export const isEarlyBusy = (form: HTMLFormElement) => form.dataset.earlyBusy !== undefined;

/** The form's buttons look and act busy (the island's own busy state looks the same: aria-disabled). */
export function markEarlyBusy(form: HTMLFormElement) {
  form.dataset.earlyBusy = '';
  form.setAttribute('aria-busy', 'true');
  for (const button of form.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) {
    if (button.getAttribute('aria-disabled') === 'true') continue;
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute(EARLY_BUSY_MARK, '');
  }
}

/**
 * '+' or 'Add to cart' pressed while the form is busy: counted (data-more), and sent after the press on its way as one
 * more each (src/client/first-tap.ts, src/client/early-cart.ts), never lost and never doubled.
 */
export function countPressWhileBusy(form: HTMLFormElement) {
  form.dataset.more = String((Number(form.dataset.more) || 0) + 1);
}

/** Takes one press counted while busy, if any. */
export function takePressWhileBusy(form: HTMLFormElement): boolean {
  const more = Number(form.dataset.more) || 0;
  if (more > 0) form.dataset.more = String(more - 1);
  else delete form.dataset.more;
  return more > 0;
}

/** The press is answered (or failed): the form takes presses again. */
export function clearEarlyBusy(form: HTMLFormElement) {
  delete form.dataset.earlyBusy;
  form.removeAttribute('aria-busy');
  for (const button of form.querySelectorAll<HTMLButtonElement>(`[${EARLY_BUSY_MARK}]`)) {
    button.removeAttribute('aria-disabled');
    button.removeAttribute(EARLY_BUSY_MARK);
  }
}

function keepChoice(form: HTMLFormElement) {
  const kept = keptAddOfForm(form);
  try {
    if (kept) localStorage.setItem(KEPT_ADD_KEY, encodeKeptAdd(kept));
  } catch {
    // Storage refused (a privacy setting): sign-in still works, the shopper adds again.
  }
}

/**
 * In the island, once mounted: runs `act` for a press held before hydration, now and whenever one comes, with the
 * pressed button's value ('' for 'Add to cart').
 */
export function takePendingAdd(form: HTMLFormElement, act: (value: string) => void): () => void {
  const take = () => {
    const value = form.dataset.pendingAdd;
    if (value === undefined) return;
    delete form.dataset.pendingAdd;
    act(value);
  };
  take();
  form.addEventListener(PENDING_ADD_EVENT, take);
  return () => form.removeEventListener(PENDING_ADD_EVENT, take);
}
