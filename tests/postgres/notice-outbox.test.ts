// The notices' outbox on one PostgreSQL shared by several shop processes (issue 33): the orders two shops' payment
// expiries cancelled recorded their notices in the same transactions; then both shops' drainers (each on its own pool,
// as two processes would be, two runs at once in each) race over the pending rows. FOR UPDATE SKIP LOCKED and the
// claim's lease keep any two from taking the same row: every notice is mailed once, none twice, none left.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import { orderNotices as noticeRows } from '../../src/server/db/schema.ts';
import type { Mail } from '../../src/server/mail.ts';
import { orderNotices } from '../../src/server/services/notices.ts';
import { expireUnpaidOrders } from '../../src/server/services/payments.ts';
import { testServerUrl, unpaidOrdersOnPostgres, type UnpaidOrders } from '../helpers/postgres-shops.ts';

const serverUrl = testServerUrl();

const ORDERS = 30;
const SLOT = '2026-11-23T12:00';
const DUE = new Date('2026-11-23T02:30:00Z');

let unpaid: UnpaidOrders;
let one: DatabaseHandle;
let other: DatabaseHandle;
let orderIds: number[] = [];

beforeAll(async () => {
  // A few shoppers, so the claims do not all wait on one shopper's row (its texts are counted under its lock).
  unpaid = await unpaidOrdersOnPostgres(serverUrl, { count: ORDERS, slot: SLOT, startsAt: new Date('2026-11-23T06:30:00Z'), due: DUE, stock: 100 + ORDERS, shoppers: 5, keyPrefix: 'outbox-race' });
  ({ one, other, orderIds } = unpaid);
}, 120_000);

afterAll(async () => unpaid?.close());

/** A shop process's notices on its own pool, its mails kept in memory. */
function shop(handle: DatabaseHandle) {
  const mails: Mail[] = [];
  const notices = orderNotices({
    db: handle.db,
    mailer: { send: async (mail) => void mails.push(mail) },
    sms: { send: async () => {} },
    linkOrigin: 'https://shop.example.in',
    timeZone: 'Asia/Kolkata',
    log: (line) => {
      throw new Error(`unexpected log: ${line}`);
    },
  });
  return { notices, mails };
}

it("two shops' drainers racing over the pending notices send each once", async () => {
  const late = new Date(DUE.getTime() + 60_000);
  // Both shops' expiry runs at once: each order is cancelled once, and its notice recorded in that transaction.
  const [byOne, byOther] = await Promise.all([expireUnpaidOrders(one.db, late), expireUnpaidOrders(other.db, late)]);
  expect(byOne.length + byOther.length).toBe(ORDERS);
  const pending = await one.db.select({ orderId: noticeRows.orderId, sentAt: noticeRows.sentAt }).from(noticeRows).where(inArray(noticeRows.orderId, orderIds));
  expect(pending).toHaveLength(ORDERS);
  expect(pending.every((row) => row.sentAt === null)).toBe(true);

  const [a, b] = [shop(one), shop(other)];
  const sent = await Promise.all([a.notices.sendPending(), b.notices.sendPending(), a.notices.sendPending(), b.notices.sendPending()]);
  expect(sent.reduce((sum, n) => sum + n, 0)).toBe(ORDERS);
  const subjects = [...a.mails, ...b.mails].map((mail) => mail.subject.replace(/:.*/, '')).sort();
  expect(subjects).toEqual(orderIds.map((id) => `Order #${id} is cancelled`).sort());
  // Both shops took a share (the race was real), and nothing is left to send.
  console.log(`[notice outbox] one shop sent ${a.mails.length}, the other ${b.mails.length}`);
  const rows = await one.db.select({ sentAt: noticeRows.sentAt, attempts: noticeRows.attempts }).from(noticeRows).where(inArray(noticeRows.orderId, orderIds));
  expect(rows.every((row) => row.sentAt !== null && row.attempts === 1)).toBe(true);
  expect(await Promise.all([a.notices.sendPending(), b.notices.sendPending()])).toEqual([0, 0]);
});
