import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDto, SuggestionDto } from '../../src/server/schemas.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

type Suggestion = SuggestionDto;
type Product = ProductDto;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const suggestions = async (text: string) =>
  (await (await api.get(`/api/app/Products/SearchProducts/${encodeURIComponent(text)}`)).json()) as Suggestion[];

describe('GET /api/app/Products/SearchProducts/{text}', () => {
  it('suggests products whose names contain the text', async () => {
    const found = await suggestions('tomato');
    const products = found.filter((s) => s.type === 'products');
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((s) => /tomato/i.test(s.name))).toBe(true);
  });

  it.each([
    ['tomatoe', /tomato/i],
    ['buter', /butter/i],
  ])('is typo-tolerant: %s finds %s', async (typo, expected) => {
    const found = await suggestions(typo);
    expect(found.some((s) => s.type === 'products' && expected.test(s.name))).toBe(true);
  });

  it('suggests brands and categories with their types and ids', async () => {
    const brand = ((await (await api.get('/api/app/Brands/LoadBrandsByPriority?take=1')).json()) as { id: number; name: string }[])[0]!;
    const byBrand = await suggestions(brand.name.toLowerCase());
    expect(byBrand).toContainEqual({ id: brand.id, name: brand.name, type: 'Brand' });
    const category = ((await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=1')).json()) as { id: string; name: string }[])[0]!;
    const byCategory = await suggestions(category.name.toLowerCase());
    expect(byCategory).toContainEqual({ id: category.id, name: category.name, type: 'Category' });
  });

  it('is case-insensitive and returns at most 10', async () => {
    const lower = await suggestions('rice');
    const upper = await suggestions('RICE');
    expect(upper).toEqual(lower);
    expect(lower.length).toBeLessThanOrEqual(10);
  });

  it('returns an empty list for text that matches nothing', async () => {
    expect(await suggestions('qqqzzzxxx')).toEqual([]);
  });

  it('treats LIKE wildcards as plain text', async () => {
    expect(await suggestions('%%%')).toEqual([]);
  });

  it('rejects a NUL character with 400 rather than failing in the database', async () => {
    const res = await api.get('/api/app/Products/SearchProducts/a%00b');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('search text must not contain control characters');
    expect((await api.get('/api/app/Products/SearchResults/a%00b')).status).toBe(400);
  });

  it('rejects blank and over-long text with 400', async () => {
    const blank = await api.get('/api/app/Products/SearchProducts/%20%20');
    expect(blank.status).toBe(400);
    expect((await errorOf(blank)).message).toBe('search text must not be empty');
    const long = await api.get(`/api/app/Products/SearchProducts/${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect((await errorOf(long)).message).toBe('search text must be at most 100 characters');
  });
});

describe('GET /api/app/Products/SearchResults/{text}', () => {
  it('lists matching products best first, typo-tolerant, paged with a total', async () => {
    const res = await api.get('/api/app/Products/SearchResults/buter?pageSize=2');
    expect(res.status).toBe(200);
    const products = (await res.json()) as Product[];
    expect(products.length).toBeGreaterThan(0);
    expect(products[0]!.name).toMatch(/butter/i);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(products.length);
  });

  it('answers 404 "No Products found" when nothing matches', async () => {
    const res = await api.get('/api/app/Products/SearchResults/qqqzzzxxx');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe('No Products found');
  });
});
