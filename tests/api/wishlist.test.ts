// The wishlist over HTTP: keep a product once however often it is added, unknown products, removal, nobody else's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WishlistDto, WishlistIdsDto } from '../../src/server/order-schemas.ts';
import type { ProductDto } from '../../src/server/schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
let productIds: number[];
beforeAll(async () => {
  api = await startTestApi({ products: 12 });
  productIds = (await api.db.select({ id: products.id }).from(products).orderBy(products.id)).map((p) => p.id);
});
afterAll(async () => api?.close());

async function shopper() {
  const session = await api.register();
  const call = (method: string, path: string, body?: unknown) => api.call(method, path, { body, token: session.token });
  const ids = async (res: Response, status = 200) => {
    expect(res.status, await res.clone().text()).toBe(status);
    return ((await res.json()) as WishlistIdsDto).productIds;
  };
  return { session, call, ids };
}

it('keeps a product once: 201 when added, 200 when it was already kept; newest first', async () => {
  const { call, ids } = await shopper();
  const [a, b] = productIds as [number, number];
  expect(await ids(await call('POST', '/api/app/Wishlists', { productsId: a }), 201)).toEqual([a]);
  expect(await ids(await call('POST', '/api/app/Wishlists', { productsId: b }), 201)).toEqual([b, a]);
  expect(await ids(await call('POST', '/api/app/Wishlists', { productsId: a }), 200)).toEqual([b, a]);
  expect(await ids(await call('GET', '/api/app/Wishlists/ProductIds'))).toEqual([b, a]);
});

it('lists the kept products as the catalogue shows them, newest first', async () => {
  const { call } = await shopper();
  const kept = productIds.slice(2, 6);
  for (const id of kept) await call('POST', '/api/app/Wishlists', { productsId: id });
  const res = await call('GET', '/api/app/Wishlists/GetWishlistByUser/0');
  expect(res.status).toBe(200);
  const { items } = (await res.json()) as WishlistDto;
  expect(items.map((i) => i.product.id)).toEqual([...kept].reverse());
  const catalogue = (await (await api.get(`/api/app/Products/${kept[0]}`)).json()) as ProductDto;
  expect(items.at(-1)!.product).toEqual(catalogue);
  for (const item of items) expect(Date.parse(item.addedAt)).not.toBeNaN();
});

it('answers 404 for a product that does not exist, and 400 for one that cannot', async () => {
  const { call, ids } = await shopper();
  const unknown = await call('POST', '/api/app/Wishlists', { productsId: 999_999 });
  expect(unknown.status).toBe(404);
  expect(await errorOf(unknown)).toEqual({ code: 'not_found', message: 'No product has id 999999' });
  const bad = await call('POST', '/api/app/Wishlists', { productsId: 0 });
  expect(bad.status).toBe(400);
  expect((await errorOf(bad)).message).toBe('productsId must be positive');
  expect(await ids(await call('GET', '/api/app/Wishlists/ProductIds'))).toEqual([]);
});

it('removes a product, and removing one not kept is fine', async () => {
  const { call, ids } = await shopper();
  const [a, b] = productIds as [number, number];
  await call('POST', '/api/app/Wishlists', { productsId: a });
  await call('POST', '/api/app/Wishlists', { productsId: b });
  expect(await ids(await call('DELETE', `/api/app/Wishlists/${a}`))).toEqual([b]);
  expect(await ids(await call('DELETE', `/api/app/Wishlists/${a}`))).toEqual([b]);
  expect(await ids(await call('DELETE', '/api/app/Wishlists/999999'))).toEqual([b]);
});

it("answers 404 for another shopper's wishlist, and never touches it", async () => {
  const mine = await shopper();
  const theirs = await shopper();
  const [a] = productIds as [number];
  await theirs.call('POST', '/api/app/Wishlists', { productsId: a });
  const res = await mine.call('GET', `/api/app/Wishlists/GetWishlistByUser/${theirs.session.user.id}`);
  expect(res.status).toBe(404);
  expect((await errorOf(res)).code).toBe('not_found');
  // My delete of the same product is about my wishlist only.
  await mine.call('DELETE', `/api/app/Wishlists/${a}`);
  expect(await theirs.ids(await theirs.call('GET', '/api/app/Wishlists/ProductIds'))).toEqual([a]);
  const own = await mine.call('GET', `/api/app/Wishlists/GetWishlistByUser/${mine.session.user.id}`);
  expect(((await own.json()) as WishlistDto).items).toEqual([]);
});

it('answers 401 without a token', async () => {
  const res = await api.call('GET', '/api/app/Wishlists/ProductIds');
  expect(res.status).toBe(401);
});
