// The phone's cart bar (issue 24): '3 items · ₹258 · View cart' at the bottom of every page but the cart and checkout,
// while the cart holds something on the shelf. Plain markup in Base.astro, filled from the cart store; no island.
import { formatRupees } from '../lib/money.ts';
import { itemCountText } from '../lib/order-status.ts';
import { $cartTotals } from '../stores/cart.ts';

let started = false;

export function startCartBar() {
  const bar = document.querySelector<HTMLElement>('[data-cart-bar]');
  const text = bar?.querySelector<HTMLElement>('[data-cart-bar-text]');
  if (started || !bar || !text) return;
  started = true;
  $cartTotals.subscribe((totals) => {
    const show = totals !== null && totals.itemCount > 0;
    // Changes made offline have no price yet (issue 26): the bar says they wait instead of an old total.
    if (show) text.textContent = `${itemCountText(totals.itemCount)} · ${totals.waiting ? 'will be sent' : formatRupees(totals.totalPaise)}`;
    bar.hidden = !show;
  });
}
