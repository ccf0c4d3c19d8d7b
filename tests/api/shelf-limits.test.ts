// One verified number cannot sweep the shelves (issue 32): store.yaml's limits on an order's lines, units and value,
// on what a number's open orders hold together (also when its orders race), on one product across its pack sizes,
// on what a pay-now UPI request may ask for and on a number whose pay-now orders keep expiring unpaid; and the
// steps of one order do not text a shopper again and again, nor does a welcome coupon come back with a new number.
import fs from 'node:fs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { orderLines, orders, productVariantPrices, productVariants, products } from '../../src/server/db/schema.ts';
import { expireUnpaidOrders } from '../../src/server/services/payments.ts';
import { orderNotices } from '../../src/server/services/notices.ts';
import type { Mail } from '../../src/server/mail.ts';
import type { TextMessage } from '../../src/server/sms.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { storeSettingsSchema } from '../../src/lib/store-settings-schema.ts';
import { errorOf, plainProductIds, saveHomeAddress, startTestApi, type TestApi } from './harness.ts';

// 07:30 in Kolkata on Mon 23 Nov 2026: today's slots from 10:00 are open.
const START = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
let now = START;
const store = readStoreSettings();
// store.yaml's limits, except that one shopper may have many orders in one slot and up to 10 open: here the size of the
// orders, not their count, is what must stop them.
const limits = { ...store.limits, slotPlacesPerShopper: 100, openOrdersPerNumber: 10 };
const PRICE_PAISE = 1_000;
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({
    products: 150,
    now: () => now,
    orderLimit: { writes: 1_000, windowSeconds: 600 },
    store: { ...store, coupons: [{ code: 'WELCOME50', label: '₹50 off', amountOffRupees: 50, minOrderRupees: 0, lastDay: '2027-12-31' }], limits },
  });
  spare = await plainProductIds(api.db);
  // ₹10 each and plenty on the shelf, so the counts below are the only thing an order runs into.
  await api.db.update(products).set({ pricePaise: PRICE_PAISE, mrpPaise: PRICE_PAISE, stock: 1_000 }).where(inArray(products.id, spare));
});
afterAll(async () => api?.close());

/**
 * Products at ₹10 (shared: an order's limits count its own lines, so shoppers may buy the same ones), or products of
 * the caller's own priced `pricePaise` each.
 */
async function take(n: number, pricePaise = PRICE_PAISE): Promise<number[]> {
  if (spare.length < n) throw new Error('The seed has too few plain products for these tests');
  if (pricePaise === PRICE_PAISE) return spare.slice(0, n);
  const ids = spare.splice(spare.length - n, n);
  await api.db.update(products).set({ pricePaise, mrpPaise: pricePaise }).where(inArray(products.id, ids));
  return ids;
}

async function shopper() {
  const session = await api.register();
  return { ...session, addressId: await saveHomeAddress(api.db, session.user.id) };
}
type Shopper = Awaited<ReturnType<typeof shopper>>;

async function add(s: Shopper, productsId: number, qty: number, productVariantsId = 0) {
  const res = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId, productVariantsId, qty } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CartDto;
}

let keys = 0;
const place = (s: Shopper, paymentMethod: 'cash' | 'upi' | 'upi_now' = 'cash', couponCode?: string) =>
  api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `shelf-${process.pid}-${++keys}` },
    body: { addressId: s.addressId, slotId: SLOT, paymentMethod, ...(couponCode ? { couponCode } : {}) },
  });

async function placed(s: Shopper, paymentMethod: 'cash' | 'upi' | 'upi_now' = 'cash', couponCode?: string): Promise<OrderDto> {
  const res = await place(s, paymentMethod, couponCode);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as OrderDto;
}

/** A refusal: 409 with the API's error body, and nothing taken (the cart as it was, no order). */
async function refused(s: Shopper, res: Response): Promise<string> {
  expect(res.status).toBe(409);
  const { code, message } = await errorOf(res);
  expect(code).toBe('conflict');
  return message;
}

