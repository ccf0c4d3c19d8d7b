// The styles of the header's menus and the phone's drawer when open (src/styles/menus.css), as a cached file rather
// than in every page's HTML (issue 24: a product page's HTML under 15 KB on the wire). Asked for once the page is
// idle, or at the shopper's first interaction if that comes first, so they are there before a menu opens; a menu
// opened before they arrive (a very slow connection) shows the browser's plain list for that moment. Without
// JavaScript no menu opens: the header's links and <noscript> links stand in for them. The signed-in header asks at
// once (`now`): the phone's cart bar is styled there too, and shows when both it and the cart have arrived.
import menusHref from '../styles/menus.css?url';

const FIRST_INTERACTIONS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

export function loadMenuStyles({ now = false } = {}): void {
  const load = () => {
    for (const type of FIRST_INTERACTIONS) document.removeEventListener(type, load, true);
    if (document.querySelector('link[data-menu-styles]')) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = menusHref;
    link.dataset.menuStyles = '';
    document.head.append(link);
  };
  if (now) return load();
  for (const type of FIRST_INTERACTIONS) document.addEventListener(type, load, { capture: true, passive: true });
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(load, { timeout: 2000 }) : setTimeout(load, 200));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
