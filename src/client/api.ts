// The API client of islands and page scripts (browser only): ONE ky instance with the session hooks
// (src/lib/api/session-hooks.ts), so every call carries the bearer token and survives an expired one.
import ky from 'ky';
import { sessionStore } from '../stores/auth.ts';
import { resolveApiBaseUrl } from '../lib/api/base-url.ts';
import { accountCalls, cartCalls } from '../lib/api/account.ts';
import { catalogue } from '../lib/api/catalogue.ts';
import { checkoutCalls } from '../lib/api/checkout.ts';
import { orderCalls } from '../lib/api/orders.ts';
import { withSession } from '../lib/api/session-hooks.ts';
import { wishlistCalls } from '../lib/api/wishlist.ts';
import { feedback } from '../lib/api/feedback.ts';
import { isProtectedPage } from '../lib/auth-state.ts';
import { carryNotice } from '../lib/carried-notice.ts';
import { noteClientLoaded } from './load-api.ts';

// Islands are also rendered on the server, where there is no `location`; they never call the API
// there, so a placeholder origin keeps the module loadable.
const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;

const plainApi = ky.create({
  baseUrl: resolveApiBaseUrl(import.meta.env.PUBLIC_API_URL, origin),
  timeout: 10_000,
  // Failed GETs are retried; a forced retry after a token refresh (any method) also counts against this limit.
  retry: { limit: 2, methods: ['get'] },
});

export const SESSION_ENDED_TEXT = 'Your session ended; please sign in again.';

/**
 * A refused token refresh signs the shopper out (SPEC §8 only logs it): they are told in a toast, here, or on /login
 * when this is a protected page, which goes there the moment the session is cleared.
 */
function sayTheSessionEnded() {
  if (isProtectedPage()) carryNotice({ kind: 'error', text: SESSION_ENDED_TEXT });
  else void import('../lib/toast.ts').then((toasts) => toasts.toastError(SESSION_ENDED_TEXT));
}

noteClientLoaded();

export const browserApi = withSession(plainApi, sessionStore, { onRefused: sayTheSessionEnded });

export const browserCatalogue = catalogue(browserApi);
export const browserAccount = accountCalls(browserApi);
export const browserCart = cartCalls(browserApi);
export const browserCheckout = checkoutCalls(browserApi);
export const browserOrders = orderCalls(browserApi);
export const browserWishlist = wishlistCalls(browserApi);
/** A signed-in shopper's review goes with their token (issue 24); a signed-out one's through lib/api/anonymous.ts. */
export const browserFeedback = feedback(browserApi);
