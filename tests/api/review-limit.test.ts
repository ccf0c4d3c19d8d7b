import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
let productId: number;
beforeAll(async () => {
  api = await startTestApi({ reviewLimit: { writes: 2, windowSeconds: 600 } });
  const hot = (await (await api.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number }[];
  productId = hot[0]!.id;
});
afterAll(async () => api?.close());

describe('POST /api/Reviews rate limit', () => {
  it('answers 429 with Retry-After past the limit, for that address only', async () => {
    const review = { title: 'Gopal', description: 'Good quality, fair price.', stars: 4, productsId: productId };
    const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip });
    expect((await api.post('/api/Reviews', review, from('10.1.0.1'))).status).toBe(201);
    expect((await api.post('/api/Reviews', review, from('10.1.0.1'))).status).toBe(201);
    const limited = await api.post('/api/Reviews', review, from('10.1.0.1'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(limited)).message).toBe('Too many reviews. Please try again in 10 minutes.');
    expect((await api.post('/api/Reviews', review, from('10.1.0.2'))).status).toBe(201);
  });
});
