// After signing in or registering: keep the session (SPEC §3 keys) and go back where the shopper was going.
import type { SessionDto } from '../server/account-schemas.ts';
import { saveSession } from '../stores/auth.ts';
import { safeNextPath } from '../lib/urls.ts';

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
