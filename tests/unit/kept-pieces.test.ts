// Pieces of pages rendered once and kept (src/lib/server/kept-pieces.ts, src/components/KeptPiece.astro).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeAttribute, keepable, KEPT_COMPONENTS, PAGE_ADDRESS_PLACEHOLDER, withPageAddress } from '../../src/lib/server/kept-pieces.ts';
import { inProcessBus } from '../../src/server/cache/invalidation-bus.ts';
import { productTag } from '../../src/server/cache/stale-after.ts';
import { keptPiecesFor } from '../../src/server/runtime.ts';

describe('a kept piece', () => {
  it('loses the islands prelude Astro put in it on the page it was first rendered on, and nothing else', () => {
    const first =
      '<article><style>astro-island,astro-slot{display:contents}</style><script>(()=>{var a=1})();</script>' +
      '<script>(()=>{window.Astro.interaction=1})();</script><astro-island uid="Z1" props="{}"><button>Add</button></astro-island></article>';
    expect(keepable(first)).toBe('<article><astro-island uid="Z1" props="{}"><button>Add</button></astro-island></article>');
  });

  it("takes each page's address in place of the placeholder, escaped as Astro escapes an attribute", () => {
    const piece = `<input type="hidden" name="next" value="${PAGE_ADDRESS_PLACEHOLDER}#add-to-wishlist-7">`;
    expect(withPageAddress(piece, '/shop?type=brand&id=3')).toBe('<input type="hidden" name="next" value="/shop?type=brand&amp;id=3#add-to-wishlist-7">');
    expect(withPageAddress(piece, '/search?name=$&"')).toContain('value="/search?name=$&amp;&quot;#add-to-wishlist-7"');
    expect(escapeAttribute(`<'>`)).toBe('&lt;&#39;&gt;');
  });

  it('is made of components with no script of their own, which keepable would drop from every page but the first', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/<script\b/);
      for (const [, imported] of source.matchAll(/^import \w+ from '(\.[^']+\.astro)';$/gm)) visit(path.resolve(path.dirname(file), imported!));
    };
    for (const component of KEPT_COMPONENTS) visit(path.resolve(component));
    expect(seen.size).toBeGreaterThan(1);
  });

  it("goes when a write makes its product stale (the shop's bus, as every other cache), and a piece rendered before that write is not kept", async () => {
    const bus = inProcessBus(() => {});
    const pieces = keptPiecesFor(bus);
    pieces.set('card 1', '<article>1</article>', [productTag(1)], pieces.mark());
    pieces.set('card 2', '<article>2</article>', [productTag(2)], pieces.mark());
    const renderBegan = pieces.mark();
    await bus.publish([productTag(1)]);
    expect(pieces.get('card 1')).toBeUndefined();
    expect(pieces.get('card 2')).toBe('<article>2</article>');
    expect(pieces.set('card 1', '<article>old 1</article>', [productTag(1)], renderBegan)).toBe(false);
    expect(pieces.get('card 1')).toBeUndefined();
  });
});