const cartOf = async (s: Shopper) => (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}`, { token: s.token })).json()) as CartDto;
const cartCount = async (s: Shopper) =>
  ((await (await api.call('GET', `/api/app/Carts/GetTotalCart/${s.user.id}`, { token: s.token })).json()) as { cartsTotal: number }).cartsTotal;
const ordersOfShopper = async (s: Shopper) => api.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, s.user.id));
const stockOf = async (id: number) => (await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;

describe('the size of one order', () => {
  it(`refuses more than ${limits.linesPerOrder} different items in one order, taking nothing`, async () => {
    const s = await shopper();
    const ids = await take(limits.linesPerOrder + 1);
    for (const id of ids) await add(s, id, 1);
    const message = await refused(s, await place(s));
    expect(message).toBe(`An order can hold at most ${limits.linesPerOrder} different items. Please remove some, or place another order once this one is delivered.`);
    expect(await ordersOfShopper(s)).toEqual([]);
    expect(await cartCount(s)).toBe(limits.linesPerOrder + 1);
    expect(await stockOf(ids.at(-1)!)).toBe(1_000);
    // One line fewer is an order.
    expect((await api.call('DELETE', `/api/app/Carts/${(await cartOf(s)).lines[0]!.id}`, { token: s.token })).ok).toBe(true);
    expect((await placed(s)).lines).toHaveLength(limits.linesPerOrder);
  });

  it(`refuses more than ${limits.unitsPerOrder} units in one order`, async () => {
    const s = await shopper();
    const perLine = limits.unitsPerProduct;
    const ids = await take(Math.floor(limits.unitsPerOrder / perLine) + 1);
    for (const id of ids) await add(s, id, perLine);
    const message = await refused(s, await place(s));
    expect(message).toBe(`An order can hold at most ${limits.unitsPerOrder} items. Please remove some, or place another order once this one is delivered.`);
    expect(await ordersOfShopper(s)).toEqual([]);
  });

  it(`refuses an order whose goods are worth more than ₹${limits.orderValueMaxRupees} at the shop's prices`, async () => {
    const s = await shopper();
    // One product priced so that a full line of it is just over the limit.
    const unitPaise = Math.ceil((limits.orderValueMaxRupees * 100 + 1) / limits.unitsPerProduct);
    const [dear] = await take(1, unitPaise);
    await add(s, dear!, limits.unitsPerProduct);
    const message = await refused(s, await place(s));
    expect(message).toBe(`An order can be worth at most ₹${limits.orderValueMaxRupees.toLocaleString('en-IN')}. Please remove some, or place another order once this one is delivered.`);
    expect(await stockOf(dear!)).toBe(1_000);
    // One unit fewer fits.
    const line = (await cartOf(s)).lines[0]!;
    expect((await api.call('PUT', `/api/app/Carts/${line.id}`, { token: s.token, body: { qty: line.qty - 1 } })).status).toBe(200);
    expect((await placed(s)).summary.subtotalPaise).toBe(unitPaise * (limits.unitsPerProduct - 1));
  });

  it(`counts every pack size of a product together against the ${limits.unitsPerProduct} units of one product`, async () => {
    const [packs] = await api.db
      .select({ productId: productVariants.productId, variantIds: sql<number[]>`array_agg(${productVariants.id} order by ${productVariants.id})` })
      .from(productVariants)
      .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .groupBy(productVariants.productId)
      .having(sql`count(*) >= 2`)
      .limit(1);
    if (!packs) throw new Error('The seed has no product with two priced pack sizes');
    await api.db.update(productVariants).set({ stock: 100 }).where(eq(productVariants.productId, packs.productId));
    await api.db.update(productVariantPrices).set({ salesPricePaise: PRICE_PAISE, mrpPaise: PRICE_PAISE }).where(inArray(productVariantPrices.variantId, packs.variantIds));
    const [small, large] = packs.variantIds;
    const s = await shopper();
    const half = Math.ceil(limits.unitsPerProduct / 2);
    await add(s, packs.productId, half, small);
    await add(s, packs.productId, limits.unitsPerProduct + 1 - half, large);
    const message = await refused(s, await place(s));
    expect(message).toMatch(new RegExp(`^You can order at most ${limits.unitsPerProduct} of .+ in one order \\(all its pack sizes together\\); please lower its quantity\\.$`));
    expect(await ordersOfShopper(s)).toEqual([]);
    // The limit itself is an order.
    const largeLine = (await cartOf(s)).lines.find((l) => l.productVariantsId === large)!;
    expect((await api.call('PUT', `/api/app/Carts/${largeLine.id}`, { token: s.token, body: { qty: largeLine.qty - 1 } })).status).toBe(200);
    expect((await placed(s)).summary.itemCount).toBe(limits.unitsPerProduct);
  });
});

/** Fills the cart with `units` units over products of its own (a full line of each, the rest on the last). */
async function fill(s: Shopper, units: number, pricePaise = PRICE_PAISE) {
  const ids = await take(Math.ceil(units / limits.unitsPerProduct), pricePaise);
  for (const [i, id] of ids.entries()) await add(s, id, Math.min(limits.unitsPerProduct, units - i * limits.unitsPerProduct));
}

const openUnitsOf = async (s: Shopper) =>
  (
    await api.db
      .select({ units: sql<number>`coalesce(sum(${orderLines.qty}), 0)`.mapWith(Number) })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(orders.verifiedPhone, s.user.phone), inArray(orders.status, ['placed', 'packed', 'out_for_delivery'])))
  )[0]!.units;

