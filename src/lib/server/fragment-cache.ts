// Rendered pieces of pages, kept for the next page that shows the same piece (issue 12: a page the page cache has
// not kept must still be fast). Profiled under load, a product page spent a third of its CPU on its ten related
// cards and another seventh on the header and footer, which are the same on every page. A piece is kept as Astro
// renders it before it becomes page text (a slot string: the HTML with its render instructions), so the hydration
// scripts of the islands inside it and the scripts of its components still go out once per page, wherever it lands.
import type { SSRResult } from 'astro';
import {
  createComponent,
  renderComponent,
  renderSlotToString,
  renderTemplate,
  type AstroComponentFactory,
} from 'astro/runtime/server/index.js';

/**
 * Stands for the address of the page a piece is shown on while the piece is rendered once for every page; each page
 * puts its own address in its place (e.g. where the wishlist heart's sign-in comes back to).
 */
export const PAGE_ADDRESS_PLACEHOLDER = '/__kirana_page_address__';

/** What a kept piece costs in memory: its text twice (content and ordered chunks) and its key, at two bytes a char. */
const sizeOf = (key: string, text: string) => 2 * (key.length + 2 * text.length);

interface SlotStringParts {
  instructions: unknown;
  chunks: unknown[];
}

/** Kept pieces by key, the least recently used dropped first once they take more than `maxBytes`. */
export class FragmentCache<Fragment extends string = string> {
  readonly #entries = new Map<string, { fragment: Fragment; bytes: number }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get size() {
    return this.#entries.size;
  }

  get bytes() {
    return this.#bytes;
  }

  get(key: string): Fragment | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: a Map keeps insertion order, so the first entries are the ones to drop.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.fragment;
  }

  set(key: string, fragment: Fragment) {
    const bytes = sizeOf(key, String(fragment));
    if (bytes > this.#maxBytes) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#bytes -= previous.bytes;
    }
    this.#entries.set(key, { fragment, bytes });
    this.#bytes += bytes;
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= old.bytes;
    }
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** The escaping Astro gives an attribute's value. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>'"]/g, (c) => ENTITIES[c]!);
}

/** The same slot string with the page's address in place of PAGE_ADDRESS_PLACEHOLDER. */
export function withPageAddress(fragment: string, pageAddress: string): string {
  if (!String(fragment).includes(PAGE_ADDRESS_PLACEHOLDER)) return fragment;
  const escaped = escapeAttribute(pageAddress);
  const { instructions, chunks } = fragment as unknown as SlotStringParts;
  const SlotString = fragment.constructor as new (content: string, instructions: unknown, chunks: unknown[]) => string;
  // A function, so that '$&' or '$`' in an address is text, not a replacement pattern.
  const put = (text: string) => text.replaceAll(PAGE_ADDRESS_PLACEHOLDER, () => escaped);
  return new SlotString(put(String(fragment)), instructions, chunks.map((chunk) => (typeof chunk === 'string' ? put(chunk) : chunk)));
}

export interface CachedComponentOptions<Props> {
  /** Everything the piece shows, as one string: props that give the same key must render the same piece. */
  key: (props: Props) => string;
  /** The address of the page being rendered, for a component that takes it as its `pageAddress` prop. */
  pageAddress?: (props: Props) => string;
  cache: FragmentCache;
}

/**
 * `Component`, rendered once for each key and then taken from `cache`. Used in a template like the component itself.
 * The component must render the same for the same key, whatever the request: nothing from Astro.url or the session,
 * and no island inside it may use React's useId (a kept island keeps the id prefix of the page it was first on).
 * In `astro dev` nothing is kept, so an edited component or setting shows at once.
 */
export function cachedComponent<Props extends Record<string, unknown>>(
  displayName: string,
  Component: AstroComponentFactory,
  { key: keyOf, pageAddress, cache }: CachedComponentOptions<Props>,
): AstroComponentFactory {
  return createComponent(async (result: SSRResult, props: Props) => {
    if (import.meta.env.DEV) return renderTemplate`${renderComponent(result, displayName, Component, props)}`;
    const key = keyOf(props);
    let fragment = cache.get(key);
    if (fragment === undefined) {
      const rendered = pageAddress ? { ...props, pageAddress: PAGE_ADDRESS_PLACEHOLDER } : props;
      // As a compiled template renders a child component in a slot.
      fragment = await renderSlotToString(result, () => renderTemplate`${renderComponent(result, displayName, Component, rendered)}`);
      cache.set(key, fragment);
    }
    // Astro renders the returned slot string like a slot's content (its instructions, then its text).
    return (pageAddress ? withPageAddress(fragment, pageAddress(props)) : fragment) as never;
  });
}
