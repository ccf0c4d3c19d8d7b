// The back office's shelf and shoppers routes (issue 34): a product found by name with its packs; stock by the shop
// floor, price and facts by the owner only; bad input a 400 with the API's error body; every write names the product's
// stale tags on the bus, so the shop's cached product answer shows the new price at once; a shopper found by number.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaggedCache } from '../../src/server/cache/tagged-cache.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import { products, productVariants } from '../../src/server/db/schema.ts';
import type { GrocerProductDto, GrocerProductListDto, GrocerShopperDto } from '../../src/server/shelf-schemas.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi } from './harness.ts';
import { fromShop, signedIn } from './staff-helpers.ts';

let api: TestApi;
const readCache = new TaggedCache<object>({ maxEntries: 1000, ttlSeconds: 60 });
let owner: string;
let staff: string;
let plainId: number;
let packed: { productId: number; packIds: number[] };

beforeAll(async () => {
  api = await startTestApi({ products: 12, readCache, grocerToken: 'grocer-shelf-test-token-0123456789' });
  owner = (await signedIn(api, 'owner')).cookie;
  staff = (await signedIn(api, 'staff')).cookie;
  plainId = (await plainProductIds(api.db))[0]!;
  const packs = await api.db.select({ id: productVariants.id, productId: productVariants.productId }).from(productVariants).orderBy(productVariants.position, productVariants.id);
  const productId = packs[0]!.productId;
  packed = { productId, packIds: packs.filter((p) => p.productId === productId).map((p) => p.id) };
});
afterAll(() => api?.close());

const shopPrice = async (id: number) => ((await (await api.get(`/api/app/Products/${id}`)).json()) as { pricePaise: number; inStock: boolean });

describe('finding products', () => {
  it('finds a product by a part of its name, with its packs, for staff', async () => {
    const [row] = await api.db.select({ name: products.name }).from(products).where(eq(products.id, packed.productId));
    const res = await fromShop(api, 'GET', `/api/grocer/Products?q=${encodeURIComponent(row!.name.slice(0, 6).toLowerCase())}`, { cookie: staff });
    expect(res.status).toBe(200);
    const found = ((await res.json()) as GrocerProductListDto).products.find((p) => p.id === packed.productId)!;
    expect(found.packs.map((p) => p.id)).toEqual(packed.packIds);
    const one = (await (await fromShop(api, 'GET', `/api/grocer/Products/${plainId}`, { cookie: staff })).json()) as GrocerProductDto;
    expect(one.packs).toEqual([expect.objectContaining({ id: null })]);
  });

  it('refuses an empty search and a made-up product', async () => {
    const empty = await fromShop(api, 'GET', '/api/grocer/Products?q=%20', { cookie: staff });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toMatch(/q is required/);
    expect((await fromShop(api, 'GET', '/api/grocer/Products/999999', { cookie: staff })).status).toBe(404);
  });
});

