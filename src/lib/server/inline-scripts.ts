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

/**
 * Issue 26: the browser's data saver or a 2G connection marks `<html data-saving>`, and the pictures of a rail below the
 * first screen (`.rail-below`) wait to be scrolled to: each one's src and srcset are set aside as the page is parsed
 * (a lazy picture is not fetched before layout) and put back when it comes within 200 px of the screen. On 2G Chromium
 * fetches lazy pictures thousands of pixels ahead, and `content-visibility` did not stop it (measured).
 */
export const MARK_SAVING_DATA =
  "try{var c=navigator.connection;if(c&&(c.saveData||/2g$/.test(c.effectiveType))){var d=document,o=new IntersectionObserver(" +
  "function(es){es.forEach(function(e){var i=e.target;e.isIntersecting&&(o.unobserve(i),i.srcset=i.dataset.srcset,i.src=i.dataset.src)})}," +
  "{rootMargin:'200px'});d.documentElement.dataset.saving='';new MutationObserver(function(ms){ms.forEach(function(m){" +
  "m.addedNodes.forEach(function(i){i.loading=='lazy'&&i.closest('.rail-below')&&(i.dataset.src=i.src,i.dataset.srcset=i.srcset," +
  "i.removeAttribute('srcset'),i.removeAttribute('src'),o.observe(i))})})}).observe(d,{childList:!0,subtree:!0})}}catch(x){}";

/**
 * Issues 26 and 33: a signed-in shopper's 'Add to cart', stepper or heart pressed before src/client/cart-controller.ts
 * has started would follow the no-JavaScript form to /login; held here from the first paint with the marks that file
 * names (PRESS): busy at once, the press kept on the form for the controller to take when it starts; a '+' or 'Add to
 * cart' pressed while busy counted in data-more, to be sent after. Once started, the controller takes every press
 * before this listener sees it. Signed out it leaves the press to the form (the controller keeps the choice).
 */
export const HOLD_EARLY_ADD =
  "document.addEventListener('submit',function(e){var f=e.target,b=e.submitter,a='setAttribute',d='data-early-busy'," +
  "h=f.matches('form[data-heart-form]');if(e.defaultPrevented||!(h||f.matches('form[data-add-to-cart]')))return;" +
  "try{if(localStorage.getItem('user')===null)return}catch(x){return}e.preventDefault();" +
  "if(f.hasAttribute(d)){if(!h&&(!b||b.value!='-1'))f[a]('data-more',-~f.getAttribute('data-more'));return}" +
  "f[a](d,'');f[a]('aria-busy','true');f.querySelectorAll('button[type=submit]:not([aria-disabled=true])').forEach(function(n){" +
  "n[a]('aria-disabled','true');n[a](d,'')});f[a](h?'data-pending-heart':'data-pending-add',b&&b.getAttribute('value')||'')})";

export const INLINE_SCRIPTS = [SHOW_AUTH_STATE, SEND_SIGNED_OUT_TO_LOGIN, SEND_SIGNED_IN_HOME, MARK_SAVING_DATA, HOLD_EARLY_ADD];

export function cspHash(script: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(script).digest('base64')}`;
}
