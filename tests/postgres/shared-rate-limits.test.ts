// Two shop instances on one PostgreSQL database (issue 23, "Shared limits"): each opens its own pool and makes its own
// API, as two processes behind a load balancer would, and a limit holds across both instead of doubling.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Context } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { createApp } from '../../src/server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { outboxMailer } from '../../src/server/mail.ts';
import { keyedLimiter, limiterStoreFor, sharedLimiterStore, targetLimiter } from '../../src/server/rate-limit.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { outboxSms } from '../../src/server/sms.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { createServerDatabase, errorOf, TEST_SCRYPT } from '../api/harness.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');

interface Instance {
  handle: DatabaseHandle;
  baseUrl: string;
  server: ServerType;
}

const outboxRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-shared-limits-'));
const errors: unknown[] = [];
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let instances: Instance[] = [];

/** One instance: its own pool on the shared database, its own API with the store runtime.ts gives it, its own port. */
async function startInstance(url: string): Promise<Instance> {
  const handle = await openDatabase({ kind: 'postgres', url });
  const app = createApp({
    db: handle.db,
    logError: (e) => errors.push(e),
    store: readStoreSettings(),
    rateLimits: limiterStoreFor(handle),
    accounts: {
      jwtSecret: 'the-same-secret-on-every-instance-0123',
      mailer: outboxMailer(path.join(outboxRoot, 'outbox'), 'Kirana <shop@example.in>', () => {}),
      sms: outboxSms(path.join(outboxRoot, 'sms-outbox'), () => {}),
      linkOrigin: 'https://shop.example.in',
      limits: { perAddress: { writes: 4, windowSeconds: 600 }, perAccount: { writes: 1000, windowSeconds: 600 } },
      passwordCost: TEST_SCRYPT,
    },
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  return { handle, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  database = await createServerDatabase(serverUrl);
  instances = [await startInstance(database.url), await startInstance(database.url)];
  await seedCatalogue(instances[0]!.handle.db, { products: 10 });
});

afterAll(async () => {
  for (const { server, handle } of instances) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await handle.close();
  }
  await database?.drop();
  fs.rmSync(outboxRoot, { recursive: true, force: true });
  expect(errors.map(String)).toEqual([]);
});

const post = (instance: Instance, route: string, body: unknown, ip: string) =>
  fetch(instance.baseUrl + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: ip },
    body: JSON.stringify(body),
  });

const wrongSignIn = (instance: Instance, ip: string, n: number) =>
  post(instance, '/api/Authenticate/Login', { login: `nobody${n}@example.in`, password: 'guess-guess-1' }, ip);

describe('rate limits shared by two instances on one PostgreSQL database', () => {
  it('counts sign-in failures from one address across both: 4 allowed, 2 through each, and the 5th is a 429 on either', async () => {
    const [a, b] = instances as [Instance, Instance];
    const ip = '10.23.0.1';
    expect((await wrongSignIn(a, ip, 1)).status).toBe(401);
    expect((await wrongSignIn(b, ip, 2)).status).toBe(401);
    expect((await wrongSignIn(a, ip, 3)).status).toBe(401);
    expect((await wrongSignIn(b, ip, 4)).status).toBe(401);
    for (const instance of [a, b]) {
      const res = await wrongSignIn(instance, ip, 5);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(500);
      expect(await errorOf(res)).toMatchObject({ code: 'too_many_requests', message: expect.stringMatching(/^Too many sign-in attempts/) });
    }
    // Another address is not held back.
    expect((await wrongSignIn(b, '10.23.0.2', 6)).status).toBe(401);
  });

  it('lets no more through than the limit when calls race on both instances at once', async () => {
    const [a, b] = instances as [Instance, Instance];
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, n) => wrongSignIn(n % 2 ? a : b, '10.23.3.1', 40 + n).then((res) => res.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
  });

  it('keeps each limiter’s keys apart: the same address still registers and writes to the shop', async () => {
    const [a, b] = instances as [Instance, Instance];
    const ip = '10.23.1.1';
    for (let n = 0; n < 5; n++) await wrongSignIn(n % 2 ? a : b, ip, 10 + n);
    expect((await wrongSignIn(a, ip, 20)).status).toBe(429);
    const register = await post(b, '/api/Authenticate/Register', { name: 'Meera Iyer', email: 'meera.shared@example.in', phone: '9812345670', password: 'tamarind-rice-42' }, ip);
    expect(register.status, await register.text()).toBe(202);
    const message = { name: 'Meera Iyer', email: 'meera.shared@example.in', message: 'Do you deliver to Jayanagar on Sundays?' };
    expect((await post(a, '/api/app/ContactMessages', message, ip)).status).toBe(201);
    const keys = (await instances[0]!.handle.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining([`login:address:${ip}`, `register:address:${ip}`, `contact:${ip}`]));
  });

  it('sees on one instance a point given back on the other (as a sign-in that succeeds gives back its address’s point)', async () => {
    const store = (i: number) => limiterStoreFor(instances[i]!.handle);
    const limit = { writes: 2, windowSeconds: 600 };
    const onA = keyedLimiter(limit, 'tries', { store: store(0), name: 'refund-test' });
    const onB = keyedLimiter(limit, 'tries', { store: store(1), name: 'refund-test' });
    const c = { header: () => {} } as unknown as Parameters<typeof onA>[0];
    await onA(c, 'shopper');
    await onB(c, 'shopper');
    await expect(onA(c, 'shopper')).rejects.toMatchObject({ status: 429 });
    // The refused call counted too (3); two points given back on B leave room for exactly one more call on A.
    await onB.refund('shopper');
    await onB.refund('shopper');
    await expect(onA(c, 'shopper')).resolves.toBeUndefined();
    await expect(onB(c, 'shopper')).rejects.toMatchObject({ status: 429 });
  });
});