describe('changing a price', () => {
  it('is the owner’s: staff are refused, and the shop shows the new price at once', async () => {
    const before = await shopPrice(plainId); // now kept in the read cache
    const body = { pricePaise: before.pricePaise + 1234, mrpPaise: before.pricePaise + 5000 };
    expect((await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Price`, { cookie: staff, body })).status).toBe(403);
    expect((await shopPrice(plainId)).pricePaise).toBe(before.pricePaise);
    api.takeStale();
    const res = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Price`, { cookie: owner, body });
    expect(res.status).toBe(200);
    expect(((await res.json()) as GrocerProductDto).packs[0]).toMatchObject(body);
    expect(api.takeStale()).toEqual([staleAfter.productEdited(plainId)]);
    expect((await shopPrice(plainId)).pricePaise).toBe(body.pricePaise);
  });

  it('changes the first pack’s price on the product too, and another pack’s alone', async () => {
    const [first, second] = packed.packIds;
    await fromShop(api, 'PUT', `/api/grocer/Products/${packed.productId}/Price`, { cookie: owner, body: { packId: first, pricePaise: 4321, mrpPaise: 0 } });
    expect((await shopPrice(packed.productId)).pricePaise).toBe(4321);
    if (second !== undefined) {
      const res = await fromShop(api, 'PUT', `/api/grocer/Products/${packed.productId}/Price`, { cookie: owner, body: { packId: second, pricePaise: 9999, mrpPaise: 10500 } });
      const product = (await res.json()) as GrocerProductDto;
      expect(product.packs.find((p) => p.id === second)).toMatchObject({ pricePaise: 9999, mrpPaise: 10500 });
      expect((await shopPrice(packed.productId)).pricePaise).toBe(4321);
    }
  });

  it.each([
    [{ pricePaise: 0 }, /pricePaise must be more than 0/],
    [{ pricePaise: 12.5 }, /whole number of paise/],
    [{ pricePaise: 5000, mrpPaise: 4000 }, /MRP is the most a shop may charge/],
    [{ pricePaise: 'ten' }, /pricePaise must be a whole number/],
  ])('refuses %j with a 400', async (body, message) => {
    const res = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Price`, { cookie: owner, body });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(message);
  });

  it('needs the pack of a product sold in pack sizes, and none for one sold in one size', async () => {
    const noPack = await fromShop(api, 'PUT', `/api/grocer/Products/${packed.productId}/Price`, { cookie: owner, body: { pricePaise: 100 } });
    expect(noPack.status).toBe(400);
    expect((await errorOf(noPack)).message).toMatch(/packId names the pack/);
    const wrong = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { packId: packed.packIds[0], stock: 3 } });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toMatch(/leave packId out/);
  });
});

describe('stock and facts', () => {
  it('lets staff mark a product out of stock and back, the shop following', async () => {
    await shopPrice(plainId);
    const out = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { stock: 0 } });
    expect(out.status).toBe(200);
    expect((await shopPrice(plainId)).inStock).toBe(false);
    await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { stock: 7 } });
    expect((await shopPrice(plainId)).inStock).toBe(true);
    const negative = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { stock: -1 } });
    expect(negative.status).toBe(400);
    expect((await errorOf(negative)).message).toMatch(/cannot be negative/);
  });

  it('lets the owner, not staff, set hot and the food type', async () => {
    const body = { hot: true, foodType: 'veg' };
    expect((await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Facts`, { cookie: staff, body })).status).toBe(403);
    const res = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Facts`, { cookie: owner, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ hot: true, foodType: 'veg' });
    const off = (await (await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Facts`, { cookie: owner, body: { hot: false, foodType: null } })).json()) as GrocerProductDto;
    expect(off).toMatchObject({ hot: false, foodType: null });
    const bad = await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Facts`, { cookie: owner, body: { hot: 'yes', foodType: 'fish' } });
    expect(bad.status).toBe(400);
  });
});

describe('shoppers by number', () => {
  it('finds a shopper’s account and block by number, in any of its written forms', async () => {
    const shopper = await api.register();
    const phone = shopper.user.phone;
    const found = (await (await fromShop(api, 'GET', `/api/grocer/Shoppers?phone=${encodeURIComponent(`+91 ${phone}`)}`, { cookie: staff })).json()) as GrocerShopperDto;
    expect(found).toMatchObject({ phone, blocked: null, account: { id: shopper.user.id, verified: true }, orders: [] });
    await fromShop(api, 'POST', '/api/grocer/BlockedPhones', { cookie: staff, body: { phone, reason: 'test' } });
    const blocked = (await (await fromShop(api, 'GET', `/api/grocer/Shoppers?phone=${phone}`, { cookie: staff })).json()) as GrocerShopperDto;
    expect(blocked.blocked).toMatchObject({ phone, reason: 'test' });
    const bad = await fromShop(api, 'GET', '/api/grocer/Shoppers?phone=12345', { cookie: staff });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/10-digit Indian mobile/);
  });
});

describe('low stock', () => {
  it('lists what to reorder for staff, the emptiest first: a packed product by its emptiest pack', async () => {
    const [firstPack, otherPack] = packed.packIds;
    await fromShop(api, 'PUT', `/api/grocer/Products/${packed.productId}/Stock`, { cookie: staff, body: { packId: otherPack, stock: 40 } });
    const soldOut = await fromShop(api, 'PUT', `/api/grocer/Products/${packed.productId}/Stock`, { cookie: staff, body: { packId: firstPack, stock: 0 } });
    expect(soldOut.status, await soldOut.clone().text()).toBe(200);
    await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { stock: 3 } });

    const low = async (query: string) => {
      const res = await fromShop(api, 'GET', `/api/grocer/LowStock${query}`, { cookie: staff });
      expect(res.status).toBe(200);
      return ((await res.json()) as GrocerProductListDto).products.map((p) => p.id);
    };
    const atThree = await low('?atMost=3');
    // The packed product's row sums its packs (40): its sold-out size still puts it first.
    expect(atThree.indexOf(packed.productId)).toBeGreaterThanOrEqual(0);
    expect(atThree.indexOf(plainId)).toBeGreaterThan(atThree.indexOf(packed.productId));
    expect(await low('?atMost=2')).not.toContain(plainId);
    expect(await low('')).toContain(plainId); // the default line, 5 units

    const bad = await fromShop(api, 'GET', '/api/grocer/LowStock?atMost=plenty', { cookie: staff });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/atMost must be a whole number/);
    await fromShop(api, 'PUT', `/api/grocer/Products/${plainId}/Stock`, { cookie: staff, body: { stock: 7 } });
  });
});
