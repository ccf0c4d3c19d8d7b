// The cart over HTTP: one line per product and pack size, prices from the database, nobody else's cart.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { productImages, products, productVariantPrices, productVariants } from '../../src/server/db/schema.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
const PLAIN_STOCK = 100;
let plain: { id: number; pricePaise: number; mrpPaise: number };
let packed: { productId: number; variantId: number; priceId: number; salesPricePaise: number; mrpPaise: number };
let outOfStock: { id: number; name: string };
let unpriced: { productId: number; variantId: number };
beforeAll(async () => {
  api = await startTestApi({ products: 60 });
  const inStock = await api.db
    .select({ id: products.id, pricePaise: products.pricePaise, mrpPaise: products.mrpPaise })
    .from(products)
    .where(and(eq(products.inStock, true), eq(products.type, 'normal'), sql`${products.mrpPaise} > ${products.pricePaise}`))
    .orderBy(products.id);
  plain = inStock[0]!;
  // More on the shelf than one order may hold: these tests are about the cart's own limits (tests/api/buying.test.ts
  // has the shelf's).
  await api.db.update(products).set({ stock: PLAIN_STOCK }).where(eq(products.id, plain.id));
  const [variant] = await api.db
    .select({
      productId: productVariants.productId,
      variantId: productVariants.id,
      priceId: productVariantPrices.id,
      salesPricePaise: productVariantPrices.salesPricePaise,
      mrpPaise: productVariantPrices.mrpPaise,
    })
    .from(productVariants)
    .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.inStock, true), sql`${productVariantPrices.salesPricePaise} <> ${products.pricePaise}`))
    .orderBy(productVariants.id)
    .limit(1);
  packed = variant!;
  const [gone] = await api.db.select({ id: products.id, name: products.name }).from(products).where(eq(products.inStock, false)).limit(1);
  if (!gone) throw new Error('The seed has no out-of-stock product');
  outOfStock = gone;
  const [noPrice] = await api.db
    .select({ productId: productVariants.productId, variantId: productVariants.id })
    .from(productVariants)
    .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(isNull(productVariantPrices.id), eq(products.inStock, true)))
    .limit(1);
  if (!noPrice) throw new Error('The seed has no pack size without a price');
  unpriced = noPrice;
});
afterAll(async () => api?.close());

/** SPEC §3's cart line payload. */
const line = (productsId: number, extra: Record<string, unknown> = {}) => ({
  productsId,
  productVariantsId: 0,
  productVariantPriceId: 0,
  packing: 'packaging',
  price: 1,
  qty: 1,
  ...extra,
});

