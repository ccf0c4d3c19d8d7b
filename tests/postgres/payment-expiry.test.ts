// Paying now on one PostgreSQL shared by several shop processes (issue 25): two shops' expiry runs and the grocer's
// confirmations race over the same unpaid orders, each on its own pool (as two processes would be). Every order ends
// either paid (still placed, its stock and slot place held) or expired (cancelled, both given back), never both; no
// order is expired twice, and the stock and the slot's places add up.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { deliverySlots, orderEvents, orderLines, orders, products, users } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { confirmPayment, expireUnpaidOrders } from '../../src/server/services/payments.ts';
import { ApiError } from '../../src/server/errors.ts';
import { createServerDatabase, plainProductIds } from '../api/harness.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');

const ORDERS = 30;
const STOCK = 1_000;
const SLOT = '2026-11-23T12:00';
const DUE = new Date('2026-11-23T02:30:00Z');
const LATE = new Date(DUE.getTime() + 60_000);

let database: Awaited<ReturnType<typeof createServerDatabase>>;
let one: DatabaseHandle;
let other: DatabaseHandle;
let productId = 0;
let orderIds: number[] = [];

beforeAll(async () => {
  database = await createServerDatabase(serverUrl);
  one = await openDatabase({ kind: 'postgres', url: database.url });
  other = await openDatabase({ kind: 'postgres', url: database.url });
  const { db } = one;
  await seedCatalogue(db, { products: 10 });
  productId = (await plainProductIds(db))[0]!;
  // As placeOrder leaves them: each order holds one unit and one place in the slot.
  await db.update(products).set({ stock: STOCK - ORDERS }).where(eq(products.id, productId));
  await db.insert(deliverySlots).values({
    id: SLOT,
    startsAt: new Date('2026-11-23T06:30:00Z'),
    endsAt: new Date('2026-11-23T08:30:00Z'),
    capacity: 100,
    taken: ORDERS,
  });
  const [user] = await db.insert(users).values({ name: 'Meera Iyer', email: 'meera@example.in', phone: '9845012345', passwordHash: 'not used here' }).returning({ id: users.id });
  const placed = await db
    .insert(orders)
    .values(
      Array.from({ length: ORDERS }, (_, i) => ({
        userId: user!.id,
        paymentMethod: 'upi_now' as const,
        paymentStatus: 'awaiting' as const,
        paymentDueAt: DUE,
        slotId: SLOT,
        address: { name: 'Meera Iyer', phone: '9845012345', line1: '12, 4th Cross', line2: '', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560011' },
        subtotalPaise: 10_000,
        mrpTotalPaise: 10_000,
        discounts: [],
        discountPaise: 0,
        deliveryPaise: 0,
        totalPaise: 10_000,
        idempotencyKey: `pay-now-race-${i}`,
        requestHash: 'test',
      })),
    )
    .returning({ id: orders.id });
  orderIds = placed.map((o) => o.id);
  await db.insert(orderLines).values(orderIds.map((orderId) => ({ orderId, productId, name: 'Toor Dal', unitPricePaise: 10_000, unitMrpPaise: 10_000, qty: 1, lineTotalPaise: 10_000 })));
  await db.insert(orderEvents).values(orderIds.map((orderId) => ({ orderId, status: 'placed' as const })));
}, 120_000);

afterAll(async () => {
  await one?.close();
  await other?.close();
  await database?.drop();
});

it('two shops expiring and the grocer confirming at once: each order paid or expired, once', async () => {
  const confirming = orderIds.filter((_, i) => i % 3 === 0);
  const [expiredByOne, expiredByOther, ...confirmations] = await Promise.allSettled([
    expireUnpaidOrders(one.db, LATE),
    expireUnpaidOrders(other.db, LATE),
    ...confirming.map((id, i) => confirmPayment((i % 2 ? one : other).db, id, { now: LATE })),
  ]);
  if (expiredByOne.status !== 'fulfilled' || expiredByOther.status !== 'fulfilled') throw new Error('an expiry run failed');
  const expired = [...expiredByOne.value, ...expiredByOther.value].map((e) => e.orderId);
  // No order expired twice.
  expect(new Set(expired).size).toBe(expired.length);

  const rows = await one.db
    .select({ id: orders.id, status: orders.status, paymentStatus: orders.paymentStatus, cancelledBy: orders.cancelledBy, paidAt: orders.paidAt })
    .from(orders)
    .where(inArray(orders.id, orderIds));
  const paid = rows.filter((r) => r.paymentStatus === 'paid');
  for (const row of rows) {
    if (row.paymentStatus === 'paid') expect(row).toMatchObject({ status: 'placed', cancelledBy: null });
    else expect(row).toMatchObject({ status: 'cancelled', paymentStatus: 'expired', cancelledBy: 'payment_expired', paidAt: null });
  }
  expect(new Set(expired)).toEqual(new Set(rows.filter((r) => r.paymentStatus === 'expired').map((r) => r.id)));
  // A confirmation either won (its order is paid) or was refused with a 409 (its order had expired).
  confirmations.forEach((result, i) => {
    const row = rows.find((r) => r.id === confirming[i])!;
    if (result.status === 'fulfilled') expect(row.paymentStatus).toBe('paid');
    else expect([result.reason instanceof ApiError && result.reason.status, row.paymentStatus]).toEqual([409, 'expired']);
  });
  // Only confirmed orders may be paid; every other order expired.
  expect(paid.every((r) => confirming.includes(r.id))).toBe(true);
  expect(paid.length + expired.length).toBe(ORDERS);

  const [shelf] = await one.db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  const [slot] = await one.db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, SLOT));
  expect(shelf!.stock).toBe(STOCK - paid.length);
  expect(slot!.taken).toBe(paid.length);
  // Nothing is left to expire.
  expect(await expireUnpaidOrders(other.db, LATE)).toEqual([]);
});