describe('a limit on a target shared by two instances (issue 32)', () => {
  it("counts a number's wrong codes from every network on both, and past the ceiling refuses only networks that failed", async () => {
    const store = (i: number) => limiterStoreFor(instances[i]!.handle);
    const limits = { perSource: { writes: 5, windowSeconds: 600 }, ceiling: { writes: 3, windowSeconds: 600 } };
    const onA = targetLimiter(limits, 'wrong codes', { store: store(0), name: 'ceiling-test' });
    const onB = targetLimiter(limits, 'wrong codes', { store: store(1), name: 'ceiling-test' });
    const c = { header: () => {} } as unknown as Context;
    for (const [instance, network] of [[onA, 'net-1'], [onB, 'net-2'], [onA, 'net-3']] as const) {
      await instance.attempt(c, network, '9812345670');
      await instance.failed(network, '9812345670');
    }
    await expect(onB.attempt(c, 'net-1', '9812345670')).rejects.toMatchObject({ status: 429 });
    await expect(onA.attempt(c, 'net-2', '9812345670')).rejects.toMatchObject({ status: 429 });
    // A network that never failed on the number, its owner's, is not held back; another number is not either.
    await expect(onB.attempt(c, 'net-owner', '9812345670')).resolves.toBeUndefined();
    await expect(onA.attempt(c, 'net-1', '9812345671')).resolves.toBeUndefined();
  });
});

describe('a shared store that cannot reach its table', () => {
  it('counts in the process instead, and logs why', async () => {
    const handle = await openDatabase({ kind: 'postgres', url: database.url });
    await handle.close();
    const logged: unknown[] = [];
    const limit = keyedLimiter({ writes: 2, windowSeconds: 60 }, 'tries', { store: sharedLimiterStore(handle.db, (e) => logged.push(e)) });
    const c = { header: () => {} } as unknown as Parameters<typeof limit>[0];
    await limit(c, 'someone');
    await limit(c, 'someone');
    await expect(limit(c, 'someone')).rejects.toMatchObject({ status: 429 });
    expect(logged.length).toBe(3);
    const error = logged[0] as Error;
    expect(error.message).toMatch(/^the shared rate limits could not be read/);
    // The database's reason, without the query's parameters (the address or email limited).
    expect(String(error.cause)).toMatch(/pool/i);
    expect(String(error.cause)).not.toMatch(/someone/);
  });

  it('refuses two limiters under one name, whose counts would mix', () => {
    const store = limiterStoreFor(instances[0]!.handle);
    keyedLimiter({ writes: 2, windowSeconds: 60 }, 'password changes', { store, name: 'reset:address' });
    expect(() => keyedLimiter({ writes: 2, windowSeconds: 60 }, 'password changes', { store, name: 'reset:address' })).toThrow(/named 'reset:address'/);
  });
});
