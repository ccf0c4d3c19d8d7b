// Sorting and filtering the listings over HTTP (issue 24): the category, brand, hot and search listings take sort, brand,
// food, instock and price; ListingFacets counts what each filter would show. Expectations are worked out from the plain
// listings' own answers, so they hold for whatever the seed holds.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverySlots, orderLines, orders, products, users } from '../../src/server/db/schema.ts';
import type { CategoryDto, ListingFacetsDto, ProductDto } from '../../src/server/schemas.ts';
import { PRICE_BANDS } from '../../src/lib/listing.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
/** The category with the most products, all of them in the listing's own order. */
let aisle: { id: string; name: string; products: ProductDto[] };

beforeAll(async () => {
  api = await startTestApi({ products: 60 });
  const categories = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as CategoryDto[];
  const biggest = categories.reduce((a, b) => (b.count > a.count ? b : a));
  aisle = { id: biggest.id, name: biggest.name, products: await listing(`/api/app/Products/LoadProductsByCategory/${biggest.id}`) };
  expect(aisle.products.length, 'an aisle to sort').toBeGreaterThanOrEqual(4);
});
afterAll(async () => api?.close());

/** Every product of a listing (up to 100), or [] for its 404. */
async function listing(path: string, query = ''): Promise<ProductDto[]> {
  const res = await api.get(`${path}?pageSize=100${query ? `&${query}` : ''}`);
  if (res.status === 404) return [];
  expect(res.status, `${path}?${query}`).toBe(200);
  const items = (await res.json()) as ProductDto[];
  expect(Number(res.headers.get('x-total-count'))).toBe(items.length);
  return items;
}

const categoryPath = () => `/api/app/Products/LoadProductsByCategory/${aisle.id}`;
const ids = (list: ProductDto[]) => list.map((p) => p.id);

/** The share of the MRP off that the 'discount' sort orders by: the best priced pack's, else the product's own. */
function saving(p: ProductDto): number {
  const share = (price: number, mrp: number) => (mrp > price ? (mrp - price) / mrp : 0);
  const packs = p.type === 'normal' ? [] : p.productVariants.flatMap((v) => (v.productVariantPrice ? [v.productVariantPrice] : []));
  return packs.length > 0 ? Math.max(...packs.map((v) => share(v.salesPricePaise, v.mrpPaise))) : share(p.pricePaise, p.mrpPaise);
}

const isSortedBy = <T>(list: T[], key: (item: T) => number, direction: 1 | -1) =>
  list.every((item, i) => i === 0 || direction * (key(item) - key(list[i - 1]!)) >= 0);

