// The shop's read cache (src/server/catalogue-reads.ts on src/server/cache/tagged-cache.ts), as the shop runs it:
// catalogue answers are kept until a write makes them stale (src/server/cache/stale-after.ts); personal answers are
// never kept.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { TaggedCache } from '../../src/server/cache/tagged-cache.ts';
import { products } from '../../src/server/db/schema.ts';
import { startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
const readCache = new TaggedCache<object>({ maxEntries: 1000, ttlSeconds: 60 });
let productId: number;
beforeAll(async () => {
  api = await startTestApi({ readCache });
  const hot = (await (await api.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number }[];
  productId = hot[0]!.id;
});
afterAll(async () => api?.close());

const productName = async (id: number) => ((await (await api.get(`/api/app/Products/${id}`)).json()) as { name: string }).name;
const reviewCount = async (id: number) => ((await (await api.get(`/api/Reviews/${id}`)).json()) as unknown[]).length;

describe('the read cache of catalogue answers', () => {
  it('answers again from memory until a review changes the catalogue, then reads afresh', async () => {
    const name = await productName(productId);
    const reviews = await reviewCount(productId);
    // A change made behind the API's back is not seen while the answers are kept…
    await api.db.update(products).set({ name: 'Renamed Behind The Cache' }).where(eq(products.id, productId));
    expect(await productName(productId)).toBe(name);
    expect(await reviewCount(productId)).toBe(reviews);

    const review = { title: 'Lakshmi', description: 'Fresh and well packed.', stars: 5, productsId: productId };
    const posted = await api.post('/api/Reviews', review, { [CLIENT_IP_HEADER]: '10.9.0.1' });
    expect(posted.status).toBe(201);
    // …and a review makes what shows its product be read again.
    expect(await productName(productId)).toBe('Renamed Behind The Cache');
    expect(await reviewCount(productId)).toBe(reviews + 1);
  });

  it('never keeps a shopper’s own answers, and a write that changes no shelf keeps the cache', async () => {
    await api.get(`/api/app/Products/${productId}`);
    const kept = readCache.size;
    const session = await api.register();
    const cart = await api.call('GET', `/api/app/Carts/GetCartsByUser/${session.user.id}`, { token: session.token });
    expect(cart.status).toBe(200);
    const message = { name: 'Asha', email: 'asha@example.in', subject: 'Hello', message: 'Do you deliver to Baner?' };
    expect((await api.post('/api/app/ContactMessages', message, { [CLIENT_IP_HEADER]: '10.9.0.2' })).status).toBe(201);
    expect(readCache.size).toBe(kept);
  });
});