describe("what one number's open orders hold together", () => {
  it(`refuses an order that would take the number's open orders past ${limits.openUnitsPerNumber} units, until one is delivered`, async () => {
    const s = await shopper();
    const orderIds: number[] = [];
    for (let held = 0; held < limits.openUnitsPerNumber; held += limits.unitsPerOrder) {
      await fill(s, Math.min(limits.unitsPerOrder, limits.openUnitsPerNumber - held));
      orderIds.push((await placed(s)).id);
    }
    await fill(s, 1);
    const message = await refused(s, await place(s));
    expect(message).toBe(
      `Your orders on their way already hold ${limits.openUnitsPerNumber} items, and one mobile number can have at most ${limits.openUnitsPerNumber} items on their way. Please remove some, or order again once an order is delivered.`,
    );
    await api.db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, orderIds[0]!));
    expect((await placed(s)).summary.itemCount).toBe(1);
  });

  it(`refuses an order that would take the number's open orders past ₹${limits.openValuePerNumberRupees} of goods`, async () => {
    const s = await shopper();
    // Orders just under the limit of one order, each worth a full order's value, until the next would pass the number's.
    const unitPaise = Math.floor((limits.orderValueMaxRupees * 100) / limits.unitsPerProduct);
    let held = 0;
    while (held + unitPaise * limits.unitsPerProduct <= limits.openValuePerNumberRupees * 100) {
      await fill(s, limits.unitsPerProduct, unitPaise);
      held += (await placed(s)).summary.subtotalPaise;
    }
    await fill(s, limits.unitsPerProduct, unitPaise);
    const message = await refused(s, await place(s));
    expect(message).toBe(
      `Your orders on their way are already worth ₹${(held / 100).toLocaleString('en-IN')}, and one mobile number can have at most ₹${limits.openValuePerNumberRupees.toLocaleString('en-IN')} on its way. Please remove some, or order again once an order is delivered.`,
    );
  });

  it('holds against a burst of orders racing from one number', async () => {
    const s = await shopper();
    // Open orders a full line short of the number's units.
    for (let held = 0; held < limits.openUnitsPerNumber - limits.unitsPerProduct; held += limits.unitsPerOrder) {
      await fill(s, Math.min(limits.unitsPerOrder, limits.openUnitsPerNumber - limits.unitsPerProduct - held));
      await placed(s);
    }
    // Then four tabs at once, each adding a full line and ordering it: one more line fits, not four.
    const ids = await take(4);
    const answers = await Promise.all(
      ids.map(async (id) => {
        await add(s, id, limits.unitsPerProduct);
        return (await place(s)).status;
      }),
    );
    expect(answers.every((status) => status === 201 || status === 409)).toBe(true);
    expect(await openUnitsOf(s)).toBeLessThanOrEqual(limits.openUnitsPerNumber);
  });
});

