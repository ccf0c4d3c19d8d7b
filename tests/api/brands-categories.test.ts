import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryDto } from '../../src/server/schemas.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

describe('GET /api/app/Brands/LoadBrandsByPriority', () => {
  it('returns 16 brands by default, each with id and name', async () => {
    const res = await api.get('/api/app/Brands/LoadBrandsByPriority');
    expect(res.status).toBe(200);
    const brands = (await res.json()) as { id: number; name: string }[];
    expect(brands).toHaveLength(16);
    for (const b of brands) {
      expect(Number.isInteger(b.id)).toBe(true);
      expect(b.name.length).toBeGreaterThan(1);
    }
    expect(res.headers.get('cache-control')).toContain('public');
  });

  it('pages with skip and take without overlap, and returns an empty list past the end', async () => {
    const first = (await (await api.get('/api/app/Brands/LoadBrandsByPriority?skip=0&take=16')).json()) as { id: number }[];
    const second = (await (await api.get('/api/app/Brands/LoadBrandsByPriority?skip=16&take=16')).json()) as { id: number }[];
    expect(second.length).toBeGreaterThan(0);
    const firstIds = new Set(first.map((b) => b.id));
    expect(second.some((b) => firstIds.has(b.id))).toBe(false);
    const past = await api.get('/api/app/Brands/LoadBrandsByPriority?skip=100000&take=16');
    expect(past.status).toBe(200);
    expect(await past.json()).toEqual([]);
  });

  it.each([
    ['skip=-1', 'skip must be at least 0'],
    ['take=0', 'take must be at least 1'],
    ['take=101', 'take must be at most 100'],
    ['take=abc', 'take must be a number'],
    ['skip=1.5', 'skip must be a whole number'],
  ])('rejects %s with 400 and a clear message', async (query, message) => {
    const res = await api.get(`/api/app/Brands/LoadBrandsByPriority?${query}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message });
  });
});

describe('GET /api/app/Categories/LoadCategoriesByPriority', () => {
  type Category = CategoryDto;

  it('returns 24 categories on page 0 with id, name, image and count', async () => {
    const res = await api.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=24&pageNo=0');
    expect(res.status).toBe(200);
    const categories = (await res.json()) as Category[];
    expect(categories).toHaveLength(24);
    for (const c of categories) {
      expect(c.id).toMatch(/^[a-z0-9-]+$/);
      // The seed's drawn tile (categories.image_url); a category without one gets a generated SVG.
      expect(c.image).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
      expect(Number.isInteger(c.count)).toBe(true);
    }
  });

  it('has a second page with the remaining 6 of 30, then an empty page', async () => {
    const page0 = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageNo=0')).json()) as Category[];
    const page1 = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageNo=1')).json()) as Category[];
    const page2 = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageNo=2')).json()) as Category[];
    expect(page0).toHaveLength(24);
    expect(page1).toHaveLength(6);
    expect(page2).toEqual([]);
    const ids = new Set([...page0, ...page1].map((c) => c.id));
    expect(ids.size).toBe(30);
  });

  it('answers X-Total-Count like the product listings, past the end too', async () => {
    for (const pageNo of [0, 1, 2]) {
      const res = await api.get(`/api/app/Categories/LoadCategoriesByPriority?pageNo=${pageNo}`);
      expect(res.headers.get('x-total-count'), `page ${pageNo}`).toBe('30');
    }
  });

  it('counts the products of each category', async () => {
    const categories = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as Category[];
    const total = categories.reduce((sum, c) => sum + c.count, 0);
    expect(total).toBe(60);
    const withProducts = categories.find((c) => c.count > 0)!;
    const listing = await api.get(`/api/app/Products/LoadProductsByCategory/${withProducts.id}?pageSize=100`);
    expect(((await listing.json()) as unknown[]).length).toBe(withProducts.count);
  });

  it.each([
    ['pageNo=-1', 'pageNo must be at least 0'],
    ['pageSize=0', 'pageSize must be at least 1'],
    ['pageSize=500', 'pageSize must be at most 100'],
    ['pageNo=x', 'pageNo must be a number'],
  ])('rejects %s with 400', async (query, message) => {
    const res = await api.get(`/api/app/Categories/LoadCategoriesByPriority?${query}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
  });
});
