// Cards and the product page know what is in the cart before anyone touches them (issue 24): the ProductActions
// islands hydrate only on interaction (React stays unloaded), so this sets their server-rendered markup the way the
// island would render it, from the cart store, whenever the cart changes. A hydrated island draws itself.
import { drawStepper, stepperView } from '../lib/cart-stepper.ts';
import { $cartMarks, cartKey } from '../stores/cart.ts';

/** The add-to-cart forms of islands not yet hydrated (Astro drops `ssr` from an island once it has). */
const WAITING_FORMS = 'astro-island[ssr] form[data-add-to-cart]';

let started = false;

export function markCardsInCart() {
  if (started || !document.querySelector('form[data-add-to-cart]')) return;
  started = true;
  $cartMarks.subscribe((marks) => {
    for (const form of document.querySelectorAll<HTMLFormElement>(WAITING_FORMS)) {
      const productId = Number(form.dataset.productId);
      const pack = form.closest('.product-actions')?.querySelector<HTMLSelectElement>('select[data-pack-select]');
      // Another pack than the page came with wakes the island, which draws it: drawn here too, the markup would differ
      // from React's first render and React would redraw the box, losing the chosen pack (as first-tap.ts guards).
      if (pack?.selectedOptions[0]?.defaultSelected === false) continue;
      drawStepper(form, stepperView(marks[cartKey(productId, pack ? Number(pack.value) : 0)]));
    }
  });
}
