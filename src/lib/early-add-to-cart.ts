// 'Add to cart' pressed before its island has hydrated (islands hydrate on first interaction, so a quick tap can
// beat React): for a signed-in shopper the button's no-JavaScript form would lead to /login. Hold that submit
// and hand it to the island once it has hydrated, so the tap still adds.
import { hasStoredUser } from './auth-state.ts';

export function holdEarlyAddToCart() {
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('[data-add-to-cart]') || event.defaultPrevented) return;
    const island = form.closest('astro-island');
    // Signed out, the form's own trip to sign in is what SPEC §4 asks for.
    if (!island?.hasAttribute('ssr') || !hasStoredUser()) return;
    event.preventDefault();
    // Astro drops `ssr` once the island has hydrated.
    const observer = new MutationObserver(() => {
      if (island.hasAttribute('ssr')) return;
      observer.disconnect();
      form.requestSubmit();
    });
    observer.observe(island, { attributes: true, attributeFilter: ['ssr'] });
  });
}
