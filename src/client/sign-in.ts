// After signing in or registering: keep the session (SPEC §3 keys) and go back where the shopper was going.
import type { SessionDto } from '../server/account-schemas.ts';
import { $user, saveSession } from '../stores/auth.ts';
import { carryNotice } from '../lib/carried-notice.ts';
import { safeNextPath, urls } from '../lib/urls.ts';

function nextParam(): string | null {
  return new URLSearchParams(window.location.search).get('next');
}

/** Links between the sign-in and register pages carry ?next= along. */
export function keepNext() {
  const next = safeNextPath(nextParam());
  if (next === '/') return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-next]')) {
    const url = new URL(link.href);
    url.searchParams.set('next', next);
    link.href = `${url.pathname}${url.search}`;
  }
}

export function signedInGoNext(session: SessionDto) {
  saveSession(session);
  window.location.assign(safeNextPath(nextParam()));
}

/**
 * /login or /register opened while signed in (issue 24): not the form again, but on to `next` (My Account without
 * one), where a toast says who is signed in. True when it is leaving.
 */
export function goOnIfSignedIn(): boolean {
  const user = $user.get();
  if (!user) return false;
  carryNotice({ kind: 'success', text: `You are signed in as ${user.name}.` });
  const next = nextParam();
  window.location.replace(next ? safeNextPath(next) : urls.myAccount());
  return true;
}
