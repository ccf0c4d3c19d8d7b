// Order notices (issue 25): each event of an order writes a mail to the outbox and, unless the shopper turned texts
// off in My Account, a text message to the sms-outbox, with the order number, the slot, the total and the order's link.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import type { UserDto } from '../../src/server/account-schemas.ts';
import { orders, products } from '../../src/server/db/schema.ts';
import { outboxMailer } from '../../src/server/mail.ts';
import { outboxSms } from '../../src/server/sms.ts';
import { noticeMessages, orderNotices, slotNoticeText } from '../../src/server/services/notices.ts';
import { formatRupees } from '../../src/lib/money.ts';
import { plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const TOKEN = 'notices-test-grocer-token-0123456789';
// 07:30 in Kolkata on Mon 23 Nov 2026: the 12:00–14:00 slot is open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
const SLOT_TEXT = 'Mon 23 Nov, 12–2 pm';
const ORIGIN = 'https://kirana.example.in';
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 40, now: () => clock, grocerToken: TOKEN, linkOrigin: ORIGIN });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

const grocer = (method: string, route: string, body?: unknown) => api.grocer(method, route, body);

/** A shopper who has ordered one unit of a product of its own for SLOT; the placed notice is read by the caller. */
async function placedOrder() {
  const productId = spare.shift()!;
  await api.db.update(products).set({ stock: 10 }).where(eq(products.id, productId));
  const shopper = await api.register();
  const addressId = await saveHomeAddress(api.db, shopper.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: shopper.token, body: { productsId: productId, productVariantsId: 0, qty: 1 } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: shopper.token,
    headers: { 'Idempotency-Key': `notices-test-${shopper.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { shopper, order: (await res.json()) as OrderDto };
}

/** The files of a folder whose text mentions this order; none when the folder was never made. */
function outboxFiles(dir: string, orderId: number): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    .filter((text) => text.includes(`#${orderId} `) || text.includes(`#${orderId}:`) || text.includes(`#${orderId}.`));
}

/** The next mail and text of an order's event, checked to carry its number, slot, total and link. */
async function noticesOf(shopper: { user: UserDto }, order: OrderDto) {
  const text = await api.textTo(shopper.user.phone);
  const mail = await api.mailTo(shopper.user.email);
  const link = `${ORIGIN}/orderdetails?id=${order.id}`;
  const total = formatRupees(order.summary.totalPaise);
  for (const words of [mail.text, text.text]) {
    expect(words).toContain(`#${order.id}`);
    expect(words).toContain(SLOT_TEXT);
    expect(words).toContain(total);
    expect(words).toContain(link);
  }
  expect(mail.subject).toContain(SLOT_TEXT);
  expect(text.variables).toMatchObject({ order: String(order.id), slot: SLOT_TEXT, total, link });
  // Both were written to the outbox folders, as a shop without SMTP or MSG91 keeps them.
  expect(outboxFiles(api.outbox, order.id).some((file) => file.includes(`Subject: ${mail.subject}`))).toBe(true);
  expect(outboxFiles(api.smsOutbox, order.id).some((file) => file.includes(text.text))).toBe(true);
  return { mail, text };
}

describe('an order’s notices, by mail and by text', () => {
  it('placed, then packed, out for delivery and delivered as the grocer advances it', async () => {
    const { shopper, order } = await placedOrder();
    const placed = await noticesOf(shopper, order);
    expect(placed.mail.subject).toBe(`Order #${order.id} placed: ${SLOT_TEXT}`);
    expect(placed.text.text).toBe(
      `Kirana: Your order #${order.id} is placed. We deliver it ${SLOT_TEXT}. Total ${formatRupees(order.summary.totalPaise)}. ` +
        `See your order: ${ORIGIN}/orderdetails?id=${order.id}`,
    );
    expect(placed.text.template).toBe('placed');

    for (const [subject, words] of [
      [`Order #${order.id} is packed`, `Your order #${order.id} is packed, for delivery ${SLOT_TEXT}.`],
      [`Order #${order.id} is out for delivery`, `Your order #${order.id} is out for delivery (slot ${SLOT_TEXT}).`],
      [`Order #${order.id} is delivered`, `Your order #${order.id} is delivered (slot ${SLOT_TEXT}). Thank you!`],
    ] as const) {
      expect((await grocer('POST', `Orders/${order.id}/Advance`)).status).toBe(200);
      const { mail, text } = await noticesOf(shopper, order);
      expect(mail.subject).toBe(`${subject}: ${SLOT_TEXT}`);
      expect(text.text).toContain(words);
      expect(mail.text).toContain(words);
    }
  });

  it('cancelled by the shopper says "by you"', async () => {
    const { shopper, order } = await placedOrder();
    await noticesOf(shopper, order);
    expect((await api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: shopper.token })).status).toBe(200);
    const { mail, text } = await noticesOf(shopper, order);
    expect(mail.subject).toBe(`Order #${order.id} is cancelled: ${SLOT_TEXT}`);
    expect(text.text).toContain(`Your order #${order.id} (slot ${SLOT_TEXT}) is cancelled by you.`);
    expect(text.variables.reason).toBe('by you');
  });

  it('cancelled by the shop says so, with the reason', async () => {
    const { shopper, order } = await placedOrder();
    await noticesOf(shopper, order);
    expect((await grocer('POST', `Orders/${order.id}/Cancel`, { reason: 'Out of paneer today' })).status).toBe(200);
    const { mail, text } = await noticesOf(shopper, order);
    expect(text.text).toContain(`is cancelled by the shop: Out of paneer today.`);
    expect(mail.text).toContain(`is cancelled by the shop: Out of paneer today.`);
  });

  it('payment confirmed, and cancelled because the payment did not come in time', async () => {
    const { shopper, order } = await placedOrder();
    await noticesOf(shopper, order);
    // The pay-now part calls these; here the notices are sent as it does, through the same outboxes.
    const sent: string[] = [];
    const notices = orderNotices({
      db: api.db,
      mailer: outboxMailer(api.outbox, 'Kirana <shop@example.in>', (line) => sent.push(line)),
      sms: outboxSms(api.smsOutbox, (line) => sent.push(line)),
      linkOrigin: ORIGIN,
      timeZone: 'Asia/Kolkata',
    });
    await notices.send(order.id, 'payment_confirmed');
    const paid = outboxFiles(api.outbox, order.id).filter((file) => file.includes(`Subject: Payment received for order #${order.id}: ${SLOT_TEXT}`));
    expect(paid).toHaveLength(1);
    expect(outboxFiles(api.smsOutbox, order.id).filter((file) => file.includes(`We received your payment for order #${order.id}.`))).toHaveLength(1);

    await api.db.update(orders).set({ status: 'cancelled', cancelledBy: 'payment_expired' }).where(eq(orders.id, order.id));
    await notices.send(order.id, 'cancelled');
    expect(outboxFiles(api.smsOutbox, order.id).filter((file) => file.includes('is cancelled as payment was not received in time.'))).toHaveLength(1);
    expect(sent.filter((line) => line.includes(shopper.user.email))).toHaveLength(2);
  });

  it('sends no text when the shopper turned "Text me about my orders" off; the mail still goes', async () => {
    const shopper = await api.register();
    const saved = await api.call('PUT', '/api/app/Users/Me', {
      token: shopper.token,
      body: { name: shopper.user.name, phone: shopper.user.phone, smsNotices: false },
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ smsNotices: false, codeSent: null });
    const me = (await (await api.call('GET', '/api/app/Users/Me', { token: shopper.token })).json()) as UserDto;
    expect(me.smsNotices).toBe(false);

    const notices = orderNotices({
      db: api.db,
      mailer: outboxMailer(api.outbox, 'Kirana <shop@example.in>', () => {}),
      sms: outboxSms(api.smsOutbox, () => {}),
      linkOrigin: ORIGIN,
      timeZone: 'Asia/Kolkata',
    });
    const { order } = await placedOrderOf(shopper);
    // The route's own notice: the mail comes, and the text (sent before the mail) did not.
    const mail = await api.mailTo(shopper.user.email);
    expect(mail.subject).toBe(`Order #${order.id} placed: ${SLOT_TEXT}`);
    await notices.send(order.id, 'packed');
    expect(outboxFiles(api.outbox, order.id)).toHaveLength(2);
    expect(outboxFiles(api.smsOutbox, order.id)).toHaveLength(0);

    // Left out of a later save, the choice stays as it was.
    const again = await api.call('PUT', '/api/app/Users/Me', { token: shopper.token, body: { name: 'Meera K. Iyer', phone: shopper.user.phone } });
    expect(await again.json()).toMatchObject({ name: 'Meera K. Iyer', smsNotices: false });
    const wrong = await api.call('PUT', '/api/app/Users/Me', { token: shopper.token, body: { name: 'Meera', phone: shopper.user.phone, smsNotices: 'no' } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe('smsNotices must be true or false');
  });

  it('a failed send is logged, never thrown: the order was already written', async () => {
    const { shopper, order } = await placedOrder();
    await noticesOf(shopper, order);
    const logged: string[] = [];
    const failing = { send: async () => Promise.reject(new Error('connection refused')) };
    const notices = orderNotices({ db: api.db, mailer: failing, sms: failing, linkOrigin: ORIGIN, timeZone: 'Asia/Kolkata', log: (line) => logged.push(line) });
    await expect(notices.send(order.id, 'packed')).resolves.toBeUndefined();
    expect(logged).toEqual([
      `[notices] order ${order.id} packed: the text to ${shopper.user.phone} was not sent (connection refused)`,
      `[notices] order ${order.id} packed: the mail to ${shopper.user.email} was not sent (connection refused)`,
    ]);
  });
});

/** placedOrder for a shopper already registered. */
async function placedOrderOf(shopper: Awaited<ReturnType<TestApi['register']>>) {
  const productId = spare.shift()!;
  await api.db.update(products).set({ stock: 10 }).where(eq(products.id, productId));
  const addressId = await saveHomeAddress(api.db, shopper.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: shopper.token, body: { productsId: productId, productVariantsId: 0, qty: 1 } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: shopper.token,
    headers: { 'Idempotency-Key': `notices-test-own-${shopper.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod: 'cash' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { order: (await res.json()) as OrderDto };
}

describe('the words of a notice', () => {
  it('writes a slot as "Thu 26 Nov, 6–8 pm", and one across noon with both halves', () => {
    expect(slotNoticeText(new Date('2026-11-26T12:30:00Z'), new Date('2026-11-26T14:30:00Z'), 'Asia/Kolkata')).toBe('Thu 26 Nov, 6–8 pm');
    expect(slotNoticeText(new Date('2026-11-26T05:30:00Z'), new Date('2026-11-26T07:30:00Z'), 'Asia/Kolkata')).toBe('Thu 26 Nov, 11 am–1 pm');
    expect(slotNoticeText(new Date('2026-11-26T03:00:00Z'), new Date('2026-11-26T05:00:00Z'), 'Asia/Kolkata')).toBe('Thu 26 Nov, 8:30–10:30 am');
  });

  it('names who cancelled', () => {
    const facts = { orderId: 7, slotStartsAt: new Date('2026-11-26T12:30:00Z'), slotEndsAt: new Date('2026-11-26T14:30:00Z'), totalPaise: 24_500, cancelReason: null };
    const say = (cancelledBy: 'shopper' | 'shop' | 'payment_expired', cancelReason: string | null = null) =>
      noticeMessages('cancelled', { ...facts, cancelledBy, cancelReason }, 'https://k.in/orderdetails?id=7', 'Asia/Kolkata').text;
    expect(say('shopper')).toBe('Kirana: Your order #7 (slot Thu 26 Nov, 6–8 pm) is cancelled by you. Total ₹245. See your order: https://k.in/orderdetails?id=7');
    expect(say('shop', 'Van broke down')).toContain('is cancelled by the shop: Van broke down.');
    expect(say('payment_expired')).toContain('is cancelled as payment was not received in time.');
  });
});
