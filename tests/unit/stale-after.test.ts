import { describe, expect, it } from 'vitest';
import { CATALOGUE_TAG, isStaleBy, LISTINGS_TAG, listingTags, productTag, staleAfter } from '../../src/server/cache/stale-after.ts';

describe('staleAfter', () => {
  const productPage = [productTag(5)];
  const listingOf5 = listingTags([5, 7]);
  const listingOf8 = listingTags([8]);
  const brands = [CATALOGUE_TAG];

  it('a review makes stale its product, wherever it is shown, and nothing else', () => {
    const stale = staleAfter.reviewAdded(5);
    expect(isStaleBy(productPage, stale)).toBe(true);
    expect(isStaleBy(listingOf5, stale)).toBe(true);
    expect(isStaleBy(listingOf8, stale)).toBe(false);
    expect(isStaleBy([productTag(50)], stale)).toBe(false);
    expect(isStaleBy(brands, stale)).toBe(false);
  });

  it('a change of stock makes stale its products and every listing, not the brands', () => {
    const stale = staleAfter.shelfChanged([5, 6]);
    expect(isStaleBy(productPage, stale)).toBe(true);
    expect(isStaleBy([productTag(6)], stale)).toBe(true);
    expect(isStaleBy([productTag(7)], stale)).toBe(false);
    expect(isStaleBy(listingOf8, stale)).toBe(true);
    expect(isStaleBy(brands, stale)).toBe(false);
  });

  it('an import makes everything stale', () => {
    const stale = staleAfter.catalogueImported();
    for (const tags of [productPage, listingOf8, brands, []]) expect(isStaleBy(tags, stale)).toBe(true);
  });

  it("'all' makes everything stale; no tags, nothing", () => {
    for (const tags of [productPage, listingOf8, brands, []]) {
      expect(isStaleBy(tags, 'all')).toBe(true);
      expect(isStaleBy(tags, [])).toBe(false);
    }
  });

  it('a listing carries the listings tag and each of its products', () => {
    expect(listingTags([5, 7])).toEqual([LISTINGS_TAG, 'product:5', 'product:7']);
  });
});