describe('paying now', () => {
  it(`refuses a pay-now UPI request over ₹${limits.payNowMaxRupees}, and takes the same order paid on delivery`, async () => {
    const s = await shopper();
    // A full line worth 1.2 times the pay-now ceiling: past it after any discount, within one order's value.
    const unitPaise = Math.ceil((limits.payNowMaxRupees * 120) / limits.unitsPerProduct);
    expect(unitPaise * limits.unitsPerProduct).toBeLessThanOrEqual(limits.orderValueMaxRupees * 100);
    await fill(s, limits.unitsPerProduct, unitPaise);
    const message = await refused(s, await place(s, 'upi_now'));
    expect(message).toBe(`Paying now by UPI works for orders up to ₹${limits.payNowMaxRupees.toLocaleString('en-IN')}. Please choose cash or UPI on delivery for this order.`);
    expect(await ordersOfShopper(s)).toEqual([]);
    expect((await placed(s, 'upi')).paymentMethod).toBe('upi');
  });

  it('refuses the settings a pay-now ceiling above UPI’s ₹1,00,000', () => {
    expect(limits.payNowMaxRupees).toBeLessThanOrEqual(100_000);
    const settings = storeSettingsSchema.safeParse({ ...store, limits: { ...store.limits, payNowMaxRupees: 100_001 } });
    expect(settings.success).toBe(false);
    expect(settings.error?.issues.map((i) => i.message)).toEqual(["limits: payNowMaxRupees can be at most 100000 (UPI's usual limit for one payment is ₹1,00,000)"]);
  });

  it(`lets a number whose ${limits.expiredPayNowPerDay} pay-now orders expired unpaid in a day pay on delivery only, until a day has passed`, async () => {
    const s = await shopper();
    for (let i = 0; i < limits.expiredPayNowPerDay; i++) {
      await fill(s, 1);
      const order = await placed(s, 'upi_now');
      expect(await expireUnpaidOrders(api.db, new Date(order.payment!.dueAt!))).toEqual([expect.objectContaining({ orderId: order.id })]);
    }
    await fill(s, 1);
    const message = await refused(s, await place(s, 'upi_now'));
    expect(message).toBe(
      `${limits.expiredPayNowPerDay} of your pay-now orders in the last day were not paid in time, so for now this number can pay on delivery only. Please choose cash or UPI on delivery.`,
    );
    const onDelivery = await placed(s, 'cash');
    // A day after they expired, paying now is open again.
    now = new Date(START.getTime() + (24 * 60 + store.payments.payWithinMinutes + 1) * 60_000);
    try {
      await fill(s, 1);
      const res = await api.call('POST', '/api/app/Orders', {
        token: s.token,
        headers: { 'Idempotency-Key': `shelf-${process.pid}-${++keys}` },
        body: { addressId: s.addressId, slotId: '2026-11-24T12:00', paymentMethod: 'upi_now' },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    } finally {
      now = START;
    }
    expect(onDelivery.paymentMethod).toBe('cash');
  });
});

describe('order notices', () => {
  /** The order texts written to the outbox for a number. */
  const orderTextsTo = (phone: string) =>
    fs.existsSync(api.smsOutbox)
      ? fs.readdirSync(api.smsOutbox).filter((name) => name.endsWith(`-${phone}.txt`) && fs.readFileSync(`${api.smsOutbox}/${name}`, 'utf8').includes('Your order #'))
      : [];

  it(`texts a number at most ${limits.orderTextsPerNumberPerHour} order notices an hour; the rest are mailed`, async () => {
    const s = await shopper();
    const [id] = await take(1);
    const cycles = Math.ceil(limits.orderTextsPerNumberPerHour / 2) + 2;
    for (let i = 0; i < cycles; i++) {
      await add(s, id!, 1);
      const order = await placed(s);
      expect((await api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: s.token })).status).toBe(200);
    }
    // Every step is mailed (each text goes before its mail): once all the mails are in, so are the texts.
    let mailed = 0;
    while (mailed < cycles * 2) if (/^Order #\d+ (placed|is cancelled)/.test((await api.mailTo(s.user.email)).subject)) mailed++;
    expect(orderTextsTo(s.user.phone)).toHaveLength(limits.orderTextsPerNumberPerHour);
  });

  it('tells each step of an order once, however many times it is sent', async () => {
    const s = await shopper();
    await add(s, (await take(1))[0]!, 1);
    const order = await placed(s);
    while (!(await api.mailTo(s.user.email)).subject.startsWith(`Order #${order.id} placed`));
    // Another process of the shop (or a retry) sending the same steps again.
    const mails: Mail[] = [];
    const texts: TextMessage[] = [];
    const again = orderNotices({
      db: api.db,
      mailer: { send: async (mail) => void mails.push(mail) },
      sms: { send: async (text) => void texts.push(text) },
      linkOrigin: 'https://shop.example.in',
      timeZone: store.delivery.timeZone,
      textsPerNumberPerHour: 100,
    });
    await again.send(order.id, 'placed');
    expect(mails).toEqual([]);
    expect(texts).toEqual([]);
    await api.db.update(orders).set({ status: 'packed' }).where(eq(orders.id, order.id));
    await Promise.all([again.send(order.id, 'packed'), again.send(order.id, 'packed'), again.send(order.id, 'packed')]);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(new RegExp(`^Order #${order.id} is packed`))]);
    expect(texts).toHaveLength(1);
  });
});

describe('the welcome coupon', () => {
  it('is not given again to an account that moved to a new number', async () => {
    const s = await shopper();
    const [id] = await take(1);
    await add(s, id!, 1);
    expect((await placed(s, 'cash', 'WELCOME50')).summary.discounts.map((d) => d.code)).toContain('coupon');
    const newPhone = `7${String(process.pid).padStart(9, '0').slice(-9)}`;
    expect((await api.call('PUT', '/api/app/Users/Me', { token: s.token, body: { name: s.user.name, phone: newPhone } })).status).toBe(200);
    expect((await api.call('POST', '/api/app/Users/Me/VerifyPhone', { token: s.token, body: { code: await api.codeTo(newPhone) } })).status).toBe(200);
    await add(s, id!, 1);
    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}?coupon=WELCOME50`, { token: s.token })).json()) as CartDto;
    expect(cart.coupon).toMatchObject({ applies: false, reason: { code: 'coupon_used' } });
    const res = await place({ ...s, user: { ...s.user, phone: newPhone } }, 'cash', 'WELCOME50');
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('coupon_used');
  });
});
