// The cart count every island and the header badge share (SPEC §3: held in app state, shown in the badge).
// The calls that fill it (the count on start, SPEC §4's add-to-cart) are the browser's: src/client/cart.ts.
import { atom } from 'nanostores';
import type { CartDto } from '../server/account-schemas.ts';

/** The number of items in the cart (the badge); null until it is known. */
export const $cartCount = atom<number | null>(null);

/** Every answer that carries the whole cart also sets the badge. */
export function showCart(cart: CartDto): CartDto {
  $cartCount.set(cart.summary.itemCount);
  return cart;
}
