// FSSAI's food type and the Legal Metrology facts over HTTP (issue 24): every product of a listing and the product
// call carry them (null where not given), product suggestions carry the food type, and so do cart and order lines.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import type { ProductDto, SuggestionDto } from '../../src/server/schemas.ts';
import { plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

// 07:30 in Kolkata, so today's noon slot is open.
const clock = new Date('2026-11-23T02:00:00Z');
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ products: 60, now: () => clock });
});
afterAll(async () => api?.close());

const FACTS = ['foodType', 'netQuantity', 'countryOfOrigin', 'manufacturer', 'shelfLife', 'fssaiLicence'] as const;

async function listing(categoryId: string): Promise<ProductDto[]> {
  const res = await api.get(`/api/app/Products/LoadProductsByCategory/${categoryId}?pageSize=100`);
  expect(res.status).toBe(200);
  return (await res.json()) as ProductDto[];
}

describe('products', () => {
  it("carry their food type and facts in listings and alone: meat non-veg, vegetables veg, cleaners no mark", async () => {
    const meat = await listing('meat-fish');
    const vegetables = await listing('fruits-vegetables');
    const cleaning = await listing('household-cleaning');
    for (const list of [meat, vegetables, cleaning]) expect(list.length).toBeGreaterThan(0);
    expect(meat.map((p) => p.foodType)).toEqual(meat.map(() => 'non_veg'));
    expect(vegetables.map((p) => p.foodType)).toEqual(vegetables.map(() => 'veg'));
    expect(cleaning.map((p) => [p.foodType, p.fssaiLicence])).toEqual(cleaning.map(() => [null, null]));

    for (const p of [...meat, ...vegetables, ...cleaning]) for (const key of FACTS) expect(p, `${p.name} ${key}`).toHaveProperty(key);
    const [first] = meat;
    expect(first!.fssaiLicence).toMatch(/^\d{14}$/);
    expect(first!.manufacturer).toMatch(new RegExp(`^${first!.brandName} Pvt\\. Ltd\\., `));
    const alone = (await (await api.get(`/api/app/Products/${first!.id}`)).json()) as ProductDto;
    expect(Object.fromEntries(FACTS.map((k) => [k, alone[k]]))).toEqual(Object.fromEntries(FACTS.map((k) => [k, first![k]])));
  });

  it('say null for what the seller has not given', async () => {
    const [id] = await plainProductIds(api.db);
    await api.db
      .update(products)
      .set({ foodType: null, netQuantity: null, countryOfOrigin: null, manufacturer: null, shelfLife: null, fssaiLicence: null })
      .where(eq(products.id, id!));
    const bare = (await (await api.get(`/api/app/Products/${id}`)).json()) as ProductDto;
    expect(Object.fromEntries(FACTS.map((k) => [k, bare[k]]))).toEqual(Object.fromEntries(FACTS.map((k) => [k, null])));
  });
});

it('gives product suggestions their food type, and brands and categories none', async () => {
  const suggestions = async (text: string) => {
    const res = await api.get(`/api/app/Products/SearchProducts/${text}`);
    expect(res.status).toBe(200);
    return (await res.json()) as SuggestionDto[];
  };
  const found = (await suggestions('chicken')).filter((s) => s.type === 'products');
  expect(found.length).toBeGreaterThan(0);
  for (const s of found) {
    const product = (await (await api.get(`/api/app/Products/${s.id}`)).json()) as ProductDto;
    expect(s.foodType, s.name).toBe(product.foodType);
  }
  expect(found.some((s) => s.foodType === 'non_veg')).toBe(true);
  const names = (await suggestions('dairy')).filter((s) => s.type !== 'products');
  expect(names.map((s) => s.type)).toEqual(expect.arrayContaining(['Brand', 'Category']));
  for (const s of names) expect(s, s.name).not.toHaveProperty('foodType');
});

it("gives cart and order lines their product's food type", async () => {
  const [, id] = await plainProductIds(api.db);
  const [egg] = await api.db.update(products).set({ foodType: 'egg', stock: 20 }).where(eq(products.id, id!)).returning({ id: products.id });
  const session = await api.register();
  const addressId = await saveHomeAddress(api.db, session.user.id);

  const added = await api.call('POST', '/api/app/Carts', { token: session.token, body: { productsId: egg!.id, productVariantsId: 0, qty: 2 } });
  expect(added.status).toBe(201);
  expect(((await added.json()) as CartDto).lines.map((l) => [l.productsId, l.foodType])).toEqual([[egg!.id, 'egg']]);

  const placed = await api.call('POST', '/api/app/Orders', {
    token: session.token,
    headers: { 'Idempotency-Key': `shelf-facts-${process.pid}` },
    body: { addressId: addressId, slotId: '2026-11-23T12:00', paymentMethod: 'cash' },
  });
  expect(placed.status, await placed.clone().text()).toBe(201);
  const order = (await placed.json()) as OrderDto;
  expect(order.lines.map((l) => [l.productsId, l.foodType])).toEqual([[egg!.id, 'egg']]);
  const again = (await (await api.call('GET', `/api/app/Orders/${order.id}`, { token: session.token })).json()) as OrderDto;
  expect(again.lines[0]!.foodType).toBe('egg');
});
