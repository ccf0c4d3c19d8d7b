// The header and footer, the same on every page, each rendered once and then kept (src/lib/server/fragment-cache.ts).
// Product cards are kept by cached-card.ts: a module of their own, since a page takes in the styles of every
// component its modules import.
import { cachedComponent, FragmentCache } from '../lib/server/fragment-cache.ts';
// Header first: a page's styles follow the order of its imports, as when Base.astro imported them itself.
import Header from './Header.astro';
import Footer from './Footer.astro';

/** Two pieces; the bound is only there to say so. */
const fragments = new FragmentCache(1024 * 1024);

/** The header and the footer show only the shop's settings, which are the build's own. */
export const CachedHeader = cachedComponent('Header', Header, { key: () => 'header', cache: fragments });
export const CachedFooter = cachedComponent('Footer', Footer, { key: () => `footer ${new Date().getFullYear()}`, cache: fragments });
