// The signed-in header: the cart loaded on start (SPEC §4's count; the badge and the cards' steppers are drawn by
// ./cart-controller.ts from the store), the phone's cart bar (issue 24), the product kept across sign-in added to the cart, and what happens when the session
// ends in another tab. Loaded by Header.astro only for a signed-in visitor.
import { $user } from '../stores/auth.ts';
import { forgetCart } from '../stores/cart.ts';
import { isProtectedPage, showAuthState } from '../lib/auth-state.ts';
import { urls } from '../lib/urls.ts';
import { addToCart, loadCart, takeKeptAdd } from './cart.ts';
import { startCartBar } from './cart-bar.ts';
import { loadMenuStyles } from './menu-styles.ts';

let started = false;

export function startSignedInHeader() {
  if (started) return;
  started = true;
  // The shopper whose count is shown: a token refresh saves the same shopper again (a new `user` object, here and in
  // the other tabs), which must not ask for the count a second time.
  let countedFor = $user.get()?.id;
  loadMenuStyles({ now: true });
  startCartBar();
  const kept = takeKeptAdd();
  void (kept ? addKept(kept) : loadCart());
  // The wishlist hearts of this page, if it has any (a signed-out visitor's hearts need no script).
  if (document.querySelector('[data-heart]')) void import('./wishlist-toggle.ts').then((m) => m.startHearts());
  $user.listen((user) => {
    showAuthState(user !== null);
    if (user) {
      if (user.id !== countedFor) void loadCart();
      countedFor = user.id;
      return;
    }
    countedFor = undefined;
    forgetCart();
    // Signed out in another tab: a protected page has nothing left to show here.
    if (isProtectedPage()) window.location.assign(urls.login(`${window.location.pathname}${window.location.search}`));
  });
}

/**
 * What the shopper chose before signing in or registering (SPEC §3 `proid`, with its pack), added now and said in a
 * toast; the answer is the whole cart, so no second call for the count.
 */
async function addKept(kept: NonNullable<ReturnType<typeof takeKeptAdd>>) {
  const outcome = await addToCart(kept);
  const { toastError, toastSuccess } = await import('../lib/toast.ts');
  if (outcome.kind === 'added') return void toastSuccess(`${outcome.label} added to your cart`);
  if (outcome.kind === 'failed') void toastError(outcome.message);
  await loadCart();
}
