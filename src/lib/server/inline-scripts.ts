// Scripts a page must run inline, before it is painted. Astro makes no CSP hash for `is:inline` scripts, so
// astro.config.mjs adds these hashes to the policy of every page (security.csp.scriptDirective.hashes).
import { createHash } from 'node:crypto';

/** SPEC §2: Sign In shows only when no user is stored (the user entry lives in localStorage). */
export const HIDE_SIGN_IN_WHEN_SIGNED_IN =
  "try { if (localStorage.getItem('user')) document.querySelectorAll('[data-signed-out-only]').forEach((el) => el.remove()); } catch {}";

export const INLINE_SCRIPTS = [HIDE_SIGN_IN_WHEN_SIGNED_IN];

export function cspHash(script: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(script).digest('base64')}`;
}
