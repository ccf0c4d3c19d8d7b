// Paying now on one PostgreSQL shared by several shop processes (issue 25): two shops' expiry runs and the grocer's
// confirmations race over the same unpaid orders, each on its own pool (as two processes would be). Every order ends
// either paid (still placed, its stock and slot place held) or expired (cancelled, both given back), never both; no
// order is expired twice, and the stock and the slot's places add up.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliverySlots, orders, products } from '../../src/server/db/schema.ts';
import { confirmPayment, expireUnpaidOrders } from '../../src/server/services/payments.ts';
import { ApiError } from '../../src/server/errors.ts';
import { testServerUrl, unpaidOrdersOnPostgres, type UnpaidOrders } from '../helpers/postgres-shops.ts';

const serverUrl = testServerUrl();

const ORDERS = 30;
const STOCK = 1_000;
const SLOT = '2026-11-23T12:00';
const DUE = new Date('2026-11-23T02:30:00Z');
const LATE = new Date(DUE.getTime() + 60_000);

let unpaid: UnpaidOrders;
let one: UnpaidOrders['one'];
let other: UnpaidOrders['other'];
let productId = 0;
let orderIds: number[] = [];

beforeAll(async () => {
  unpaid = await unpaidOrdersOnPostgres(serverUrl, { count: ORDERS, slot: SLOT, startsAt: new Date('2026-11-23T06:30:00Z'), due: DUE, stock: STOCK, keyPrefix: 'pay-now-race' });
  ({ one, other, productId, orderIds } = unpaid);
}, 120_000);

afterAll(async () => unpaid?.close());

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