describe('sort', () => {
  it('price-asc and price-desc order the whole aisle by price, the same products as its own order', async () => {
    const low = await listing(categoryPath(), 'sort=price-asc');
    const high = await listing(categoryPath(), 'sort=price-desc');
    expect(isSortedBy(low, (p) => p.pricePaise, 1)).toBe(true);
    expect(isSortedBy(high, (p) => p.pricePaise, -1)).toBe(true);
    expect(new Set(ids(low))).toEqual(new Set(ids(aisle.products)));
    expect(new Set(ids(high))).toEqual(new Set(ids(aisle.products)));
    expect(low[0]!.pricePaise).toBeLessThan(low.at(-1)!.pricePaise);
  });

  it('relevance is the listing’s own order, and pages of a sort follow on from each other', async () => {
    expect(ids(await listing(categoryPath(), 'sort=relevance'))).toEqual(ids(aisle.products));
    const all = ids(await listing(categoryPath(), 'sort=price-desc'));
    const first = (await (await api.get(`${categoryPath()}?sort=price-desc&pageSize=3&pageNo=0`)).json()) as ProductDto[];
    const second = (await (await api.get(`${categoryPath()}?sort=price-desc&pageSize=3&pageNo=1`)).json()) as ProductDto[];
    expect([...ids(first), ...ids(second)]).toEqual(all.slice(0, 6));
  });

  it('discount puts the largest share off the MRP first', async () => {
    // A product of its own with the aisle's largest saving, so the sort has something to show.
    const target = aisle.products.find((p) => p.type === 'normal')!;
    await api.db.update(products).set({ pricePaise: 1000, mrpPaise: 10_000 }).where(eq(products.id, target.id));
    const sorted = await listing(categoryPath(), 'sort=discount');
    expect(sorted[0]!.id).toBe(target.id);
    expect(isSortedBy(sorted, saving, -1)).toBe(true);
    const { pricePaise, mrpPaise } = target;
    await api.db.update(products).set({ pricePaise, mrpPaise }).where(eq(products.id, target.id));
  });

  it('popular puts the most units ordered first, not counting cancelled orders', async () => {
    const [a, b, c] = aisle.products.slice(-3);
    const [shopper] = await api.db
      .insert(users)
      .values({ email: 'popular@example.in', name: 'Asha', phone: '9123400001', passwordHash: 'x' })
      .returning({ id: users.id });
    await api.db
      .insert(deliverySlots)
      .values({ id: '2030-01-01T10:00', startsAt: new Date('2030-01-01T04:30:00Z'), endsAt: new Date('2030-01-01T06:30:00Z'), capacity: 10 });
    const order = async (status: 'delivered' | 'cancelled', lines: [ProductDto, number][], key: string) => {
      const [row] = await api.db
        .insert(orders)
        .values({
          userId: shopper!.id,
          status,
          paymentMethod: 'cash',
          slotId: '2030-01-01T10:00',
          address: { name: 'Asha', phone: '9123400001', line1: '1 MG Road', line2: '', landmark: '', city: 'Pune', state: 'Maharashtra', pincode: '411001' },
          subtotalPaise: 0,
          mrpTotalPaise: 0,
          discounts: [],
          discountPaise: 0,
          deliveryPaise: 0,
          totalPaise: 0,
          idempotencyKey: key,
          requestHash: key,
        })
        .returning({ id: orders.id });
      await api.db.insert(orderLines).values(
        lines.map(([p, qty]) => ({
          orderId: row!.id,
          productId: p.id,
          name: p.name,
          unitPricePaise: p.pricePaise,
          unitMrpPaise: p.mrpPaise,
          qty,
          lineTotalPaise: p.pricePaise * qty,
        })),
      );
    };
    await order('delivered', [[a!, 3], [b!, 1]], 'popular-1');
    await order('delivered', [[b!, 1]], 'popular-2');
    await order('cancelled', [[c!, 9]], 'popular-3');
    const popular = ids(await listing(categoryPath(), 'sort=popular'));
    expect(popular.slice(0, 2)).toEqual([a!.id, b!.id]);
    // The rest, c among them, in the listing's own order.
    expect(popular.slice(2)).toEqual(ids(aisle.products).filter((id) => id !== a!.id && id !== b!.id));
  });
});

