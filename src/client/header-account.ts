// The signed-in header: the cart badge (SPEC §4: the count loads on start when signed in) and what happens
// when the session ends in another tab. Loaded by Header.astro only for a signed-in visitor.
import { $user } from '../stores/auth.ts';
import { $cartCount } from '../stores/cart.ts';
import { isProtectedPage, showAuthState } from '../lib/auth-state.ts';
import { urls } from '../lib/urls.ts';
import { loadCartCount } from './cart.ts';

let started = false;

function showCount(count: number | null) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-cart-link]')) {
    const badge = link.querySelector<HTMLElement>('[data-cart-count]');
    if (badge) {
      badge.textContent = count === null ? '' : String(count);
      badge.hidden = count === null || count === 0;
    }
    link.setAttribute('aria-label', count ? `Cart, ${count} ${count === 1 ? 'item' : 'items'}` : 'Cart');
  }
}

export function startSignedInHeader() {
  if (started) return;
  started = true;
  $cartCount.subscribe(showCount);
  // The shopper whose count is shown: a token refresh saves the same shopper again (a new `user` object, here and in
  // the other tabs), which must not ask for the count a second time.
  let countedFor = $user.get()?.id;
  void loadCartCount();
  // The wishlist hearts of this page, if it has any (a signed-out visitor's hearts need no script).
  if (document.querySelector('[data-heart]')) void import('./wishlist-toggle.ts').then((m) => m.startHearts());
  $user.listen((user) => {
    showAuthState(user !== null);
    if (user) {
      if (user.id !== countedFor) void loadCartCount();
      countedFor = user.id;
      return;
    }
    countedFor = undefined;
    $cartCount.set(null);
    // Signed out in another tab: a protected page has nothing left to show here.
    if (isProtectedPage()) window.location.assign(urls.login(`${window.location.pathname}${window.location.search}`));
  });
}
