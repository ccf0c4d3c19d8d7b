// Each API test file gets its own freshly migrated and seeded database and a real HTTP server on a free port.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pg from 'pg';
import { createApp } from '../../src/server/app.ts';
import { orderNotices } from '../../src/server/services/notices.ts';
import { catalogueReads } from '../../src/server/catalogue-reads.ts';
import { inProcessBus } from '../../src/server/cache/invalidation-bus.ts';
import type { TaggedCache } from '../../src/server/cache/tagged-cache.ts';
import type { WriteLimit } from '../../src/server/rate-limit.ts';
import type { CodeSentDto, RegisterInput, SessionDto } from '../../src/server/account-schemas.ts';
import type { ScryptCost } from '../../src/server/auth/passwords.ts';
import { outboxMailer, type Mail, type Mailer } from '../../src/server/mail.ts';
import { outboxSms, type SmsSender, type TextMessage } from '../../src/server/sms.ts';
import type { AuthLimits } from '../../src/server/routes/auth.ts';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/server/db/client.ts';
import { addresses, products, productVariants } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import type { StoreSettingsData } from '../../src/lib/store-settings-schema.ts';
import { normalizeIndianMobile } from '../../src/lib/form-limits.ts';

export interface TestApi {
  db: Database;
  baseUrl: string;
  get(path: string): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Any method; a `token` is sent as the bearer. */
  call(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Response>;
  /** A call of the grocer's routes (/api/grocer/…) with the `grocerToken` the API was started with. */
  grocer(method: string, route: string, body?: unknown): Promise<Response>;
  /**
   * Registers a shopper (a fresh email and phone unless given) as a browser does, with the code texted to the phone,
   * and returns the session: the number is verified, so the shopper can order.
   */
  register(overrides?: Partial<RegisterInput>, headers?: Record<string, string>): Promise<SessionDto & { password: string }>;
  /** Resolves with the next text message sent to a 10-digit number (also one sent before the call). */
  textTo(phone: string): Promise<TextMessage>;
  /** The one-time code of the next text message sent to a 10-digit number. */
  codeTo(phone: string): Promise<string>;
  /** The folder the text messages are written to. */
  smsOutbox: string;
  /** What the API's writes said they made stale since the last call (src/server/cache/stale-after.ts), oldest first. */
  takeStale(): (readonly string[] | 'all')[];
  /** The access tokens are signed with this. */
  jwtSecret: string;
  /** The folder the reset mails are written to. */
  outbox: string;
  /** Resolves with the next mail sent to `to` (also one sent before the call). */
  mailTo(to: string): Promise<Mail>;
  /** The errors the API logged since the last call (closing fails on any not taken). */
  takeErrors(): unknown[];
  close(): Promise<void>;
}

/** Cheap scrypt for the tests' many sign-ins; tests/api/passwords.test.ts checks the real cost. */
export const TEST_SCRYPT: ScryptCost = { N: 2 ** 12, r: 8, p: 1 };
export const TEST_PASSWORD = 'tamarind-rice-42';

let shopperCount = 0;
/** A fresh, valid registration; ten digits starting with 9, unique within the test file. */
export function newShopper(overrides: Partial<RegisterInput> = {}): RegisterInput & { password: string } {
  shopperCount += 1;
  const n = `${process.pid}${shopperCount}`.slice(-8).padStart(8, '0');
  return { name: 'Meera Iyer', email: `meera.${n}@example.in`, phone: `98${n}`, password: TEST_PASSWORD, ...overrides };
}

/** Creates an empty database on the PostgreSQL server at serverUrl; drop() removes it again. */
export async function createServerDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kirana_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh database: in-memory PGlite, or a new database on the server named by TEST_DATABASE_URL. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { handle: await openDatabase({ kind: 'pglite' }), drop: async () => {} };
  const { url, drop } = await createServerDatabase(serverUrl);
  return { handle: await openDatabase({ kind: 'postgres', url }), drop };
}

