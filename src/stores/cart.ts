// The cart every island and page script shares (SPEC §3: the count is held in app state and shown in the badge): the
// count, each product's line (the cards' steppers, issue 24) and what the phone's cart bar says.
// Every press that changes it goes through src/client/cart-controller.ts; the calls behind it are src/client/cart.ts.
// The last cart the server gave is kept in this browser (issue 33): a page opened again offline shows the cart as last
// known, so a press there changes what the shopper sees, and what arrives is what they saw.
import { atom } from 'nanostores';
import type { CartMark } from '../lib/cart-stepper.ts';
import type { CartDto } from '../server/account-schemas.ts';
import { storedUserId } from '../lib/auth-state.ts';

/** localStorage: the shopper's last cart as the server answered it ({ userId, cart }). */
export const LAST_CART_KEY = 'kirana-cart';

/** The number of items in the cart (the badge); null until it is known. */
export const $cartCount = atom<number | null>(null);

/** `productId:variantId` (0 for a product sold in one size), the key of $cartMarks. */
export const cartKey = (productId: number, variantId: number | undefined = 0) => `${productId}:${variantId}`;

/** Each product's (pack's) line in the cart, by cartKey; empty until the cart is known. */
export const $cartMarks = atom<Record<string, CartMark>>({});

/** What the phone's cart bar says: the items on the shelf and what they cost; null until the cart is known. */
export const $cartTotals = atom<{ itemCount: number; totalPaise: number; waiting?: boolean } | null>(null);

/**
 * A cart change made offline and not sent yet (issue 26, src/client/cart-queue.ts). The stores show the cart as it will
 * be once sent, its lines marked `pending` ("will be sent"). `lineId` 0: a line that only a pending add made.
 */
export type PendingChange =
  | { kind: 'add'; productId: number; variantId: number }
  | { kind: 'set'; productId: number; variantId: number; lineId: number; qty: number }
  | { kind: 'remove'; productId: number; variantId: number; lineId: number };

/** The changes waiting to be sent, oldest first. */
export const $pendingChanges = atom<PendingChange[]>([]);

/** The server's last cart: the pending changes are drawn over it. */
let lastCart: CartDto | null = null;

/** The badge's count and the steppers' marks: the server's cart with the pending changes on top. */
export function cartWithPending(cart: CartDto | null, pending: readonly PendingChange[]) {
  const marks: Record<string, CartMark> = Object.fromEntries(
    (cart?.lines ?? []).map((l) => [
      cartKey(l.productsId, l.productVariantsId),
      { lineId: l.id, qty: l.qty, maxQty: l.maxQty, limitedByStock: l.limitedByStock, inStock: l.inStock },
    ]),
  );
  let count = cart ? cart.summary.itemCount : null;
  const onShelf = (mark: CartMark | undefined) => (mark?.inStock === false ? 0 : (mark?.qty ?? 0));
  for (const change of pending) {
    const key = cartKey(change.productId, change.variantId);
    const mark = marks[key];
    const before = onShelf(mark);
    if (change.kind === 'remove') delete marks[key];
    else if (change.kind === 'set') marks[key] = { ...(mark ?? pendingMark(change.lineId)), qty: change.qty, pending: true };
    // A line no one has sent yet gets an id below 0, its own on this page, so a stepper can name it.
    else marks[key] = { ...(mark ?? pendingMark(-1 - Object.keys(marks).length)), qty: (mark?.qty ?? 0) + 1, pending: true };
    if (count !== null) count += onShelf(marks[key]) - before;
  }
  return { count, marks };
}

/** A line the server has not seen yet (`lineId` below 0): its limits are the server's to tell when it is sent. */
const pendingMark = (lineId: number): CartMark => ({ lineId, qty: 0, maxQty: Number.POSITIVE_INFINITY, limitedByStock: false, inStock: true });

function draw() {
  const { count, marks } = cartWithPending(lastCart, $pendingChanges.get());
  $cartCount.set(count);
  $cartMarks.set(marks);
  // The count says what will be in the cart; a pending change has no price until the server gives it, so the bar
  // says the change will be sent instead of a total that is not the cart's.
  const waiting = $pendingChanges.get().length > 0;
  $cartTotals.set(lastCart && count !== null ? { itemCount: count, totalPaise: lastCart.summary.totalPaise, ...(waiting ? { waiting } : {}) } : null);
}

/** Sets what waits to be sent (src/client/cart-queue.ts), and draws it. */
export function showPending(pending: PendingChange[]) {
  $pendingChanges.set(pending);
  draw();
}

/** Every answer that carries the whole cart sets the badge, the steppers and the cart bar (with what waits, on top). */
export function showCart(cart: CartDto): CartDto {
  lastCart = cart;
  draw();
  try {
    localStorage.setItem(LAST_CART_KEY, JSON.stringify({ userId: storedUserId(), cart }));
  } catch {
    // Storage full or refused: this page still shows it.
  }
  return cart;
}

/** The signed-in shopper's cart as last known in this browser, shown until the server's answer (none: nothing shown). */
export function showLastKnownCart() {
  if (lastCart) return;
  try {
    const kept = JSON.parse(localStorage.getItem(LAST_CART_KEY) ?? 'null') as { userId?: string; cart?: CartDto } | null;
    if (kept?.cart && kept.userId !== undefined && kept.userId === storedUserId()) {
      lastCart = kept.cart;
      draw();
    }
  } catch {
    // Unreadable: the server's answer draws it.
  }
}

/** Signed out (or another shopper): nothing is known of the cart. */
export function forgetCart() {
  lastCart = null;
  try {
    localStorage.removeItem(LAST_CART_KEY);
  } catch {
    // Refused: it names another shopper, so it is never shown to this one.
  }
  $pendingChanges.set([]);
  $cartCount.set(null);
  $cartMarks.set({});
  $cartTotals.set(null);
}
