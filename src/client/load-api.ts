// The browser's calls made without the API client (issue 33: the one exception to "every call through ky", see
// src/client/api.ts): ky and the session hooks are 13 KB gzip, past the 20 KB budget of JavaScript before the first
// interaction (DESIGN.md), and on a slow phone loading them first puts a first answer seconds later. So the calls a page
// makes as it loads (the cart for the badge, steppers and cart bar; the wishlist's hearts; the delivery PIN), the first
// suggestions, and a first add or heart pressed before the client has loaded (src/client/cart-controller.ts) are plain
// fetch, here and nowhere else, with the API base, token and key of src/lib. A call that needs more (no token, one
// expiring, a 401, a fault, no network) is left to the full client, which refreshes the token and retries.
import type { KyInstance, Options } from 'ky';
import { apiBaseUrl } from '../lib/api/base-url.ts';
import type { Suggestion } from '../lib/api/types.ts';
import { storedToken } from '../lib/auth-state.ts';
import { expiresWithin, readToken } from '../lib/auth/token.ts';

let clientLoaded = false;
/** ./api.ts says it has loaded: from then on every call goes through it. */
export const noteClientLoaded = () => void (clientLoaded = true);
export const isClientLoaded = () => clientLoaded;

/** The stored token when it is good for a while yet. */
function freshToken(): string | undefined {
  const token = storedToken();
  const claims = readToken(token);
  return token && claims && !expiresWithin(claims) ? token : undefined;
}

/** A plain GET of the API's JSON; `signed` carries the fresh token (none: undefined). Throws when it fails. */
export async function getWithoutClient<T>(path: string, init: { signed?: boolean; signal?: AbortSignal | undefined } = {}): Promise<T> {
  const token = init.signed ? freshToken() : undefined;
  if (init.signed && !token) throw new Error('no fresh token');
  const response = await fetch(new URL(path, apiBaseUrl()), { signal: init.signal ?? null, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`GET ${path} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * A signed POST with a fresh token and, for a cart write, its Idempotency-Key. The answer's JSON; undefined when there
 * is no fresh token, the API refused, or no answer came (the caller hands it to the full client, with the same key).
 */
export async function postWithoutClient<T>(path: string, body: unknown, key?: string): Promise<T | undefined> {
  const token = freshToken();
  if (!token) return undefined;
  try {
    const response = await fetch(new URL(path, apiBaseUrl()), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
      body: JSON.stringify(body),
    });
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The API's suggestions for a normalized query; a failure throws (the search box logs it and shows none). */
export const suggestionsWithoutClient = (query: string, signal?: AbortSignal) =>
  getWithoutClient<Suggestion[]>(`app/Products/SearchProducts/${encodeURIComponent(query)}`, { signal });

async function getAtLoad(path: string, options: Options): Promise<unknown> {
  try {
    return await getWithoutClient(path, { signed: true });
  } catch {
    // No fresh token, no network, a refusal: the full client below tries again and reports it.
  }
  const { browserApi } = await import('./api.ts');
  return browserApi.get(path, options).json();
}

/**
 * For the typed reads of src/lib/api/ a page makes as it loads (`cartCalls(atLoad).cart`, `wishlistCalls(atLoad).ids`):
 * only `get(path, options).json()` is there.
 */
export const atLoad = { get: (path: string, options: Options = {}) => ({ json: () => getAtLoad(path, options) }) } as unknown as KyInstance;
