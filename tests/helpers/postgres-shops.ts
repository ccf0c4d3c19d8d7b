// Set-ups on the test's PostgreSQL server (`npm run test:pg`): two built shops on one new database, as two instances
// behind a load balancer; and pay-now orders awaiting their payment, for the races of several shops over them.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';
import { STALE_CHANNEL } from '../../src/server/cache/invalidation-bus.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { deliverySlots, orderEvents, orderLines, orders, products, users } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { createServerDatabase, plainProductIds } from '../api/harness.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** TEST_DATABASE_URL, which `npm run test:pg` sets. */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');
  return url;
}

/** Resolves once `count` shops LISTEN on the bus's channel of the database (pg_stat_activity shows the bus's
 * connection once its LISTEN, or a later notification it sent, was its last query). */
async function busesListening(serverUrl: string, databaseUrl: string, count: number, withinMs = 20_000) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const until = Date.now() + withinMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = $1 and application_name like 'kirana-stale-bus %' and (query = $2 or query like 'select pg_notify%')`,
        [new URL(databaseUrl).pathname.slice(1), `LISTEN ${STALE_CHANNEL}`],
      );
      if (rows[0]!.n >= count) return;
      if (Date.now() > until) throw new Error(`only ${rows[0]!.n} of ${count} shops listen on ${STALE_CHANNEL}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

export interface TwoShops {
  /** The database both run on. */
  url: string;
  a: BuiltServer;
  b: BuiltServer;
  /** Stops both shops and drops the database. */
  stop: () => Promise<void>;
}

/**
 * Two built shops (dist/, through scripts/serve.ts) on a new database of the test's server, their page and read caches
 * on (60 s, set so a caller's environment cannot turn them off), both listening on the invalidation bus. `env`: what
 * every instance must share (JWT_SECRET, GROCER_TOKEN: README's settings table).
 */
export async function twoShopsOnPostgres(serverUrl: string, env: Record<string, string>): Promise<TwoShops> {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first.');
  const database = await createServerDatabase(serverUrl);
  const startShop = () =>
    startBuiltServer({
      timeoutMs: 60_000,
      env: { DATABASE_URL: database.url, PAGE_CACHE_SECONDS: '60', READ_CACHE_SECONDS: '60', SHUTDOWN_GRACE_SECONDS: '0', ...env },
    });
  const started: BuiltServer[] = [];
  const stop = async () => {
    await Promise.allSettled(started.map((shop) => shop.stop()));
    await database.drop();
  };
  try {
    // One after the other: A migrates and seeds the empty database, B finds it ready.
    started.push(await startShop());
    started.push(await startShop());
    await busesListening(serverUrl, database.url, 2);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: database.url, a: started[0]!, b: started[1]!, stop };
}

export interface UnpaidOrders {
  /** Two pools on the database, as two shop processes would have. */
  one: DatabaseHandle;
  other: DatabaseHandle;
  orderIds: number[];
  /** The plain product each order holds one unit of. */
  productId: number;
  close: () => Promise<void>;
}

/**
 * A new database of the test's server with `count` pay-now orders in one slot (`slot`, from `startsAt`, 2 hours, 100
 * places), each awaiting its payment until `due` and holding one unit of a plain product (of `stock`) and one place,
 * as placeOrder leaves them; shared out among `shoppers` shoppers.
 */
export async function unpaidOrdersOnPostgres(
  serverUrl: string,
  { count, slot, startsAt, due, stock, shoppers = 1, keyPrefix }: { count: number; slot: string; startsAt: Date; due: Date; stock: number; shoppers?: number; keyPrefix: string },
): Promise<UnpaidOrders> {
  const database = await createServerDatabase(serverUrl);
  const one = await openDatabase({ kind: 'postgres', url: database.url });
  const other = await openDatabase({ kind: 'postgres', url: database.url });
  const close = async () => {
    await one.close();
    await other.close();
    await database.drop();
  };
  const { db } = one;
  await seedCatalogue(db, { products: 10 });
  const productId = (await plainProductIds(db))[0]!;
  await db.update(products).set({ stock: stock - count }).where(eq(products.id, productId));
  await db.insert(deliverySlots).values({ id: slot, startsAt, endsAt: new Date(startsAt.getTime() + 2 * 3_600_000), capacity: 100, taken: count });
  const shopperIds = await db
    .insert(users)
    .values(Array.from({ length: shoppers }, (_, i) => ({ name: 'Meera Iyer', email: `meera${i || ''}@example.in`, phone: `984501234${i + 5}`, passwordHash: 'not used here' })))
    .returning({ id: users.id });
  const placed = await db
    .insert(orders)
    .values(
      Array.from({ length: count }, (_, i) => ({
        userId: shopperIds[i % shopperIds.length]!.id,
        paymentMethod: 'upi_now' as const,
        paymentStatus: 'awaiting' as const,
        paymentDueAt: due,
        slotId: slot,
        address: { name: 'Meera Iyer', phone: '9845012345', line1: '12, 4th Cross', line2: '', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560011' },
        subtotalPaise: 10_000,
        mrpTotalPaise: 10_000,
        discounts: [],
        discountPaise: 0,
        deliveryPaise: 0,
        totalPaise: 10_000,
        idempotencyKey: `${keyPrefix}-${i}`,
        requestHash: 'test',
      })),
    )
    .returning({ id: orders.id });
  const orderIds = placed.map((o) => o.id);
  await db.insert(orderLines).values(orderIds.map((orderId) => ({ orderId, productId, name: 'Toor Dal', unitPricePaise: 10_000, unitMrpPaise: 10_000, qty: 1, lineTotalPaise: 10_000 })));
  await db.insert(orderEvents).values(orderIds.map((orderId) => ({ orderId, status: 'placed' as const })));
  return { one, other, orderIds, productId, close };
}
