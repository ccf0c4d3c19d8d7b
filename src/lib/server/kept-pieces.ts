// Pieces of pages rendered once and then kept (src/components/KeptPiece.astro). Measured after the pages began reading
// the services in process: without them a cache-miss product page cost 2.9 ms of CPU against 2.0 ms with them, most
// of it its ten related cards (a listing's 24); measured again in issue 33, without them a cache-miss product page
// served 186 requests/s against 240–291 (`npm run bench -- --cache-miss`). A piece's key holds everything it shows, so
// a change of price, stock or name is another key; the pieces are kept on the shop's tagged cache, which the bus empties
// of a changed product's cards (src/server/runtime.ts keptPiecesFor), so an old card does not wait for the LRU to go.

/**
 * Stands for the address of the page a piece is shown on while the piece is rendered once for every page; each page
 * puts its own address in its place (where the wishlist heart's sign-in comes back to).
 */
export const PAGE_ADDRESS_PLACEHOLDER = '/__kirana_page_address__';

/**
 * A product as a piece's key: all of it, written out once per object. The read cache hands every page the same object
 * until the product changes, and writing out a product with its packs and pictures was a search page's largest cost
 * after rendering (20 cards, 0.09 ms of CPU each).
 */
const productKeys = new WeakMap<object, string>();
export function productKey(product: object): string {
  let key = productKeys.get(product);
  if (key === undefined) {
    key = JSON.stringify(product);
    productKeys.set(product, key);
  }
  return key;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** The escaping Astro gives an attribute's value. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>'"]/g, (c) => ENTITIES[c]!);
}

/** The piece with this page's address in place of PAGE_ADDRESS_PLACEHOLDER. */
export function withPageAddress(html: string, pageAddress: string): string {
  if (!html.includes(PAGE_ADDRESS_PLACEHOLDER)) return html;
  const escaped = escapeAttribute(pageAddress);
  // A function, so that '$&' or '$`' in an address is text, not a replacement pattern.
  return html.replaceAll(PAGE_ADDRESS_PLACEHOLDER, () => escaped);
}

/**
 * The piece as it may be shown on any page: without what Astro put in it because it was the first island of the page
 * it was rendered on (the islands' style, their loader and the `client:interaction` directive). Every page's header
 * has islands of its own that bring them (src/components/Header.astro: the search box, the brand menu), and a
 * component's own styles are in the page's head, so a piece has no other script or style.
 */
export function keepable(html: string): string {
  return html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
}

/** The components whose pieces are kept; none may have a <script> of its own (tests/unit/kept-pieces.test.ts). */
export const KEPT_COMPONENTS = ['src/components/ProductCard.astro', 'src/components/Footer.astro'];