async function cartOf(token: string, userId: number) {
  const res = await api.call('GET', `/api/app/Carts/GetCartsByUser/${userId}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as CartDto;
}

describe('adding to the cart', () => {
  it('adds a plain product at its database price, whatever price the client sends, with the offers applied', async () => {
    const { token, user } = await api.register();
    await api.db.update(products).set({ pricePaise: 24_000, mrpPaise: 30_000 }).where(eq(products.id, plain.id));
    try {
      const res = await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { usersId: user.id, price: 0.01 }) });
      expect(res.status).toBe(201);
      const cart = (await res.json()) as CartDto;
      expect(cart.lines).toHaveLength(1);
      expect(cart.lines[0]).toMatchObject({ productsId: plain.id, productVariantsId: 0, qty: 1, unitPricePaise: 24_000, lineTotalPaise: 24_000, inStock: true });
      // A shopper with no order yet: 15% off the first order (₹36) instead of 5% off all products (₹12).
      expect(cart.summary).toEqual({
        itemCount: 1,
        subtotalPaise: 24_000,
        mrpTotalPaise: 30_000,
        savingsPaise: 6000,
        discounts: [{ code: 'first-order', label: '15% off your first order (up to ₹150)', amountPaise: 3600 }],
        discountPaise: 3600,
        deliveryPaise: 0,
        totalPaise: 20_400,
      });
    } finally {
      await api.db.update(products).set({ pricePaise: plain.pricePaise, mrpPaise: plain.mrpPaise }).where(eq(products.id, plain.id));
    }
  });

  it("adds a pack size at the pack's price, ignoring a wrong price id, and the combo reading too", async () => {
    const { token, user } = await api.register();
    const res = await api.call('POST', '/api/app/Carts', {
      token,
      body: line(packed.productId, { productVariantsId: packed.variantId, productVariantPriceId: 999_999, price: 1 }),
    });
    expect(res.status).toBe(201);
    const combo = await api.call('POST', '/api/Carts', {
      token,
      body: { productsId: packed.productId, usersId: user.id, productVariantsId: packed.variantId, productVariantPriceId: packed.priceId, comboProductVariantsId: 0, comboProductPriceId: 0, packing: 'packaging', price: 5 },
    });
    expect(combo.status).toBe(201);
    const cart = (await combo.json()) as CartDto;
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({
      productsId: packed.productId,
      productVariantsId: packed.variantId,
      productVariantPriceId: packed.priceId,
      variantName: expect.any(String),
      unitPricePaise: packed.salesPricePaise,
      qty: 2,
      lineTotalPaise: packed.salesPricePaise * 2,
    });
    // The same product without a pack size is refused (it has no price of its own): the cart stays one line.
    expect((await api.call('POST', '/api/app/Carts', { token, body: line(packed.productId) })).status).toBe(400);
    expect((await cartOf(token, user.id)).lines).toHaveLength(1);
  });

  it("shows a pack's own picture on its line (issue 24), and the product's first picture for a pack without one", async () => {
    const packs = await api.db
      .select({ productId: productVariants.productId, variantId: productVariants.id, priceId: productVariantPrices.id, imageUrl: productVariants.imageUrl })
      .from(productVariants)
      .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .where(and(sql`${productVariants.position} > 0`, sql`${productVariants.stock} > 0`))
      .orderBy(productVariants.id)
      .limit(2);
    const [larger, bare] = packs;
    const firstPicture = async (productId: number) =>
      (await api.db.select({ url: productImages.imageUrl }).from(productImages).where(eq(productImages.productId, productId)).orderBy(productImages.position))[0]?.url;
    expect(larger?.imageUrl).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
    expect(larger?.imageUrl).not.toBe(await firstPicture(larger!.productId));
    // A grocer's pack without a picture of its own.
    await api.db.update(productVariants).set({ imageUrl: null }).where(eq(productVariants.id, bare!.variantId));
    const { token, user } = await api.register();
    for (const pack of [larger!, bare!]) {
      const res = await api.call('POST', '/api/app/Carts', { token, body: line(pack.productId, { productVariantsId: pack.variantId, productVariantPriceId: pack.priceId }) });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const cart = await cartOf(token, user.id);
    expect(cart.lines.find((l) => l.productVariantsId === larger!.variantId)?.imageUrl).toBe(larger!.imageUrl);
    expect(cart.lines.find((l) => l.productVariantsId === bare!.variantId)?.imageUrl).toBe(await firstPicture(bare!.productId));
  });

  it('makes ten adds at once one line of quantity 10', async () => {
    const { token, user } = await api.register();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.call('POST', '/api/app/Carts', { token, body: line(plain.id) })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    const cart = await cartOf(token, user.id);
    expect(cart.lines.map((l) => l.qty)).toEqual([10]);
    const total = await api.call('GET', `/api/app/Carts/GetTotalCart/${user.id}`, { token });
    expect(await total.json()).toEqual({ cartsTotal: 10 });
  });

  it("refuses to go past store.yaml's units of one product (10), leaving the line as it was, and says the most", async () => {
    const { token, user } = await api.register();
    expect((await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { qty: 8 }) })).status).toBe(201);
    const res = await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { qty: 3 }) });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'conflict', message: 'You can order at most 10 of one item, and this one is already in your cart.' });
    const cart = await cartOf(token, user.id);
    expect(cart.lines[0]!.qty).toBe(8);
    expect(cart.lines[0]!.maxQty).toBe(10);
    const lineId = cart.lines[0]!.id;
    const raised = await api.call('PUT', `/api/app/Carts/${lineId}`, { token, body: { qty: 11 } });
    expect(raised.status).toBe(409);
    expect((await errorOf(raised)).message).toBe('You can order at most 10 of one item.');
    expect((await api.call('PUT', `/api/app/Carts/${lineId}`, { token, body: { qty: 10 } })).status).toBe(200);
  });

  it('refuses an out-of-stock product and a pack size without a price with a readable 409', async () => {
    const { token } = await api.register();
    const gone = await api.call('POST', '/api/app/Carts', { token, body: line(outOfStock.id) });
    expect(gone.status).toBe(409);
    expect((await errorOf(gone)).message).toBe(`Sorry, ${outOfStock.name} is out of stock right now.`);
    const noPrice = await api.call('POST', '/api/app/Carts', { token, body: line(unpriced.productId, { productVariantsId: unpriced.variantId }) });
    expect(noPrice.status).toBe(409);
    expect((await errorOf(noPrice)).message).toMatch(/cannot be bought right now/);
  });

  it("refuses a pack size of another product, and an unknown product", async () => {
    const { token } = await api.register();
    const res = await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { productVariantsId: packed.variantId }) });
    expect(res.status).toBe(400);
    expect((await api.call('POST', '/api/app/Carts', { token, body: line(999_999) })).status).toBe(404);
  });

  it('needs a token, and refuses a usersId other than the token’s', async () => {
    expect((await api.call('POST', '/api/app/Carts', { body: line(plain.id) })).status).toBe(401);
    const a = await api.register();
    const b = await api.register();
    // Another shopper's id is answered like an id no one has (issue 23: 404 on every call, never a 403 that tells it exists).
    for (const usersId of [b.user.id, 999_999]) {
      const res = await api.call('POST', '/api/app/Carts', { token: a.token, body: line(plain.id, { usersId }) });
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toEqual({ code: 'not_found', message: `No cart for user ${usersId}` });
    }
    expect((await cartOf(b.token, b.user.id)).lines).toEqual([]);
    expect((await cartOf(a.token, a.user.id)).lines).toEqual([]);
  });
});

describe("another shopper's cart", () => {
  it('is 404 by user id, as an id no one has, and 404 by line id, and shows nothing', async () => {
    const owner = await api.register();
    const intruder = await api.register();
    const added = (await (await api.call('POST', '/api/app/Carts', { token: owner.token, body: line(plain.id) })).json()) as CartDto;
    const lineId = added.lines[0]!.id;
    const answers = [];
    for (const userId of [owner.user.id, 999_999]) {
      for (const path of [`/api/app/Carts/GetCartsByUser/${userId}`, `/api/app/Carts/GetTotalCart/${userId}`]) {
        const res = await api.call('GET', path, { token: intruder.token });
        expect(res.status).toBe(404);
        answers.push(((await res.json()) as { error: { code: string; message: string } }).error);
      }
    }
    // The same words for a real shopper's id as for one no one has, but the id.
    expect(answers.map((e) => ({ ...e, message: e.message.replace(/\d+$/, 'N') }))).toEqual(
      Array(4).fill({ code: 'not_found', message: 'No cart for user N' }),
    );
    const put = await api.call('PUT', `/api/app/Carts/${lineId}`, { token: intruder.token, body: { qty: 5 } });
    expect(put.status).toBe(404);
    expect((await api.call('DELETE', `/api/app/Carts/${lineId}`, { token: intruder.token })).status).toBe(404);
    expect((await cartOf(owner.token, owner.user.id)).lines.map((l) => l.qty)).toEqual([1]);
  });
});

describe('changing and removing lines', () => {
  it('sets a quantity from 1 to 20 and removes a line', async () => {
    const { token, user } = await api.register();
    const added = (await (await api.call('POST', '/api/app/Carts', { token, body: line(plain.id) })).json()) as CartDto;
    const id = added.lines[0]!.id;
    const put = await api.call('PUT', `/api/app/Carts/${id}`, { token, body: { qty: 4 } });
    expect(put.status).toBe(200);
    expect(((await put.json()) as CartDto).summary).toMatchObject({ itemCount: 4, subtotalPaise: plain.pricePaise * 4 });
    for (const qty of [0, 21, 2.5]) {
      expect((await api.call('PUT', `/api/app/Carts/${id}`, { token, body: { qty } })).status).toBe(400);
    }
    const del = await api.call('DELETE', `/api/app/Carts/${id}`, { token });
    expect(del.status).toBe(200);
    expect(((await del.json()) as CartDto).summary.itemCount).toBe(0);
    expect((await api.call('DELETE', `/api/app/Carts/${id}`, { token })).status).toBe(404);
    expect((await cartOf(token, user.id)).lines).toEqual([]);
  });

  it('refuses a product sold in pack sizes without one, with a readable 400', async () => {
    const { token } = await api.register();
    for (const path of ['/api/app/Carts', '/api/Carts']) {
      const res = await api.call('POST', path, { token, body: line(packed.productId) });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^Please choose a pack size of .+\.$/);
    }
  });

  it('lowers but never raises the quantity of a line that went out of stock (409)', async () => {
    const { token } = await api.register();
    const added = (await (await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { qty: 3 }) })).json()) as CartDto;
    const id = added.lines[0]!.id;
    await api.db.update(products).set({ stock: 0 }).where(eq(products.id, plain.id));
    try {
      const more = await api.call('PUT', `/api/app/Carts/${id}`, { token, body: { qty: 4 } });
      expect(more.status).toBe(409);
      expect((await errorOf(more)).message).toMatch(/out of stock/);
      const fewer = await api.call('PUT', `/api/app/Carts/${id}`, { token, body: { qty: 2 } });
      expect(fewer.status).toBe(200);
      expect(((await fewer.json()) as CartDto).lines[0]).toMatchObject({ qty: 2, inStock: false });
      expect((await api.call('PUT', `/api/app/Carts/${id}`, { token, body: { qty: 2 } })).status).toBe(200);
    } finally {
      await api.db.update(products).set({ stock: PLAIN_STOCK }).where(eq(products.id, plain.id));
    }
  });

  it('shows today’s price when the catalogue price changes', async () => {
    const { token, user } = await api.register();
    await api.call('POST', '/api/app/Carts', { token, body: line(plain.id, { qty: 2 }) });
    await api.db.update(products).set({ pricePaise: plain.pricePaise + 100 }).where(eq(products.id, plain.id));
    try {
      expect((await cartOf(token, user.id)).summary.subtotalPaise).toBe((plain.pricePaise + 100) * 2);
    } finally {
      await api.db.update(products).set({ pricePaise: plain.pricePaise }).where(eq(products.id, plain.id));
    }
  });
});


it('documents another shopper’s id as 404 on every cart call in /api/openapi.json, and no 403', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  };
  for (const [path, method] of [
    ['/api/app/Carts/GetTotalCart/{userId}', 'get'],
    ['/api/app/Carts/GetCartsByUser/{userId}', 'get'],
    ['/api/app/Carts', 'post'],
    ['/api/Carts', 'post'],
    ['/api/app/Carts/{id}', 'put'],
    ['/api/app/Carts/{id}', 'delete'],
  ] as const) {
    const responses = doc.paths[path]?.[method]?.responses ?? {};
    expect(Object.keys(responses), `${method} ${path}`).toContain('404');
    // A write's one 403 is the shop's check of cross-site writes (routes/openapi.ts), never another shopper's id.
    if (method === 'get') expect(Object.keys(responses), `${method} ${path}`).not.toContain('403');
    else expect(responses['403']?.description, `${method} ${path}`).toMatch(/^A write from another site/);
  }
});
