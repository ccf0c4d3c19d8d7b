// Signed in or not, for the header, footer and drawer, from localStorage alone (no framework, no API call):
// `<html data-auth="in">` shows the [data-signed-in-only] parts and hides the [data-signed-out-only] ones
// (src/styles/global.css). An inline script in Header.astro sets it before the header paints.

/** What localStorage holds for the session (SPEC §3), read without the stores (src/stores/auth.ts keeps the same keys). */
function stored(key: 'token' | 'userid'): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The stored access token, for the calls made without the API client (src/client/load-api.ts). */
export const storedToken = () => stored('token');
/** The stored shopper's id, as `userid` keeps it. */
export const storedUserId = () => stored('userid');

/** SPEC §4: pages go by the presence of the stored user. */
export function hasStoredUser(): boolean {
  try {
    return localStorage.getItem('user') !== null;
  } catch {
    return false;
  }
}

export function showAuthState(signedIn: boolean = hasStoredUser()): boolean {
  if (signedIn) document.documentElement.dataset.auth = 'in';
  else delete document.documentElement.dataset.auth;
  return signedIn;
}

/** The page is one of SPEC §6's protected routes (src/layouts/ProtectedPage.astro marks it). */
export function isProtectedPage(): boolean {
  return document.querySelector('[data-protected-page]') !== null;
}
