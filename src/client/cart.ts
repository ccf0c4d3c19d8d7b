// The cart's calls from the browser: the cart on start (SPEC §4's count, and each line for the steppers and the phone's
// cart bar), its add-to-cart (no token → sign in, the choice kept; fresh token; the product fetched fresh; the line
// posted), a stepper's change of a line, and the choice kept across sign-in added once signed in (issue 24). Every
// answer that carries the whole cart sets the badge, the steppers and the bar (src/stores/cart.ts).
import { readToken } from '../lib/auth/token.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { isFreshKeptAdd, type KeptAdd } from '../lib/kept-add.ts';
import { $keptAdd, $token, $userId, clearSession } from '../stores/auth.ts';
import { showCart } from '../stores/cart.ts';
import type { CartDto } from '../server/account-schemas.ts';
import { cartAtLoad } from './load-api.ts';

// The full client (ky, 13 KB gzip) loads on the shopper's first change to the cart, not with the page.
const fullClient = () => import('./api.ts');

/** SPEC §8's text for a cart post that failed for any reason but sign-in and stock. */
export const ADD_FAILED = 'Cannot Add Product In Cart..try again later.';
export const SIGN_IN_AGAIN = 'Please sign in again to add to your cart.';

/**
 * SPEC §4: the count loads on start when signed in. The whole cart, in one call: the cards' steppers and the phone's
 * cart bar need its lines and total as well. Failures are only logged (SPEC §8).
 */
export async function loadCart(): Promise<void> {
  const userId = $userId.get();
  if (!userId || !$token.get()) return;
  try {
    showCart(await cartAtLoad.cart(userId));
  } catch (error) {
    console.error('Cannot load the cart', error);
  }
}

export interface CartChoice {
  productId: number;
  /** The chosen pack size and its price id; absent (0 in the payload) for a plain product. */
  variantId?: number | undefined;
  priceId?: number | undefined;
}

export type AddOutcome =
  /** `label`: the product and its pack as the cart names them ('Toor Dal 1 kg'). */
  | { kind: 'added'; name: string; label: string; qtyInCart: number }
  | { kind: 'sign-in'; message?: string }
  | { kind: 'failed'; message: string };

export async function addToCart(choice: CartChoice): Promise<AddOutcome> {
  const token = $token.get();
  const userId = $userId.get();
  if (!token || !userId || !readToken(token)) {
    keepForSignIn(choice);
    return { kind: 'sign-in' };
  }
  try {
    // SPEC §4: the product is fetched fresh (its price may have changed since the page was made).
    const { browserCart, browserCatalogue } = await fullClient();
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
    const label = line?.variantName ? `${line.name} ${line.variantName}` : product.name;
    return { kind: 'added', name: product.name, label, qtyInCart: line?.qty ?? 1 };
  } catch (error) {
    console.error('Cannot add to the cart', error); // SPEC §4: exceptions are logged
    const status = apiStatus(error);
    if (status === 401) {
      // A refresh could not mend it (src/lib/api/session-hooks.ts): the session is over.
      clearSession();
      keepForSignIn(choice);
      return { kind: 'sign-in', message: SIGN_IN_AGAIN };
    }
    // A refresh that did not say no (SessionRefreshUnavailable: 429, 5xx, offline) lands below: the shopper stays
    // signed in. Out of stock, too many of it, or too fast: the API's own words say what to do.
    if (status === 409 || status === 422 || status === 429) return { kind: 'failed', message: apiErrorMessage(error, ADD_FAILED) };
    return { kind: 'failed', message: ADD_FAILED };
  }
}

/** SPEC §3's `proid`, with the pack: what the shopper chose survives the trip to sign in or register. */
function keepForSignIn({ productId, variantId, priceId }: CartChoice) {
  $keptAdd.set({ productId, variantId, priceId, at: Date.now() });
}

/** The choice kept before signing in, taken once (and forgotten, whatever happens next); none when stale or absent. */
export function takeKeptAdd(): KeptAdd | undefined {
  const kept = $keptAdd.get();
  if (kept) $keptAdd.set(undefined);
  return kept && isFreshKeptAdd(kept) ? kept : undefined;
}

export type LineOutcome = { kind: 'changed' } | { kind: 'sign-in'; message: string } | { kind: 'failed'; message: string };

/** A stepper's change: a line to `qty` units, or removed at 0. The cart that answers sets the stores. */
export async function changeLine(lineId: number, qty: number, name: string): Promise<LineOutcome> {
  try {
    const { browserCart } = await fullClient();
    const cart: CartDto = qty > 0 ? await browserCart.setQty(lineId, qty) : await browserCart.remove(lineId);
    showCart(cart);
    return { kind: 'changed' };
  } catch (error) {
    console.error('Cannot change the cart', error);
    const status = apiStatus(error);
    if (status === 401) {
      clearSession();
      return { kind: 'sign-in', message: SIGN_IN_AGAIN };
    }
    // Changed in another tab meanwhile (the line gone): show the cart as it is now.
    if (status === 404) void loadCart();
    // 'Only 8 left of …', or out of stock: the API's own words.
    if (status === 409 || status === 429) return { kind: 'failed', message: apiErrorMessage(error, ADD_FAILED) };
    return { kind: 'failed', message: `Could not change the quantity of ${name}. Please try again.` };
  }
}
