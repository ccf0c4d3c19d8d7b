// The words of a listing's sort and filters (src/lib/listing.ts) and the URLs built with them (src/lib/urls.ts).
import { describe, expect, it } from 'vitest';
import {
  asksForRefinement,
  hasFilters,
  refined,
  refinementFromParams,
  refinementParams,
  toggledBrand,
  withoutFilters,
} from '../../src/lib/listing.ts';
import { cardDiscount, discountLabel } from '../../src/lib/discount.ts';
import { urls } from '../../src/lib/urls.ts';

const params = (query: string) => new URLSearchParams(query);

describe('refinementFromParams', () => {
  it('reads the sort and filters in one canonical form: brands sorted, once each', () => {
    expect(refinementFromParams(params('price=100-250&brand=9&sort=discount&brand=3&brand=9&instock=1&food=veg'))).toEqual({
      sort: 'discount',
      brandIds: [3, 9],
      food: 'veg',
      inStock: true,
      price: '100-250',
    });
  });

  it('is undefined for the plain listing, relevance included', () => {
    expect(refinementFromParams(params('type=hot&page=2'))).toBeUndefined();
    expect(refinementFromParams(params('sort=relevance&instock=0'))).toBeUndefined();
  });

  it('leaves out what it does not know, and brands past ten', () => {
    expect(refinementFromParams(params('sort=cheap&food=vegan&price=1-2&brand=0&brand=x&brand=12345678901'))).toBeUndefined();
    const many = Array.from({ length: 12 }, (_, i) => `brand=${i + 1}`).join('&');
    expect(refinementFromParams(params(many))?.brandIds).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('says whether a URL asks for any, known or not (such a page is not indexed)', () => {
    expect(asksForRefinement(params('type=hot&page=2'))).toBe(false);
    expect(asksForRefinement(params('type=hot&sort=bogus'))).toBe(true);
  });
});

describe('changing a refinement', () => {
  const r = refinementFromParams(params('sort=price-asc&brand=4&food=egg'));
  it('toggles a brand, keeps the sort when filters are cleared, and drops to undefined when nothing is left', () => {
    expect(toggledBrand(r, 2)?.brandIds).toEqual([2, 4]);
    expect(toggledBrand(r, 4)?.brandIds).toBeUndefined();
    expect(withoutFilters(r)).toEqual({ sort: 'price-asc' });
    expect(hasFilters(withoutFilters(r))).toBe(false);
    expect(refined(withoutFilters(r), { sort: 'relevance' })).toBeUndefined();
  });

  it('writes the parameters in one order, whatever order they were given in', () => {
    expect(refinementParams(refined(r, { price: '500-', inStock: true }))).toEqual([
      ['sort', 'price-asc'],
      ['brand', '4'],
      ['food', 'egg'],
      ['instock', '1'],
      ['price', '500-'],
    ]);
  });
});

describe('listing URLs', () => {
  it('put the sort and filters after the listing’s own parameters, the page last', () => {
    const r = refinementFromParams(params('brand=7&sort=popular'));
    expect(urls.category('dairy-eggs', 2, r)).toBe('/shop?type=category&id=dairy-eggs&sort=popular&brand=7&page=2');
    expect(urls.hot(1, r)).toBe('/shop?type=hot&sort=popular&brand=7');
    expect(urls.brand(3, undefined, { price: '0-100' })).toBe('/shop?type=brand&id=3&price=0-100');
    expect(urls.search('green tea', 3, { inStock: true })).toBe('/search?name=green%20tea&instock=1&page=3');
    // Unchanged without them.
    expect(urls.hot(2)).toBe('/shop?type=hot&page=2');
  });
});

describe('cardDiscount', () => {
  const product = { type: 'normal', pricePaise: 8600, mrpPaise: 10_000, productVariants: [] };
  const pack = (id: number, salesPricePaise: number, mrpPaise: number) => ({
    id,
    productsId: 1,
    name: `${id} kg`,
    productVariantPrice: { id, productVariantsId: id, salesPrice: salesPricePaise / 100, mrp: mrpPaise / 100, salesPricePaise, mrpPaise },
    unitPrice: null,
    inStock: true,
    imageUrl: null,
  });

  it("says a plain product's percent off, floored; nothing when nothing is off", () => {
    expect(discountLabel(cardDiscount(product)!)).toBe('14% OFF');
    expect(cardDiscount({ ...product, mrpPaise: 8600 })).toBeNull();
    expect(cardDiscount({ ...product, mrpPaise: 0 })).toBeNull();
  });

  it('says the best of the pack sizes, as "Up to" when they differ', () => {
    const packs = { ...product, type: 'variant', productVariants: [pack(1, 9000, 10_000), pack(2, 8000, 10_000)] };
    expect(discountLabel(cardDiscount(packs)!)).toBe('Up to 20% OFF');
    const same = { ...packs, productVariants: [pack(1, 900, 1000), pack(2, 1800, 2000)] };
    expect(discountLabel(cardDiscount(same)!)).toBe('10% OFF');
  });
});
