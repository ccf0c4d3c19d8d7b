// The coupon the shopper applied in the cart (issue 25), kept like the cart itself: it carries to the checkout and
// across reloads. Only its code is kept; what it takes off is always the server's answer (?coupon= on the cart).
// Signing out clears localStorage, and it with it.
import { persistentAtom } from '@nanostores/persistent';

/** The applied code, upper case; '' when none. */
export const $couponCode = persistentAtom<string>('coupon', '');

export const applyCoupon = (code: string) => $couponCode.set(code.trim().toUpperCase());
export const removeCoupon = () => $couponCode.set('');
