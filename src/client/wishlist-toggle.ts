// The hearts for a signed-in shopper (started by ./header-account.ts): the pressed state from one call
// (GET Wishlists/ProductIds), a press that adds or removes (handed over by ./cart-controller.ts, which every press goes through), and a heart pressed before signing in added on return
// (its form went to /login with this page and '#add-to-wishlist-<id>' as the way back).
import { clearSession } from '../stores/auth.ts';
import { atLoad } from './load-api.ts';
import { wishlistCalls } from '../lib/api/wishlist.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { toastError, toastSuccess } from '../lib/toast.ts';
import { urls, WISHLIST_ADD_PREFIX } from '../lib/urls.ts';
import { PRESS } from './cart-controller.ts';

let kept = new Set<number>();
let watching = false;

function showHearts() {
  for (const heart of document.querySelectorAll<HTMLButtonElement>('button[data-heart]')) {
    const on = kept.has(Number(heart.dataset.heart));
    if (heart.getAttribute('aria-pressed') === String(on)) continue;
    heart.setAttribute('aria-pressed', String(on));
    heart.title = on ? 'Remove from wishlist' : 'Add to wishlist';
  }
}

/** The heart pressed before signing in, from the way back's fragment, which is then dropped from the address. */
function takePending(): number | null {
  const match = new RegExp(`^#${WISHLIST_ADD_PREFIX}(\\d+)$`).exec(window.location.hash);
  if (!match) return null;
  history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}`);
  return Number(match[1]);
}

let started = false;

/** Once per page: presses become adds and removes, and every heart shows whether it is kept. */
export function startHearts() {
  if (started) return;
  started = true;
  // From now on ./cart-controller.ts hands heart presses to this file; one it could not send before is sent now.
  document.documentElement.dataset.hearts = '';
  takeEarlyHearts();
  void fillHearts();
}

/** Presses ./cart-controller.ts could not send (no fresh token, no answer) are sent now, through the client. */
function takeEarlyHearts() {
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[data-heart-form][${PRESS.pendingHeart}]`)) {
    form.removeAttribute(PRESS.pendingHeart);
    const heart = form.querySelector<HTMLButtonElement>('[data-heart]');
    if (heart) void toggleHeart(heart);
  }
}

async function fillHearts() {
  if (!watching) {
    watching = true;
    // Cards that Load More appends come with unpressed hearts.
    new MutationObserver(showHearts).observe(document.querySelector('main') ?? document.body, { childList: true, subtree: true });
  }
  try {
    const pending = takePending();
    // Pressed before signing in, and still on this page: the shopper meant to keep it.
    const heart = pending === null ? null : document.querySelector<HTMLButtonElement>(`button[data-heart="${pending}"]`);
    const adding = heart !== null && pending !== null;
    // The full client (ky) only when there is something to write: a page's hearts are filled without it.
    const ids = adding ? (await import('./api.ts')).browserWishlist.add(pending) : wishlistCalls(atLoad).ids();
    kept = new Set((await ids).productIds);
    showHearts();
    if (adding) void toastSuccess('Added to your wishlist');
  } catch (error) {
    console.error('Cannot load the wishlist', error); // the hearts stay unpressed; a press still works
  }
}

export async function toggleHeart(heart: HTMLButtonElement) {
  if (heart.getAttribute('aria-busy') === 'true') return;
  const productId = Number(heart.dataset.heart);
  const adding = heart.getAttribute('aria-pressed') !== 'true';
  heart.setAttribute('aria-busy', 'true');
  try {
    const { browserWishlist } = await import('./api.ts');
    const { productIds } = await (adding ? browserWishlist.add(productId) : browserWishlist.remove(productId));
    kept = new Set(productIds);
    showHearts();
    void toastSuccess(adding ? 'Added to your wishlist' : 'Removed from your wishlist');
  } catch (error) {
    console.error('Cannot change the wishlist', error);
    if (apiStatus(error) === 401) {
      clearSession();
      window.location.assign(urls.login(`${window.location.pathname}${window.location.search}`));
      return;
    }
    void toastError(apiErrorMessage(error, 'Your wishlist could not be changed. Try again later.'));
  } finally {
    heart.removeAttribute('aria-busy');
  }
}
