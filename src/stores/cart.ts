// The cart every island and page script shares (SPEC §3: the count is held in app state and shown in the badge): the
// count, each product's line (the cards' steppers, issue 24) and what the phone's cart bar says.
// The calls that fill it (the cart on start, SPEC §4's add-to-cart) are the browser's: src/client/cart.ts.
import { atom } from 'nanostores';
import type { CartMark } from '../lib/cart-stepper.ts';
import type { CartDto } from '../server/account-schemas.ts';

/** The number of items in the cart (the badge); null until it is known. */
export const $cartCount = atom<number | null>(null);

/** `productId:variantId` (0 for a product sold in one size), the key of $cartMarks. */
export const cartKey = (productId: number, variantId: number | undefined = 0) => `${productId}:${variantId}`;

/** Each product's (pack's) line in the cart, by cartKey; empty until the cart is known. */
export const $cartMarks = atom<Record<string, CartMark>>({});

/** What the phone's cart bar says: the items on the shelf and what they cost; null until the cart is known. */
export const $cartTotals = atom<{ itemCount: number; totalPaise: number } | null>(null);

/** Every answer that carries the whole cart sets the badge, the steppers and the cart bar. */
export function showCart(cart: CartDto): CartDto {
  $cartCount.set(cart.summary.itemCount);
  $cartMarks.set(
    Object.fromEntries(
      cart.lines.map((l) => [
        cartKey(l.productsId, l.productVariantsId),
        { lineId: l.id, qty: l.qty, maxQty: l.maxQty, limitedByStock: l.limitedByStock, inStock: l.inStock },
      ]),
    ),
  );
  $cartTotals.set({ itemCount: cart.summary.itemCount, totalPaise: cart.summary.totalPaise });
  return cart;
}

/** Signed out (or another shopper): nothing is known of the cart. */
export function forgetCart() {
  $cartCount.set(null);
  $cartMarks.set({});
  $cartTotals.set(null);
}
