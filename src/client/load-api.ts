// The calls a signed-in page makes as it loads (the cart for the badge, steppers and cart bar; the wishlist's hearts),
// without ky: ky and the session hooks are 13 KB gzip, past the 20 KB budget of JavaScript before the first
// interaction (DESIGN.md). A GET with a stored token that is not about to expire is a plain fetch; anything else (no
// token, one expiring, a 401, a fault, no network) goes through the full client (./api.ts), loaded then, which
// refreshes the token and retries as every other call does.
import type { KyInstance, Options } from 'ky';
import { cartCalls } from '../lib/api/account.ts';
import { apiBaseUrl } from '../lib/api/base-url.ts';
import { wishlistCalls } from '../lib/api/wishlist.ts';
import { expiresWithin, readToken } from '../lib/auth/token.ts';
import { sessionStore } from '../stores/auth.ts';

async function getAtLoad(path: string, options: Options): Promise<unknown> {
  const token = sessionStore.token();
  const claims = readToken(token);
  if (token && claims && !expiresWithin(claims)) {
    try {
      const response = await fetch(new URL(path, apiBaseUrl()), { headers: { Authorization: `Bearer ${token}` } });
      if (response.ok) return await response.json();
    } catch {
      // No network or a body that did not parse: the full client below tries again and reports it.
    }
  }
  const { browserApi } = await import('./api.ts');
  return browserApi.get(path, options).json();
}

// Only `get(path, options).json()` is used by the calls below: the typed paths stay in src/lib/api/.
const loadApi = { get: (path: string, options: Options = {}) => ({ json: () => getAtLoad(path, options) }) } as unknown as KyInstance;

export const cartAtLoad = cartCalls(loadApi);
export const wishlistAtLoad = wishlistCalls(loadApi);
