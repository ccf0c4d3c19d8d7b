// The hearts of a page (src/components/WishlistHeart.astro), before any interaction: one delegated listener, and
// for a stored user one call that fills every heart. Kept tiny (the bench counts this script on / and the product
// page); the API client and the toggling load only for a signed-in visitor (./wishlist-toggle.ts).
import { hasStoredUser } from './auth-state.ts';

/** A heart pressed while signed out: kept across the trip to /login, and added on coming back. */
export const PENDING_HEART_KEY = 'kirana:wishlist-after-sign-in';

let started = false;

const signedInPart = () => import('./wishlist-toggle.ts');

export function startWishlistHearts() {
  if (started) return;
  started = true;
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('[data-heart-form]')) return;
    event.preventDefault();
    const heart = form.querySelector<HTMLButtonElement>('[data-heart]');
    if (!heart) return;
    if (!hasStoredUser()) {
      try {
        sessionStorage.setItem(PENDING_HEART_KEY, heart.dataset.heart ?? '');
      } catch {
        // storage refused: the shopper presses the heart again after signing in
      }
      // The URLs load only now: most visitors never press a heart signed out.
      void import('./urls.ts').then(({ urls }) => window.location.assign(urls.login(`${window.location.pathname}${window.location.search}`)));
      return;
    }
    void signedInPart().then((m) => m.toggleHeart(heart));
  });
  if (hasStoredUser()) void signedInPart().then((m) => m.fillHearts());
}
