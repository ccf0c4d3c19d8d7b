// Scripts a page must run inline, before it is painted. Astro makes no CSP hash for `is:inline` scripts, so
// astro.config.mjs adds these hashes to the policy of every page (security.csp.scriptDirective.hashes), and the
// components render them with `<script is:inline set:html={…}>` so the text hashed is the text sent.
import { createHash } from 'node:crypto';
import { urls } from '../urls.ts';

/** SPEC §4: signed in or not is the stored user; `<html data-auth>` shows one state before the header paints. */
export const SHOW_AUTH_STATE = "try { if (localStorage.getItem('user') !== null) document.documentElement.dataset.auth = 'in'; } catch {}";

/** SPEC §6: a protected page sends a visitor with no stored user to sign in, and back here afterwards. */
export const SEND_SIGNED_OUT_TO_LOGIN =
  `try { if (localStorage.getItem('user') === null) location.replace(${JSON.stringify(urls.login())} + '?next=' + ` +
  `encodeURIComponent(location.pathname + location.search)); } catch { location.replace(${JSON.stringify(urls.login())}); }`;

/** SPEC §2: password recovery goes home when a user is already stored. */
export const SEND_SIGNED_IN_HOME = `try { if (localStorage.getItem('user')) location.replace(${JSON.stringify(urls.home())}); } catch {}`;

export const INLINE_SCRIPTS = [SHOW_AUTH_STATE, SEND_SIGNED_OUT_TO_LOGIN, SEND_SIGNED_IN_HOME];

export function cspHash(script: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(script).digest('base64')}`;
}
