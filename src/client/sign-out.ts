// SPEC §4 sign out: revoke the refresh token, clear local storage, go to /login.
import { browserAccount } from './api.ts';
import { $refreshToken, clearSession } from '../stores/auth.ts';
import { urls } from '../lib/urls.ts';

export async function signOut() {
  const refreshToken = $refreshToken.get();
  try {
    if (refreshToken) await browserAccount.logout(refreshToken);
  } catch (error) {
    // Signing out here still happens; the token expires on its own.
    console.error('Cannot revoke the session on the server', error);
  }
  clearSession();
  try {
    localStorage.clear();
  } catch {
    // Storage blocked: nothing was kept there either.
  }
  window.location.assign(urls.login());
}