export async function startTestApi(
  options: {
    products?: number;
    contactLimit?: WriteLimit;
    reviewLimit?: WriteLimit;
    authLimits?: AuthLimits;
    passwordCost?: ScryptCost;
    linkOrigin?: string;
    /** The offers and delivery rules; store.yaml's unless a test wants its own. */
    store?: StoreSettingsData;
    /** The API's clock for delivery slots. */
    now?: () => Date;
    orderLimit?: WriteLimit;
    /** The read cache the shop runs with; none by default, so tests that change rows directly see them. */
    readCache?: TaggedCache<object>;
    /** The token of the grocer's routes (orders, import); none: they answer 401. */
    grocerToken?: string;
    /** Where the API keeps picture sizes; the system's shared temporary one unless a test looks inside. */
    imageCacheDir?: string;
  } = {},
): Promise<TestApi> {
  const { handle, drop } = await freshDatabase();
  await seedCatalogue(handle.db, { products: options.products ?? 60 });
  const errors: unknown[] = [];
  const jwtSecret = randomBytes(32).toString('base64url');
  const outboxRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-outbox-'));
  const outbox = path.join(outboxRoot, 'outbox');
  const mails = mailRecorder(outboxMailer(outbox, 'Kirana <shop@example.in>', () => {}));
  const smsOutbox = path.join(outboxRoot, 'sms-outbox');
  const texts = textRecorder(outboxSms(smsOutbox, () => {}));
  // What the API's writes make stale, as the shop wires it (src/server/runtime.ts): the read cache forgets it.
  const stale = inProcessBus();
  if (options.readCache) stale.subscribe((tags) => options.readCache!.invalidate(tags));
  let published: (readonly string[] | 'all')[] = [];
  stale.subscribe((tags) => published.push(tags));
  const store = options.store ?? readStoreSettings();
  const linkOrigin = options.linkOrigin ?? 'https://shop.example.in';
  // The shop's notices, kept here so that closing waits for those still being sent, as the shop's close does.
  const notices = orderNotices({ db: handle.db, mailer: mails.mailer, sms: texts.sender, linkOrigin, timeZone: store.delivery.timeZone, textsPerNumberPerHour: store.limits.orderTextsPerNumberPerHour });
  const app = createApp({
    db: handle.db,
    notices,
    logError: (e) => errors.push(e),
    contactLimit: options.contactLimit,
    reviewLimit: options.reviewLimit,
    store,
    now: options.now,
    orderLimit: options.orderLimit,
    catalogue: catalogueReads(handle.db, options.readCache)(),
    stale,
    grocerToken: options.grocerToken,
    imageCacheDir: options.imageCacheDir,
    accounts: {
      jwtSecret,
      mailer: mails.mailer,
      sms: texts.sender,
      linkOrigin,
      // Past the shop's own, so a file's many registrations meet no limit but the one a test sets.
      limits: { textsPerHour: 100_000, textsPerAccount: { writes: 1000, windowSeconds: 60 }, ...(options.authLimits ?? { perAddress: { writes: 1000, windowSeconds: 60 }, perAccount: { writes: 1000, windowSeconds: 60 } }) },
      passwordCost: options.passwordCost ?? TEST_SCRYPT,
    },
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const call: TestApi['call'] = (method, path, { body, token, headers = {} } = {}) =>
    fetch(baseUrl + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    db: handle.db,
    baseUrl,
    call,
    grocer: (method, route, body) => call(method, `/api/grocer/${route}`, { body, headers: { authorization: `Grocer ${options.grocerToken}` } }),
    jwtSecret,
    outbox,
    mailTo: mails.next,
    textTo: texts.next,
    codeTo: (phone) => nextCodeTo(texts.next, phone),
    smsOutbox,
    takeStale: () => published.splice(0),
    takeErrors: () => errors.splice(0),
    register: async (overrides, headers) => {
      const shopper = newShopper(overrides);
      const res = await call('POST', '/api/Authenticate/Register', { body: shopper, headers });
      if (res.status !== 202) throw new Error(`Register answered ${res.status}: ${await res.text()}`);
      const { challenge } = (await res.json()) as CodeSentDto;
      const code = await nextCodeTo(texts.next, normalizeIndianMobile(shopper.phone));
      const verified = await call('POST', '/api/Authenticate/VerifyCode', { body: { phone: shopper.phone, code, challenge }, headers });
      if (verified.status !== 200) throw new Error(`VerifyCode answered ${verified.status}: ${await verified.text()}`);
      return { ...((await verified.json()) as SessionDto), password: shopper.password };
    },
    get: (path) => fetch(baseUrl + path),
    post: (path, body, headers = {}) =>
      fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await notices.drain();
      await handle.close();
      await drop();
      fs.rmSync(outboxRoot, { recursive: true, force: true });
      if (errors.length) throw new Error(`The API logged unexpected errors: ${errors.map(String).join('; ')}`);
    },
  };
}

/** Saves a shopper's default delivery address, inside the shop's delivery area (store.yaml); its id. */
export async function saveHomeAddress(db: Database, userId: number): Promise<number> {
  const [address] = await db
    .insert(addresses)
    .values({ userId, name: 'Meera Iyer', phone: '9876543210', line1: '12, 4th Cross, Jayanagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560011', isDefault: true })
    .returning({ id: addresses.id });
  return address!.id;
}

/** The ids of the plain products (type normal, no pack sizes), in id order: what tests give stock of their own. */
export async function plainProductIds(db: Database): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.type, 'normal'), sql`not exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id})`))
    .orderBy(products.id);
  return rows.map((r) => r.id);
}

/** Reads an error response and checks it is the API's JSON error shape. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`Not an API error body: ${JSON.stringify(body)}`);
  }
  return { code: body.error.code, message: body.error.message };
}


/** The code of the next text to `phone` that carries one: order notices to the same number (issue 25) are passed over. */
async function nextCodeTo(next: (phone: string) => Promise<TextMessage>, phone: string): Promise<string> {
  for (let passed = 0; passed < 20; passed++) {
    const { otp } = (await next(phone)).variables;
    if (otp) return otp;
  }
  throw new Error(`No text with a code came to ${phone} among the next 20`);
}

/** Passes text messages on to `inner` and lets a test await the one sent to a number. */
function textRecorder(inner: SmsSender) {
  const recorder = mailRecorder({ send: async () => {} });
  return {
    sender: {
      async send(message: TextMessage) {
        await inner.send(message);
        await recorder.mailer.send({ to: message.to, subject: '', text: JSON.stringify(message) });
      },
    } satisfies SmsSender,
    next: async (phone: string): Promise<TextMessage> => JSON.parse((await recorder.next(phone)).text) as TextMessage,
  };
}

/** Passes mails on to `inner` and lets a test await the one sent to an address. */
function mailRecorder(inner: Mailer) {
  const sent: Mail[] = [];
  const waiting: Array<{ to: string; resolve: (mail: Mail) => void }> = [];
  return {
    mailer: {
      async send(mail: Mail) {
        await inner.send(mail);
        // A mail goes to the first test waiting for it, else it is kept for the next one that asks: each is read once.
        const waiter = waiting.find((w) => w.to === mail.to);
        if (!waiter) return void sent.push(mail);
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(mail);
      },
    } satisfies Mailer,
    next(to: string): Promise<Mail> {
      const index = sent.findIndex((m) => m.to === to);
      if (index >= 0) return Promise.resolve(sent.splice(index, 1)[0]!);
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
  };
}
