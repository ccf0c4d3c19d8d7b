import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../../src/server/db/schema.ts';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ contactLimit: { writes: 3, windowSeconds: 600 } });
});
afterAll(async () => api?.close());

const valid = { name: 'Anita Rao', email: 'anita@example.in', phone: '+91 98450 12345', message: 'My order arrived without the curd. Please help.' };
const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip });

describe('POST /api/app/ContactMessages', () => {
  it('stores a message and answers 201 with a receipt', async () => {
    const res = await api.post('/api/app/ContactMessages', valid, from('10.0.0.1'));
    expect(res.status).toBe(201);
    const receipt = (await res.json()) as { id: number; receivedAt: string };
    expect(receipt.id).toBeGreaterThan(0);
    const rows = await api.db
      .select({ name: contactMessages.name, email: contactMessages.email, phone: contactMessages.phone, message: contactMessages.message })
      .from(contactMessages)
      .where(eq(contactMessages.id, receipt.id));
    expect(rows).toEqual([{ name: valid.name, email: valid.email, phone: valid.phone, message: valid.message }]);
  });

  it.each([
    [{ ...valid, name: 'A' }, 'name must be at least 2 characters'],
    [{ ...valid, email: 'not-an-email' }, 'email must be a valid email address'],
    [{ ...valid, phone: 'call me' }, 'phone must be digits, spaces or dashes'],
    [{ ...valid, message: 'Hi' }, 'message must be at least 10 characters'],
    [{ ...valid, message: 'x'.repeat(2001) }, 'message must be at most 2000 characters'],
    [{ name: valid.name, email: valid.email }, 'message is required'],
    [{ ...valid, name: 'Anita\u001b[31m Rao' }, 'name must not contain control characters'],
    [{ ...valid, message: 'My order arrived \u0001without the curd.' }, 'message must not contain control characters'],
    [{ ...valid, message: 'My order arrived without the curd.\u007f' }, 'message must not contain control characters'],
  ])('rejects %o with 400: %s', async (body, message) => {
    const res = await api.post('/api/app/ContactMessages', body, from('10.0.0.2'));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message });
  });

  it('answers 429 with Retry-After past the limit, for that address only', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await api.post('/api/app/ContactMessages', valid, from('10.0.0.3'))).status).toBe(201);
    }
    const limited = await api.post('/api/app/ContactMessages', valid, from('10.0.0.3'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(limited)).code).toBe('too_many_requests');
    expect((await api.post('/api/app/ContactMessages', valid, from('10.0.0.4'))).status).toBe(201);
  });
});
