import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewDto } from '../../src/server/schemas.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

type Review = ReviewDto;

let api: TestApi;
let productId: number;
beforeAll(async () => {
  api = await startTestApi();
  const hot = (await (await api.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number }[];
  productId = hot[0]!.id;
});
afterAll(async () => api?.close());

describe('reviews', () => {
  it('stores a review posted without an auth header and lists it first', async () => {
    const res = await api.post('/api/Reviews', {
      title: '  Meera ',
      description: 'Fresh and well packed.',
      stars: 5,
      productsId: productId,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Review;
    expect(created).toMatchObject({ title: 'Meera', description: 'Fresh and well packed.', stars: 5, productsId: productId });
    expect(Number.isNaN(Date.parse(created.updatedAt))).toBe(false);
    const list = (await (await api.get(`/api/Reviews/${productId}`)).json()) as Review[];
    expect(list[0]).toEqual(created);
  });

  it('keeps review text as plain text', async () => {
    const text = '<script>alert(1)</script> & "quotes"';
    const res = await api.post('/api/Reviews', { title: 'Ravi', description: text, stars: 3, productsId: productId });
    expect(((await res.json()) as Review).description).toBe(text);
  });

  it.each([
    [{ title: 'A', description: 'Good stuff', stars: 4 }, 'name must be at least 2 characters'],
    [{ title: 'Asha', description: '', stars: 4 }, 'comment must be at least 3 characters'],
    [{ title: 'Asha', description: 'x'.repeat(1001), stars: 4 }, 'comment must be at most 1000 characters'],
    [{ title: 'Asha', description: 'Good stuff', stars: 6 }, 'stars must be from 1 to 5'],
    [{ title: 'Asha', description: 'Good stuff', stars: 0 }, 'stars must be from 1 to 5'],
    [{ title: 'Asha', description: 'Good stuff', stars: 2.5 }, 'stars must be a whole number from 1 to 5'],
    [{ description: 'Good stuff', stars: 4 }, 'name is required'],
  ])('rejects %o with 400: %s', async (partial, message) => {
    const res = await api.post('/api/Reviews', { productsId: productId, ...partial });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message });
  });

  it.each([
    [{ title: 'Asha', description: 'Good stuff', stars: 4, productsId: 1e12 }, 'productsId is too large'],
    [{ title: 'Asha', description: 'Good\u0000stuff', stars: 4 }, 'comment must not contain control characters'],
    [{ title: 'As\u0000ha', description: 'Good stuff', stars: 4 }, 'name must not contain control characters'],
  ])('rejects what the database could not store, %o, with 400', async (body, message) => {
    const res = await api.post('/api/Reviews', { productsId: productId, ...body });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
  });

  it.each([
    [{ title: 'Asha', description: 'Good \u0001\u001b[31mstuff', stars: 4 }, 'comment must not contain control characters'],
    [{ title: 'Asha', description: 'Good stuff\u007f', stars: 4 }, 'comment must not contain control characters'],
    [{ title: 'As\u001bha', description: 'Good stuff', stars: 4 }, 'name must not contain control characters'],
    [{ title: 'As\tha', description: 'Good stuff', stars: 4 }, 'name must not contain control characters'],
  ])('refuses control characters, %o, with 400 and stores nothing', async (body, message) => {
    const before = ((await (await api.get(`/api/Reviews/${productId}`)).json()) as Review[]).length;
    const res = await api.post('/api/Reviews', { productsId: productId, ...body });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
    expect(((await (await api.get(`/api/Reviews/${productId}`)).json()) as Review[]).length).toBe(before);
  });

  it('keeps line breaks and tabs in a comment', async () => {
    const description = 'Fresh.\r\nWell packed.\n\tWill buy again.';
    const res = await api.post('/api/Reviews', { title: 'Kiran', description, stars: 4, productsId: productId });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Review).description).toBe(description);
  });

  it('answers 413 for a body over 16 KB', async () => {
    const res = await api.post('/api/Reviews', { title: 'Asha', description: 'x'.repeat(20_000), stars: 4, productsId: productId });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('payload_too_large');
  });

  it('answers 404 for a review of an unknown product', async () => {
    const res = await api.post('/api/Reviews', { title: 'Asha', description: 'Good stuff', stars: 4, productsId: 999999 });
    expect(res.status).toBe(404);
    expect((await api.get('/api/Reviews/999999')).status).toBe(404);
  });

  it('answers 400, never 500, for a body that is not JSON', async () => {
    const res = await api.post('/api/Reviews', '{not json');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('bad_request');
  });
});

describe('the API as a whole', () => {
  it('serves an OpenAPI document that lists every catalogue path', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/api/app/Brands/LoadBrandsByPriority',
      '/api/app/Products/SearchProducts/{text}',
      '/api/app/Products/LoadProductsByPriorityTag',
      '/api/app/Products/{id}',
      '/api/app/Categories/LoadCategoriesByPriority',
      '/api/app/ProductSEOs/{proid}',
      '/api/Reviews/{proid}',
      '/api/Reviews',
      '/api/app/ProductVariants/{proid}',
      '/api/app/ProductVariantPrices/{proid}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });

  it.each(['/api/app/Products/SearchProducts/%E0%A4', '/api/%zz', '/api/Reviews/1%', '/api/app/Brands/LoadBrandsByPriority?skip=%zz'])(
    'answers an address with a broken %%-escape, %s, with a JSON 400',
    async (path) => {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await errorOf(res)).toEqual({ code: 'bad_request', message: 'The address has a broken %-escape. Please check the link.' });
    },
  );

  it('answers unknown routes with a JSON 404', async () => {
    const res = await api.get('/api/app/Nothing/Here');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
  });
});
