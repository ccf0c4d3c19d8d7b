// 'Add to cart' pressed before its island has hydrated (islands hydrate on first interaction, so a quick tap can
// beat React): for a signed-in shopper the button's no-JavaScript form would lead to /login. Hold that submit
// and mark the form; the island adds once it has mounted (ProductActions.tsx, `takePendingAdd`).
import { hasStoredUser } from './auth-state.ts';

export const PENDING_ADD_EVENT = 'kirana:pending-add';

export function holdEarlyAddToCart() {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('[data-add-to-cart]') || event.defaultPrevented) return;
    // Signed out, the form's own trip to sign in is what SPEC §4 asks for.
    if (!form.closest('astro-island[ssr]') || !hasStoredUser()) return;
    event.preventDefault();
    form.dataset.pendingAdd = '';
    // An island that mounted between the check above and now hears this; one mounting later finds the mark.
    form.dispatchEvent(new Event(PENDING_ADD_EVENT));
  });
}

/** In the island, once mounted: runs `add` for a press held before hydration, now and whenever one comes. */
export function takePendingAdd(form: HTMLFormElement, add: () => void): () => void {
  const take = () => {
    if (!('pendingAdd' in form.dataset)) return;
    delete form.dataset.pendingAdd;
    add();
  };
  take();
  form.addEventListener(PENDING_ADD_EVENT, take);
  return () => form.removeEventListener(PENDING_ADD_EVENT, take);
}
