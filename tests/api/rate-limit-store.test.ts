// On the embedded database (PGlite: one process) the rate limits stay in memory, as before issue 23: the shop's API
// gets the memory store, limits as it did, and writes nothing to the shared table that PostgreSQL instances use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { createApp } from '../../src/server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { outboxMailer } from '../../src/server/mail.ts';
import { limiterStoreFor, memoryLimiterStore } from '../../src/server/rate-limit.ts';
import { outboxSms } from '../../src/server/sms.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { TEST_SCRYPT } from './harness.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  // PGlite whatever TEST_DATABASE_URL says: this file is about the embedded database.
  handle = await openDatabase({ kind: 'pglite' });
});
afterAll(async () => handle?.close());

describe('rate limits on the embedded database', () => {
  it('are counted in memory, and hold as before: 4 sign-in failures from one address, then a 429', async () => {
    const errors: unknown[] = [];
    const rateLimits_ = limiterStoreFor(handle);
    expect(rateLimits_).toBe(memoryLimiterStore);
    const app = createApp({
      db: handle.db,
      logError: (e) => errors.push(e),
      store: readStoreSettings(),
      rateLimits: rateLimits_,
      accounts: {
        jwtSecret: 'a-test-secret-of-the-embedded-shop',
        mailer: outboxMailer('/nonexistent/outbox', 'Kirana <shop@example.in>', () => {}),
        sms: outboxSms('/nonexistent/sms-outbox', () => {}),
        linkOrigin: 'https://shop.example.in',
        limits: { perAddress: { writes: 4, windowSeconds: 600 }, perAccount: { writes: 1000, windowSeconds: 600 } },
        passwordCost: TEST_SCRYPT,
      },
    });
    const signIn = (n: number) =>
      app.request('/api/Authenticate/Login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: '10.23.9.1' },
        body: JSON.stringify({ login: `nobody${n}@example.in`, password: 'guess-guess-1' }),
      });
    for (let n = 0; n < 4; n++) expect((await signIn(n)).status).toBe(401);
    const refused = await signIn(4);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(await handle.db.select().from(rateLimits)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