describe('filters', () => {
  it('brand: one, or several by repeating it, on the hot listing', async () => {
    const hot = await listing('/api/app/Products/LoadProductsByPriorityTag');
    const [first, second] = [...new Set(hot.map((p) => p.brandId))];
    const one = await listing('/api/app/Products/LoadProductsByPriorityTag', `brand=${first}`);
    expect(ids(one)).toEqual(ids(hot.filter((p) => p.brandId === first)));
    const two = await listing('/api/app/Products/LoadProductsByPriorityTag', `brand=${second}&brand=${first}`);
    expect(ids(two)).toEqual(ids(hot.filter((p) => p.brandId === first || p.brandId === second)));
  });

  it('food type, in stock and a price band, together', async () => {
    const [veg, egg, gone] = aisle.products;
    await api.db.update(products).set({ foodType: 'veg' }).where(inArray(products.id, [veg!.id, gone!.id]));
    await api.db.update(products).set({ foodType: 'egg' }).where(eq(products.id, egg!.id));
    const [{ stock }] = (await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, gone!.id))) as [{ stock: number }];
    await api.db.update(products).set({ stock: 0 }).where(eq(products.id, gone!.id));
    try {
      const shelf = await listing(categoryPath());
      const ofType = (type: string) => ids(shelf.filter((p) => p.foodType === type));
      expect(ids(await listing(categoryPath(), 'food=veg'))).toEqual(ofType('veg'));
      expect(ids(await listing(categoryPath(), 'food=veg'))).toEqual(expect.arrayContaining([veg!.id, gone!.id]));
      expect(ids(await listing(categoryPath(), 'food=egg'))).toEqual(ofType('egg'));
      expect(ids(await listing(categoryPath(), 'food=egg'))).toContain(egg!.id);
      expect(ids(await listing(categoryPath(), 'food=non_veg'))).toEqual(ofType('non_veg'));
      const vegOnShelf = await listing(categoryPath(), 'food=veg&instock=1');
      expect(ids(vegOnShelf)).toEqual(ids(shelf.filter((p) => p.foodType === 'veg' && p.inStock)));
      expect(ids(vegOnShelf)).not.toContain(gone!.id);
      const inStock = await listing(categoryPath(), 'instock=1');
      expect(inStock.every((p) => p.inStock)).toBe(true);
      expect(ids(inStock)).not.toContain(gone!.id);
      expect(ids(await listing(categoryPath(), 'instock=0'))).toContain(gone!.id);

      const now = await listing(categoryPath());
      for (const band of PRICE_BANDS) {
        const within = now.filter((p) => p.pricePaise >= band.minPaise && (band.maxPaise === null || p.pricePaise < band.maxPaise));
        expect(ids(await listing(categoryPath(), `price=${band.id}`)), band.id).toEqual(ids(within));
      }
    } finally {
      for (const p of [veg!, egg!, gone!]) await api.db.update(products).set({ foodType: p.foodType }).where(eq(products.id, p.id));
      await api.db.update(products).set({ stock }).where(eq(products.id, gone!.id));
    }
  });

  it('a listing its filters empty answers 404 "No Products found"', async () => {
    const res = await api.get(`${categoryPath()}?food=non_veg&brand=999999`);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: 'not_found', message: 'No Products found' });
  });

  it('a search sorts and filters its matches, in rank order when not sorted', async () => {
    const word = aisle.name.split(/\W+/)[0]!.toLowerCase();
    const path = `/api/app/Products/SearchResults/${encodeURIComponent(word)}`;
    const found = await listing(path);
    expect(found.length).toBeGreaterThan(2);
    const cheap = await listing(path, 'sort=price-asc');
    expect(isSortedBy(cheap, (p) => p.pricePaise, 1)).toBe(true);
    expect(new Set(ids(cheap))).toEqual(new Set(ids(found)));
    const brand = found[1]!.brandId;
    expect(ids(await listing(path, `brand=${brand}`))).toEqual(ids(found.filter((p) => p.brandId === brand)));
  });
});

