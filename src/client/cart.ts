// The cart's calls from the browser: SPEC §4's count on start, and its add-to-cart (no token → sign in; fresh
// token; the product fetched fresh; the line posted). Every answer that carries the whole cart sets the badge
// (src/stores/cart.ts).
import { readToken } from '../lib/auth/token.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { $productId, $token, $userId, clearSession } from '../stores/auth.ts';
import { $cartCount, showCart } from '../stores/cart.ts';
import { browserCart, browserCatalogue } from './api.ts';

/** SPEC §8's text for a cart post that failed for any reason but sign-in and stock. */
export const ADD_FAILED = 'Cannot Add Product In Cart..try again later.';
export const SIGN_IN_AGAIN = 'Please sign in again to add to your cart.';

/** SPEC §4: the count loads on start when signed in. Failures are only logged (SPEC §8). */
export async function loadCartCount(): Promise<void> {
  const userId = $userId.get();
  if (!userId || !$token.get()) return;
  try {
    $cartCount.set((await browserCart.total(userId)).cartsTotal);
  } catch (error) {
    console.error('Cannot load the cart count', error);
  }
}

export interface CartChoice {
  productId: number;
  /** The chosen pack size and its price id; absent (0 in the payload) for a plain product. */
  variantId?: number | undefined;
  priceId?: number | undefined;
}

export type AddOutcome =
  | { kind: 'added'; name: string; qtyInCart: number }
  | { kind: 'sign-in'; message?: string }
  | { kind: 'failed'; message: string };

export async function addToCart(choice: CartChoice): Promise<AddOutcome> {
  const token = $token.get();
  const userId = $userId.get();
  if (!token || !userId || !readToken(token)) {
    $productId.set(String(choice.productId));
    return { kind: 'sign-in' };
  }
  try {
    // SPEC §4: the product is fetched fresh (its price may have changed since the page was made).
    const product = await browserCatalogue.product(choice.productId);
    if (!product) return { kind: 'failed', message: ADD_FAILED };
    const variantId = choice.variantId ?? 0;
    const cart = showCart(
      await browserCart.add({
        productsId: product.id,
        usersId: Number(userId),
        productVariantsId: variantId,
        productVariantPriceId: choice.priceId ?? 0,
        packing: 'packaging',
        price: product.price,
        qty: 1,
      }),
    );
    const line = cart.lines.find((l) => l.productsId === product.id && l.productVariantsId === variantId);
    return { kind: 'added', name: product.name, qtyInCart: line?.qty ?? 1 };
  } catch (error) {
    console.error('Cannot add to the cart', error); // SPEC §4: exceptions are logged
    const status = apiStatus(error);
    if (status === 401) {
      // A refresh could not mend it (src/lib/api/session-hooks.ts): the session is over.
      clearSession();
      $productId.set(String(choice.productId));
      return { kind: 'sign-in', message: SIGN_IN_AGAIN };
    }
    // A refresh that did not say no (SessionRefreshUnavailable: 429, 5xx, offline) lands below: the shopper stays
    // signed in. Out of stock, too many of it, or too fast: the API's own words say what to do.
    if (status === 409 || status === 422 || status === 429) return { kind: 'failed', message: apiErrorMessage(error, ADD_FAILED) };
    return { kind: 'failed', message: ADD_FAILED };
  }
}
