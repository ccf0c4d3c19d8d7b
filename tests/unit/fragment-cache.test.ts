import { describe, expect, it } from 'vitest';
import { escapeAttribute, FragmentCache, PAGE_ADDRESS_PLACEHOLDER, withPageAddress } from '../../src/lib/server/fragment-cache.ts';

describe('FragmentCache', () => {
  it('answers what was kept under a key, and nothing for another key', () => {
    const cache = new FragmentCache(1024);
    cache.set('card 1', '<article>1</article>');
    expect(cache.get('card 1')).toBe('<article>1</article>');
    expect(cache.get('card 2')).toBeUndefined();
  });

  it('drops the least recently used pieces once they pass its bound', () => {
    // Each piece: key of 6 chars and 20 chars of text, 2 × (6 + 2 × 20) = 92 bytes.
    const cache = new FragmentCache(300);
    for (const n of [1, 2, 3]) cache.set(`card ${n}`, `<article>${n}</article>`.padEnd(20));
    expect(cache.size).toBe(3);
    cache.get('card 1');
    cache.set('card 4', '<article>4</article>'.padEnd(20));
    expect(cache.bytes).toBeLessThanOrEqual(300);
    expect(cache.get('card 2')).toBeUndefined();
    expect(cache.get('card 1')).toBeDefined();
    expect(cache.get('card 4')).toBeDefined();
  });

  it('keeps one piece for a key set again, counted once', () => {
    const cache = new FragmentCache(1024);
    cache.set('header', '<header>old</header>');
    const bytes = cache.bytes;
    cache.set('header', '<header>new</header>');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(bytes);
    expect(cache.get('header')).toBe('<header>new</header>');
  });

  it('does not keep a piece larger than its whole bound', () => {
    const cache = new FragmentCache(100);
    cache.set('big', 'x'.repeat(1000));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

describe('escapeAttribute', () => {
  it("escapes a page address as Astro escapes an attribute's value", () => {
    expect(escapeAttribute(`/search?name=dal&x="a'<b>`)).toBe('/search?name=dal&amp;x=&quot;a&#39;&lt;b&gt;');
  });
});

/** Stands in for Astro's SlotString: the text, the instructions rendered before it, and its ordered chunks. */
class FakeSlotString extends String {
  readonly instructions: unknown;
  readonly chunks: unknown[];
  constructor(content: string, instructions: unknown, chunks: unknown[]) {
    super(content);
    this.instructions = instructions;
    this.chunks = chunks;
  }
}

describe('withPageAddress', () => {
  const input = `<input type="hidden" name="next" value="${PAGE_ADDRESS_PLACEHOLDER}#add-to-wishlist-7">`;
  const directive = { type: 'directive' };
  const script = { type: 'script', id: 'x' };

  it("puts the page's address, escaped, in place of the placeholder, keeping the instructions and script chunks", () => {
    const fragment = new FakeSlotString(input, [directive], ['<article>', input, script]) as unknown as string;
    const placed = withPageAddress(fragment, '/shop?type=category&id=rice') as unknown as FakeSlotString;
    const expected = '<input type="hidden" name="next" value="/shop?type=category&amp;id=rice#add-to-wishlist-7">';
    expect(String(placed)).toBe(expected);
    expect(placed).toBeInstanceOf(FakeSlotString);
    expect(placed.instructions).toEqual([directive]);
    expect(placed.chunks).toEqual(['<article>', expected, script]);
    // The kept piece itself is untouched, for the next page.
    expect(String(fragment)).toBe(input);
  });

  it("takes '$' in an address as text, not as a replacement pattern", () => {
    const fragment = new FakeSlotString(input, null, [input]) as unknown as string;
    const placed = withPageAddress(fragment, '/search?name=a$&b=$`x$$');
    expect(String(placed)).toBe('<input type="hidden" name="next" value="/search?name=a$&amp;b=$`x$$#add-to-wishlist-7">');
  });

  it('gives back the same piece when it names no page', () => {
    const fragment = new FakeSlotString('<footer></footer>', null, []) as unknown as string;
    expect(withPageAddress(fragment, '/x')).toBe(fragment);
  });
});