describe('GET /api/app/Products/ListingFacets', () => {
  const facetsOf = async (query: string) => {
    const res = await api.get(`/api/app/Products/ListingFacets?${query}`);
    expect(res.status, query).toBe(200);
    return (await res.json()) as ListingFacetsDto;
  };

  it('counts each brand, food type, in stock and price band as its filter would show', async () => {
    const facets = await facetsOf(`type=category&id=${aisle.id}`);
    const byBrand = new Map<number, number>();
    for (const p of aisle.products) byBrand.set(p.brandId, (byBrand.get(p.brandId) ?? 0) + 1);
    expect(new Map(facets.brands.map((b) => [b.id, b.count]))).toEqual(byBrand);
    expect(facets.brands.map((b) => b.name)).toEqual([...facets.brands.map((b) => b.name)].sort((a, b) => a.localeCompare(b)));
    expect(facets.inStock).toBe(aisle.products.filter((p) => p.inStock).length);
    expect(facets.priceBands.reduce((sum, band) => sum + band.count, 0)).toBe(aisle.products.length);
    for (const band of facets.priceBands) {
      expect(band.count, band.id).toBe((await listing(categoryPath(), `price=${band.id}`)).length);
    }
    expect(facets.foodTypes.map((f) => f.value)).toEqual(['veg', 'non_veg', 'egg']);
  });

  it('counts a facet without its own filter but with the others', async () => {
    const brand = aisle.products[0]!.brandId;
    const band = PRICE_BANDS.find((b) => aisle.products.some((p) => p.brandId === brand && p.pricePaise >= b.minPaise && (b.maxPaise === null || p.pricePaise < b.maxPaise)))!;
    const facets = await facetsOf(`type=category&id=${aisle.id}&brand=${brand}&price=${band.id}`);
    // Brands: counted within the price band, every brand still offered.
    const inBand = await listing(categoryPath(), `price=${band.id}`);
    expect(facets.brands.find((b) => b.id === brand)!.count).toBe(inBand.filter((p) => p.brandId === brand).length);
    // Price bands: counted within the brand.
    const ofBrand = await listing(categoryPath(), `brand=${brand}`);
    expect(facets.priceBands.reduce((sum, b) => sum + b.count, 0)).toBe(ofBrand.length);
    // In stock: counted within both.
    expect(facets.inStock).toBe((await listing(categoryPath(), `brand=${brand}&price=${band.id}&instock=1`)).length);
  });

  it('lists a chosen brand that the listing does not hold, with a count of 0', async () => {
    const elsewhere = (await listing('/api/app/Products/LoadProductsByPriorityTag')).find((p) => p.categoryId !== aisle.id);
    const other = aisle.products.every((p) => p.brandId !== elsewhere?.brandId) ? elsewhere : undefined;
    if (!other) return expect(other, 'the seed has a brand outside the aisle').toBeDefined();
    const facets = await facetsOf(`type=category&id=${aisle.id}&brand=${other.brandId}`);
    expect(facets.brands.find((b) => b.id === other.brandId)).toEqual({ id: other.brandId, name: other.brandName, count: 0 });
  });

  it('counts a search’s matches', async () => {
    const word = aisle.name.split(/\W+/)[0]!.toLowerCase();
    const found = await listing(`/api/app/Products/SearchResults/${encodeURIComponent(word)}`);
    const facets = await facetsOf(`type=search&name=${encodeURIComponent(word)}`);
    expect(facets.brands.reduce((sum, b) => sum + b.count, 0)).toBe(found.length);
  });
});

describe('bad input', () => {
  it.each([
    ['sort=cheapest', 'sort'],
    ['brand=abc', 'brand must be a positive whole number'],
    ['brand=0', 'brand must be a positive whole number'],
    [Array.from({ length: 11 }, (_, i) => `brand=${i + 1}`).join('&'), 'at most 10 times'],
    ['food=vegan', 'food'],
    ['instock=yes', 'instock'],
    ['price=1-2', 'price'],
  ])('%s is a 400', async (query, message) => {
    const res = await api.get(`${categoryPath()}?${query}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain(message);
  });

  it('ListingFacets needs the listing it counts', async () => {
    for (const query of ['type=brand', 'type=brand&id=x', 'type=category&id=Not_A_Slug', 'type=search', 'type=aisle']) {
      const res = await api.get(`/api/app/Products/ListingFacets?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('the OpenAPI document names the sort and filters', async () => {
    const doc = (await (await api.get('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
    };
    const names = doc.paths['/api/app/Products/LoadProductsByCategory/{categoryId}']?.get?.parameters?.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['sort', 'brand', 'food', 'instock', 'price']));
    expect(doc.paths['/api/app/Products/ListingFacets']).toBeDefined();
  });
});
