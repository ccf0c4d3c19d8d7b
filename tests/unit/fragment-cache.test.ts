import { describe, expect, it } from 'vitest';
import { escapeAttribute, FragmentCache } from '../../src/lib/server/fragment-cache.ts';

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
