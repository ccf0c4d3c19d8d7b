// What a product's `− qty +` stepper shows (issue 24), from its line in the cart: the island (ProductActions.tsx) and
// the cart controller, which marks cards before they hydrate (src/client/cart-controller.ts), both draw it from this, so the page the
// script left is the page React hydrates.

/** A product's (pack's) line, as a stepper needs it (src/stores/cart.ts keeps one per line). */
export interface CartMark {
  lineId: number;
  qty: number;
  /** The most this line may hold (the per-order limit, or the shelf's units when fewer). */
  maxQty: number;
  /** The shelf sets maxQty: 'Only {maxQty} left'. */
  limitedByStock: boolean;
  inStock: boolean;
  /** Changed offline, not sent yet (issue 26): the stepper says it will be sent. */
  pending?: boolean;
}

export const WILL_BE_SENT = 'Will be sent when you are back online';

export interface StepperView {
  /** In the cart: the stepper shows instead of 'Add to cart'. */
  inCart: boolean;
  qty: number;
  /** '+' would pass the most the line may hold. */
  atMost: boolean;
  /** Why '+' stops: 'Only 8 left', or the per-order limit; empty below it. */
  note: string;
}

export function stepperView(mark: CartMark | undefined): StepperView {
  // A line that went out of stock is the cart page's to show (set apart there); the card offers what it offers.
  if (!mark || !mark.inStock || mark.qty <= 0) return { inCart: false, qty: 0, atMost: false, note: '' };
  const atMost = mark.qty >= mark.maxQty;
  const limit = !atMost ? '' : mark.limitedByStock ? `Only ${mark.maxQty} left` : `At most ${mark.maxQty} per order`;
  // At its most, the limit matters more ('+' says why it stops); below it, that the change waits to be sent.
  const note = atMost ? limit : mark.pending ? WILL_BE_SENT : '';
  return { inCart: true, qty: mark.qty, atMost, note };
}

/** The hooks the island puts on its markup, which the script before hydration sets the same way. */
export const STEPPER_HOOKS = {
  add: 'data-cart-add',
  stepper: 'data-cart-stepper',
  qty: 'data-cart-qty',
  more: 'data-cart-more',
  note: 'data-cart-note',
} as const;

/** Sets a not-yet-hydrated island's markup as the island would render it (src/client/cart-controller.ts). */
export function drawStepper(root: ParentNode, view: StepperView) {
  for (const add of root.querySelectorAll<HTMLElement>(`[${STEPPER_HOOKS.add}]`)) add.hidden = view.inCart;
  for (const stepper of root.querySelectorAll<HTMLElement>(`[${STEPPER_HOOKS.stepper}]`)) stepper.hidden = !view.inCart;
  for (const qty of root.querySelectorAll<HTMLElement>(`[${STEPPER_HOOKS.qty}]`)) qty.textContent = String(view.qty);
  for (const more of root.querySelectorAll<HTMLElement>(`[${STEPPER_HOOKS.more}]`)) {
    if (view.atMost) more.setAttribute('aria-disabled', 'true');
    else more.removeAttribute('aria-disabled');
  }
  for (const note of root.querySelectorAll<HTMLElement>(`[${STEPPER_HOOKS.note}]`)) note.textContent = view.note;
}
