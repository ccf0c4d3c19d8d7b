// The notices' transactional outbox (issue 33): an order write records its step's notice in its own transaction, and a
// drainer sends it: at once after the commit, and at each start and on a timer for what a killed shop or a failed send
// left. Sent at least once, told once: a restarted shop sends what the killed one did not, and nothing twice.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessBus } from '../../src/server/cache/invalidation-bus.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import { orderNotices as noticeRows, products } from '../../src/server/db/schema.ts';
import type { Mail, Mailer } from '../../src/server/mail.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { followUpOf, orderWrites } from '../../src/server/services/after-write.ts';
import { NO_NOTICES, NOTICE_ATTEMPTS, orderNotices, startNoticeOutbox, type NoticeEvent } from '../../src/server/services/notices.ts';
import type { SmsSender, TextMessage } from '../../src/server/sms.ts';
import { plainProductIds, saveHomeAddress, startTestApi, type TestApi } from './harness.ts';

// 07:30 in Kolkata on Mon 23 Nov 2026: the 12:00–14:00 slot is open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
const ORIGIN = 'https://kirana.example.in';
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 40, now: () => clock, linkOrigin: ORIGIN });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

/** A shopper's order of one unit, placed through the API (its 'placed' notice is the API's own, read here). */
async function placedOrder(): Promise<{ order: OrderDto; email: string; phone: string }> {
  const productId = spare.shift()!;
  await api.db.update(products).set({ stock: 10 }).where(eq(products.id, productId));
  const shopper = await api.register();
  const addressId = await saveHomeAddress(api.db, shopper.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: shopper.token, body: { productsId: productId, productVariantsId: 0, qty: 1 } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: shopper.token,
    headers: { 'Idempotency-Key': `outbox-test-${shopper.user.id}` },
    body: { addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const order = (await res.json()) as OrderDto;
  expect((await api.mailTo(shopper.user.email)).subject).toMatch(new RegExp(`^Order #${order.id} placed`));
  return { order, email: shopper.user.email, phone: shopper.user.phone };
}

/**
 * A shop's notices whose mails and texts are kept in memory; `failMail` makes every mail fail, `holdMail` makes each
 * mail wait for it (a slow mail server: `mailing` resolves once one waits); `leaseSeconds` is its claims' lease.
 */
function shopNotices({ failMail = false, log = (_: string) => {}, holdMail = Promise.resolve(), leaseSeconds = undefined as number | undefined } = {}) {
  const mails: Mail[] = [];
  const texts: TextMessage[] = [];
  const mailing = Promise.withResolvers<void>();
  const mailer: Mailer = {
    send: async (mail) => {
      if (failMail) throw new Error('connection refused');
      mailing.resolve();
      await holdMail;
      mails.push(mail);
    },
  };
  const sms: SmsSender = { send: async (text) => void texts.push(text) };
  const notices = orderNotices({ db: api.db, mailer, sms, linkOrigin: ORIGIN, timeZone: 'Asia/Kolkata', log, textsPerNumberPerHour: 100, leaseSeconds });
  return { notices, mails, texts, mailing: mailing.promise, of: (orderId: number) => mails.filter((m) => m.subject.startsWith(`Order #${orderId} `)) };
}

async function noticeRow(orderId: number, event: NoticeEvent) {
  const [row] = await api.db
    .select()
    .from(noticeRows)
    .where(and(eq(noticeRows.orderId, orderId), eq(noticeRows.event, event)));
  return row;
}

/** A shop that starts: its outbox's first run (at once) is awaited; its timer (an hour) never comes in a test. */
async function restartedShopSends(notices: ReturnType<typeof shopNotices>['notices']) {
  const errors: unknown[] = [];
  await startNoticeOutbox(notices, { intervalMs: 3_600_000, logError: (error) => errors.push(error) })();
  expect(errors).toEqual([]);
}

/** The time to try a failed notice again has come (it waits RETRY_AFTER_SECONDS times its attempts). */
const retryTimeComes = (orderId: number) => api.db.update(noticeRows).set({ retryAt: sql`now()` }).where(eq(noticeRows.orderId, orderId));

describe('the notices outbox', () => {
  it("a shop killed after an order's commit sends its notice after restart, once", async () => {
    const { order } = await placedOrder();
    // The grocer's cancel commits; the shop dies before its send (no sender runs after the write).
    await orderWrites({ db: api.db, stale: inProcessBus(), notices: NO_NOTICES }).cancelByShop(order.id, 'Out of paneer today');
    expect(await noticeRow(order.id, 'cancelled')).toMatchObject({ sentAt: null, attempts: 0 });

    const restarted = shopNotices();
    await restartedShopSends(restarted.notices);
    expect(restarted.of(order.id).map((m) => m.subject)).toEqual([expect.stringMatching(new RegExp(`^Order #${order.id} is cancelled`))]);
    expect(restarted.of(order.id)[0]!.text).toContain('is cancelled by the shop: Out of paneer today.');
    expect(restarted.texts.filter((t) => t.text.includes(`#${order.id} `))).toHaveLength(1);
    expect((await noticeRow(order.id, 'cancelled'))?.sentAt).toBeInstanceOf(Date);

    // Restarted again: nothing is sent twice.
    const again = shopNotices();
    await restartedShopSends(again.notices);
    expect(again.mails).toEqual([]);
    expect(again.texts).toEqual([]);
  });

  it('a failed send stays pending, is sent on a later run without texting again, and is given up after its attempts', async () => {
    const { order } = await placedOrder();
    const logged: string[] = [];
    const failing = shopNotices({ failMail: true, log: (line) => logged.push(line) });
    await orderWrites({ db: api.db, stale: inProcessBus(), notices: failing.notices }).advance(order.id);
    await failing.notices.drain();
    // The text went; the mail did not, and says why in the shop's log.
    expect(failing.texts.map((t) => t.template)).toEqual(['packed']);
    expect(logged).toEqual([expect.stringMatching(new RegExp(`^\\[notices\\] order ${order.id} packed: the mail to .* was not sent \\(connection refused\\)$`))]);
    expect(await noticeRow(order.id, 'packed')).toMatchObject({ sentAt: null, attempts: 1, lastError: expect.stringContaining('connection refused') });
    // Not before its retry time, even for a shop that starts now.
    const early = shopNotices();
    await restartedShopSends(early.notices);
    expect(early.of(order.id)).toEqual([]);

    await retryTimeComes(order.id);
    const later = shopNotices();
    await restartedShopSends(later.notices);
    expect(later.of(order.id).map((m) => m.subject)).toEqual([expect.stringMatching(new RegExp(`^Order #${order.id} is packed`))]);
    expect(later.texts).toEqual([]);
    expect((await noticeRow(order.id, 'packed'))?.sentAt).toBeInstanceOf(Date);

    // A mail that never goes is tried NOTICE_ATTEMPTS times in all, then left (and said so).
    await orderWrites({ db: api.db, stale: inProcessBus(), notices: NO_NOTICES }).advance(order.id);
    logged.length = 0;
    for (let attempt = 1; attempt <= NOTICE_ATTEMPTS + 1; attempt++) {
      await retryTimeComes(order.id);
      await failing.notices.sendPending();
    }
    expect(logged.filter((line) => line.includes('out_for_delivery: the mail'))).toHaveLength(NOTICE_ATTEMPTS);
    expect(logged.at(-1)).toBe(`[notices] order ${order.id} out_for_delivery: given up after ${NOTICE_ATTEMPTS} attempts`);
    await retryTimeComes(order.id);
    const after = shopNotices();
    await restartedShopSends(after.notices);
    expect(after.of(order.id)).toEqual([]);
  });

  it('two shops draining at once send each pending notice once', async () => {
    const writes = orderWrites({ db: api.db, stale: inProcessBus(), notices: NO_NOTICES });
    const placed = await Promise.all([placedOrder(), placedOrder(), placedOrder()]);
    for (const { order } of placed) {
      await writes.advance(order.id);
      await writes.cancelByShop(order.id, 'The van broke down');
    }
    const [a, b] = [shopNotices(), shopNotices()];
    const [sentByA, sentByB] = await Promise.all([a.notices.sendPending(), b.notices.sendPending()]);
    expect(sentByA + sentByB).toBe(6);
    for (const { order } of placed) {
      const subjects = [...a.of(order.id), ...b.of(order.id)].map((m) => m.subject.replace(/:.*/, '')).sort();
      expect(subjects).toEqual([`Order #${order.id} is cancelled`, `Order #${order.id} is packed`]);
    }
    expect(a.texts.length + b.texts.length).toBe(6);
  });

  it("a send slower than the claim's lease is not sent again by another shop: the claim is renewed while it runs", async () => {
    const { order } = await placedOrder();
    await orderWrites({ db: api.db, stale: inProcessBus(), notices: NO_NOTICES }).advance(order.id);
    const LEASE_SECONDS = 2;
    const mailServer = Promise.withResolvers<void>();
    const logged: string[] = [];
    const slow = shopNotices({ holdMail: mailServer.promise, leaseSeconds: LEASE_SECONDS, log: (line) => logged.push(line) });
    const other = shopNotices({ leaseSeconds: LEASE_SECONDS });
    const sending = slow.notices.sendPending();
    await slow.mailing;
    // The mail server takes two leases and more; the other shop's drainer runs all the while.
    const until = Date.now() + 2.5 * LEASE_SECONDS * 1000;
    while (Date.now() < until) {
      await other.notices.sendPending();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(other.of(order.id)).toEqual([]);
    expect(other.texts.filter((t) => t.text.includes(`#${order.id} `))).toEqual([]);
    mailServer.resolve();
    await sending;
    expect(slow.of(order.id).map((m) => m.subject.replace(/:.*/, ''))).toEqual([`Order #${order.id} is packed`]);
    // Each send of the notice carries its key, the same for any shop: a provider can tell a second one.
    expect(slow.of(order.id)[0]!.idempotencyKey).toBe(`kirana-order-${order.id}-packed`);
    expect(slow.texts.find((t) => t.text.includes(`#${order.id} `))?.idempotencyKey).toBe(`kirana-order-${order.id}-packed`);
    expect(await noticeRow(order.id, 'packed')).toMatchObject({ sentAt: expect.any(Date), attempts: 1 });
    expect(logged).toEqual([]);
  });

  it('a drainer whose claim lapsed and was taken over marks nothing: the shop that took it over marks it sent', async () => {
    const { order } = await placedOrder();
    await orderWrites({ db: api.db, stale: inProcessBus(), notices: NO_NOTICES }).advance(order.id);
    const mailServer = Promise.withResolvers<void>();
    const logged: string[] = [];
    const lapsed = shopNotices({ holdMail: mailServer.promise, log: (line) => logged.push(line) });
    const sending = lapsed.notices.sendPending();
    await lapsed.mailing;
    // Its lease runs out (the database out of its reach longer than that); another shop claims the notice and sends it.
    await retryTimeComes(order.id);
    const other = shopNotices();
    await other.notices.sendPending();
    expect(other.of(order.id)).toHaveLength(1);
    const sentByOther = await noticeRow(order.id, 'packed');
    expect(sentByOther).toMatchObject({ sentAt: expect.any(Date), attempts: 2 });
    mailServer.resolve();
    await sending;
    // The late one's marks found the claim another's: the row is as the other shop left it, and the shop's log says so.
    expect(await noticeRow(order.id, 'packed')).toEqual(sentByOther);
    expect(logged).toEqual([`[notices] order ${order.id} packed: another drainer took it over while this one sent it (its claim lapsed)`]);
  });
});

describe('what follows an order write', () => {
  const change = { orderId: 7, productIds: [3, 4], shelfChanged: true };
  it('is decided in one place: caches, restock alerts and the notice of each step', () => {
    expect(followUpOf({ ...change, step: 'placed' })).toEqual({ staleTags: staleAfter.shelfChanged([3, 4]), restocked: [], notice: 'placed' });
    expect(followUpOf({ ...change, step: 'cancelled' })).toEqual({ staleTags: staleAfter.shelfChanged([3, 4]), restocked: [3, 4], notice: 'cancelled' });
    expect(followUpOf({ ...change, step: 'cancelled', shelfChanged: false })).toEqual({ staleTags: [], restocked: [], notice: 'cancelled' });
    expect(followUpOf({ ...change, step: 'delivered', shelfChanged: false })).toEqual({ staleTags: staleAfter.orderDelivered([3, 4]), restocked: [], notice: 'delivered' });
    expect(followUpOf({ ...change, step: 'packed', shelfChanged: false })).toEqual({ staleTags: [], restocked: [], notice: 'packed' });
  });
});
