// `npm run orders` against a real data folder: with the shop stopped it opens the database itself (orders written
// straight to the folder); with the built shop running (which holds the folder's lock) it goes through the shop's
// grocer routes, for an order a shopper placed over HTTP. It cancels orders, blocks numbers, and prints what shoppers
// and imports wrote with its control characters made visible (issue 22). Needs `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { CONTROL_CHARACTER } from '../../src/lib/control-characters.ts';
import { blockedPhones, deliverySlots, orderEvents, orderLines, orders, products, productVariants, users } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import type { OrderDto, SlotListDto, AddressListDto } from '../../src/server/order-schemas.ts';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import { shopDate, zonedInstant } from '../../src/server/services/slots.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { freePort, root, run, runToEnd, type Child } from './processes.ts';

const entry = path.join(root, 'dist/server/entry.mjs');
const DAY = '2026-11-24';
/** The day of the orders whose text came from someone out to drive the grocer's terminal, and of the one the shop cancels. */
const HOSTILE_DAY = '2026-11-25';
/** A shopper's name that retitles an xterm (OSC 0 … BEL) and reverses what follows it (RIGHT-TO-LEFT OVERRIDE). */
const HOSTILE_NAME = 'Ravi\x1b]0;pwned\x07 \u202Etxt.exe';
const HOSTILE_NAME_SHOWN = 'Ravi\\x1b]0;pwned\\x07 U+202Etxt.exe';
const timeZone = readStoreSettings().delivery.timeZone;
let dataDir = '';
const children: Child[] = [];
const ids = { delivering: 0, cancelled: 0, today: 0, hostile: 0, toCancel: 0 };
let plainProductId = 0;
/** Pay-now orders awaiting their payment (issue 25): one confirmed with the shop stopped, one through the running shop. */
const payNow = { stopped: 0, running: 0 };
const PAY_NOW_SLOT = '2026-11-26T10:00';

/** The slots the set-up fills with orders of its own; the running shop's shopper books another (whatever the day). */
const setUpSlotIds = new Set<string>();

/** Runs `npm run orders -- …args` as the grocer would; never throws on exit 1. */
function ordersCommand(...args: string[]) {
  return runToEnd('scripts/orders.ts', dataDir, args);
}

/** Reads the data folder's database while no shop holds it. */
async function withDatabase<T>(read: (db: Awaited<ReturnType<typeof openShopDatabase>>['db']) => Promise<T>): Promise<T> {
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

/** The one-time code in the newest text message the shop wrote to its outbox for this number (waits for it a while). */
async function codeTextedTo(phone: string): Promise<string> {
  const folder = path.join(dataDir, 'sms-outbox');
  for (let waited = 0; waited < 10_000; waited += 100) {
    const newest = (fs.existsSync(folder) ? fs.readdirSync(folder) : []).filter((f) => f.endsWith(`-${phone}.txt`)).sort().at(-1);
    const code = newest && /\b(\d{6}) is your Kirana/.exec(fs.readFileSync(path.join(folder, newest), 'utf8'))?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no text message with a code to ${phone} in ${folder}`);
}

/** Whether the text holds a control character other than the line breaks the command itself prints. */
const hasControls = (text: string) => CONTROL_CHARACTER.test(text.replaceAll('\n', ''));

/** The order, its lines and its placed event, as the checkout stores them (slot ids are the local start). */
async function insertOrders() {
  const settings = readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' });
  const handle = await openShopDatabase(settings, () => {});
  try {
    const { db } = handle;
    await seedCatalogue(db, { products: 30 });
    const [toor, atta] = await db.select({ id: products.id, name: products.name }).from(products).orderBy(asc(products.id)).limit(2);
    // For the shopper of the running shop: a product in stock, bought without a pack size.
    const [plain] = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.inStock, true), notExists(db.select().from(productVariants).where(eq(productVariants.productId, products.id)))))
      .limit(1);
    plainProductId = plain!.id;
    const [user] = await db
      .insert(users)
      .values({ name: 'Meera Iyer', email: 'meera@example.in', phone: '9845012345', passwordHash: 'not used here' })
      .returning({ id: users.id });
    const slot = (id: string, taken: number) => {
      const startMinute = Number(id.slice(11, 13)) * 60;
      return {
        id,
        startsAt: zonedInstant(id.slice(0, 10), startMinute, timeZone),
        endsAt: zonedInstant(id.slice(0, 10), startMinute + 120, timeZone),
        capacity: 20,
        taken,
      };
    };
    const today = shopDate(new Date(), 0, timeZone);
    const setUpSlots = [slot(`${DAY}T10:00`, 2), slot(`${DAY}T14:00`, 0), slot(`${today}T16:00`, 1), slot(`${HOSTILE_DAY}T10:00`, 2)];
    for (const { id } of setUpSlots) setUpSlotIds.add(id);
    await db.insert(deliverySlots).values(setUpSlots);
    const [ravi] = await db
      .insert(users)
      .values({ name: HOSTILE_NAME, email: 'ravi@example.in', phone: '9845099999', passwordHash: 'not used here' })
      .returning({ id: users.id });
    const order = (slotId: string, name: string, totalPaise: number, status: 'placed' | 'packed' | 'cancelled' = 'placed', userId = user!.id) => ({
      userId,
      status,
      paymentMethod: 'cash' as const,
      slotId,
      address: { name, phone: '9845012345', line1: '12, 4th Cross', line2: 'Jayanagar 4th Block', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560011' },
      subtotalPaise: 30_000,
      mrpTotalPaise: 32_000,
      discounts: [{ code: 'all-products', label: '5% off all products', amountPaise: 1_500 }],
      discountPaise: 1_500,
      deliveryPaise: 0,
      totalPaise,
      idempotencyKey: `key-${slotId}-${name}`.replace(/[^A-Za-z0-9-]/g, '-'),
      requestHash: 'test',
    });
    const placed = await db
      .insert(orders)
      .values([
        order(`${DAY}T10:00`, 'Meera Iyer', 28_500),
        order(`${DAY}T10:00`, 'Arjun Rao', 12_050, 'cancelled'),
        order(`${today}T16:00`, 'Kavya Nair', 9_900),
        order(`${HOSTILE_DAY}T10:00`, HOSTILE_NAME, 28_500, 'placed', ravi!.id),
        order(`${HOSTILE_DAY}T10:00`, 'Arjun Rao', 12_050, 'packed'),
      ])
      .returning({ id: orders.id, status: orders.status });
    [ids.delivering, ids.cancelled, ids.today, ids.hostile, ids.toCancel] = placed.map((o) => o.id) as [number, number, number, number, number];
    // An address line with a line break and a product name with a C1 CSI, as an import or a crafted request might leave them.
    await db
      .update(orders)
      .set({ address: sql`jsonb_set(${orders.address}, '{line1}', to_jsonb(${'12, MG Road\nFAKE LINE'}::text))` })
      .where(eq(orders.id, ids.hostile));
    for (const o of placed) {
      await db.insert(orderLines).values([
        { orderId: o.id, productId: toor!.id, name: o.id === ids.hostile ? 'Toor Dal\u009b2J' : toor!.name, unitPricePaise: 10_000, unitMrpPaise: 11_000, qty: 2, lineTotalPaise: 20_000 },
        { orderId: o.id, productId: atta!.id, name: atta!.name, unitPricePaise: 10_000, unitMrpPaise: 10_000, qty: 1, lineTotalPaise: 10_000 },
      ]);
      await db.insert(orderEvents).values({ orderId: o.id, status: 'placed' });
      if (o.status === 'cancelled') await db.insert(orderEvents).values({ orderId: o.id, status: 'cancelled' });
    }
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` before the server tests.`);
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-orders-')), 'data');
  await insertOrders();
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe('with the shop stopped (the command opens the database)', () => {
  it("lists a day's orders by slot, with the slot's places, aligned", async () => {
    const { code, stdout } = await ordersCommand('--date', DAY);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`Orders to deliver on Tuesday, 24 November 2026 (${timeZone})`);
    expect(stdout).toContain('10:00–12:00  2 of 20 places');
    // A slot without orders is left out.
    expect(stdout).not.toContain('14:00–16:00');
    const meera = lines.find((l) => l.includes('Meera Iyer'))!;
    const arjun = lines.find((l) => l.includes('Arjun Rao'))!;
    expect(meera).toMatch(new RegExp(`#${ids.delivering}\\s+placed\\s+Meera Iyer, 560011\\s+3 items\\s+₹285\\s+cash on delivery`));
    expect(arjun).toMatch(/cancelled\s+Arjun Rao, 560011\s+3 items\s+₹120.50\s+cash on delivery/);
    // Columns line up: the totals end at the same place.
    expect(meera.indexOf('cash')).toBe(arjun.indexOf('cash'));
  });

  it("lists today's orders (the shop's clock) without --date", async () => {
    const { code, stdout } = await ordersCommand();
    expect(code).toBe(0);
    expect(stdout).toContain('16:00–18:00  1 of 20 places');
    expect(stdout).toContain('Kavya Nair, 560011');
    expect(stdout).not.toContain('Meera Iyer');
  });

  it('shows one order with its address, lines, totals and timeline', async () => {
    const { code, stdout } = await ordersCommand('show', String(ids.delivering));
    expect(code).toBe(0);
    expect(stdout).toContain(`Order #${ids.delivering}  placed  (cash on delivery)`);
    expect(stdout).toContain('Meera Iyer, 9845012345, meera@example.in');
    expect(stdout).toContain('12, 4th Cross');
    expect(stdout).toContain('Bengaluru, Karnataka 560011');
    expect(stdout).toMatch(/2 ×\s+.+\s+₹100\s+₹200/);
    expect(stdout).toMatch(/5% off all products\s+−₹15/);
    expect(stdout).toMatch(/Total\s+₹285/);
    expect(stdout).toMatch(/Timeline\n\s+placed/);
  });

  it('moves an order one step and writes it to the timeline', async () => {
    const { code, stdout } = await ordersCommand('advance', String(ids.delivering));
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`Order #${ids.delivering}: placed → packed. Next: out for delivery.`);
    // The same notices as the running shop's, through the settings' outboxes, written before the command ended.
    const written = (folder: string) =>
      fs.existsSync(path.join(dataDir, folder)) ? fs.readdirSync(path.join(dataDir, folder)).map((f) => fs.readFileSync(path.join(dataDir, folder, f), 'utf8')) : [];
    expect(written('outbox').filter((mail) => mail.includes(`Subject: Order #${ids.delivering} is packed: `) && mail.includes('To: meera@example.in'))).toHaveLength(1);
    expect(written('sms-outbox').filter((text) => text.includes(`Kirana: Your order #${ids.delivering} is packed, for delivery `))).toHaveLength(1);
  });

  it('prints what shoppers and imports wrote with its control characters made visible, in the list and in one order', async () => {
    const list = await ordersCommand('--date', HOSTILE_DAY);
    expect(list.code).toBe(0);
    expect(hasControls(list.stdout)).toBe(false);
    const lines = list.stdout.split('\n');
    const ravi = lines.find((l) => l.includes(`#${ids.hostile} `))!;
    const arjun = lines.find((l) => l.includes(`#${ids.toCancel} `))!;
    expect(ravi).toContain(`${HOSTILE_NAME_SHOWN}, 560011`);
    // Still one line each, in line: the columns are measured on what is printed.
    expect(ravi.indexOf('cash')).toBe(arjun.indexOf('cash'));

    const one = await ordersCommand('show', String(ids.hostile));
    expect(one.code).toBe(0);
    expect(hasControls(one.stdout)).toBe(false);
    expect(one.stdout).toContain(`${HOSTILE_NAME_SHOWN}, 9845099999, ravi@example.in`);
    expect(one.stdout).toContain('  12, MG Road\\x0aFAKE LINE\n');
    expect(one.stdout).toMatch(/2 ×\s+Toor Dal\\x9b2J\s+₹100/);
  });

  it('cancels an order not yet delivered with a reason: stock and slot place back, the reason on the order', async () => {
    const before = await withDatabase(async (db) => ({
      stock: (await db.select({ stock: products.stock }).from(products).orderBy(asc(products.id)).limit(1))[0]!.stock,
      taken: (await db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, `${HOSTILE_DAY}T10:00`)))[0]!.taken,
    }));
    const { code, stdout, stderr } = await ordersCommand('cancel', String(ids.toCancel), '--reason', 'Out of toor dal today');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      `Order #${ids.toCancel}: packed → cancelled. Its stock and slot place are back; the shopper sees: Cancelled by the shop: Out of toor dal today`,
    );
    const after = await withDatabase(async (db) => ({
      stock: (await db.select({ stock: products.stock }).from(products).orderBy(asc(products.id)).limit(1))[0]!.stock,
      taken: (await db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, `${HOSTILE_DAY}T10:00`)))[0]!.taken,
      order: (await db.select({ cancelledBy: orders.cancelledBy, cancelReason: orders.cancelReason }).from(orders).where(eq(orders.id, ids.toCancel)))[0],
    }));
    // The order had 2 of the first product (and 1 of the second).
    expect(after).toEqual({ stock: before.stock + 2, taken: before.taken - 1, order: { cancelledBy: 'shop', cancelReason: 'Out of toor dal today' } });
    const shown = await ordersCommand('show', String(ids.toCancel));
    expect(shown.stdout).toContain(`Order #${ids.toCancel}  cancelled  (cash on delivery)\nCancelled by the shop: Out of toor dal today\n`);
    expect(shown.stdout).toMatch(/Timeline\n\s+placed.+\n\s+cancelled/);

    const again = await ordersCommand('cancel', String(ids.toCancel), '--reason', 'Out of toor dal today');
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`orders: Order ${ids.toCancel} is cancelled: it can no longer be cancelled.`);
  });

  it('blocks a number in any written form and unblocks it', async () => {
    const blocked = await ordersCommand('block', '+91 98450 99999', '--reason', '295 orders of ₹1');
    expect(blocked.code).toBe(0);
    expect(blocked.stdout.trim()).toBe('9845099999 is blocked: it cannot place orders. Reason: 295 orders of ₹1');
    expect(await withDatabase((db) => db.select({ phone: blockedPhones.phone, reason: blockedPhones.reason }).from(blockedPhones))).toEqual([
      { phone: '9845099999', reason: '295 orders of ₹1' },
    ]);
    const lifted = await ordersCommand('unblock', '09845099999');
    expect(lifted.code).toBe(0);
    expect(lifted.stdout.trim()).toBe('9845099999 is no longer blocked: it can order again.');
    const twice = await ordersCommand('unblock', '9845099999');
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe('orders: 9845099999 is not blocked');
    expect(await withDatabase((db) => db.select().from(blockedPhones))).toEqual([]);
  });

  // At once: all but one are refused before the command opens the database, and that one only reads it.
  it.concurrent.for<[string[], string]>([
    [['cancel', '12'], 'orders: cancel needs a reason the shopper will read, e.g. npm run orders -- cancel 12 --reason "Out of paneer today"'],
    [['cancel', '12', '--reason', 'no'], 'orders: reason must be at least 3 characters'],
    [['cancel', '--reason', 'Out of stock'], 'orders: cancel needs an order id, e.g. npm run orders -- cancel 12'],
    [['show', '12', '--reason', 'why'], 'orders: --reason goes with cancel or block only'],
    [['block'], 'orders: block needs a mobile number, e.g. npm run orders -- block 9845012345'],
    [['block', '12345'], "orders: '12345' is not a 10-digit Indian mobile number"],
    [['block', '\x1b]0;pwned\x07'], "orders: '\\x1b]0;pwned\\x07' is not a 10-digit Indian mobile number"],
    [['unblock', '5845012345'], "orders: '5845012345' is not a 10-digit Indian mobile number"],
    [['--date', '2026-13-45'], 'orders: date must be a real day, e.g. 2026-11-24'],
    [['show', '999999'], 'orders: There is no order 999999'],
    [['advance', 'twelve'], "orders: 'twelve' is not an order id: give the order's number, e.g. 12"],
    [['advance'], 'orders: advance needs an order id, e.g. npm run orders -- advance 12'],
    [['--date', '2026-02-30'], 'orders: date must be a real day, e.g. 2026-11-24'],
    [['ship', '1'], "orders: unknown command 'ship': use list, show, advance, paid, cancel, block, unblock, alerts, issues or settle (see npm run orders -- --help)"],
    [['paid'], 'orders: paid needs an order id, e.g. npm run orders -- paid 12'],
    [['alerts', '3'], "orders: alerts takes nothing after it (got '3')"],
  ])('%j: one line on stderr, exit 1', async ([args, message], { expect }) => {
    const { code, stdout, stderr } = await ordersCommand(...args);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(message);
  });

  it("confirms a pay-now order's UPI payment (twice: already paid), refuses to pack one awaiting it, and a cash one", async () => {
    // Two orders awaiting their payment, due far ahead (the running shop's expiry must leave them be).
    [payNow.stopped, payNow.running] = await withDatabase(async (db) => {
      const startsAt = zonedInstant(PAY_NOW_SLOT.slice(0, 10), 10 * 60, timeZone);
      await db.insert(deliverySlots).values({ id: PAY_NOW_SLOT, startsAt, endsAt: zonedInstant(PAY_NOW_SLOT.slice(0, 10), 12 * 60, timeZone), capacity: 20, taken: 2 });
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'meera@example.in'));
      const rows = await db
        .insert(orders)
        .values(['pay-now-1', 'pay-now-2'].map((key) => ({
          userId: user!.id,
          paymentMethod: 'upi_now' as const,
          paymentStatus: 'awaiting' as const,
          paymentDueAt: new Date('2099-01-01T00:00:00Z'),
          slotId: PAY_NOW_SLOT,
          address: { name: 'Meera Iyer', phone: '9845012345', line1: '12, 4th Cross', line2: '', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560011' },
          subtotalPaise: 25_800,
          mrpTotalPaise: 26_000,
          discounts: [],
          discountPaise: 0,
          deliveryPaise: 0,
          totalPaise: 25_800,
          idempotencyKey: key,
          requestHash: 'test',
        })))
        .returning({ id: orders.id });
      for (const row of rows) await db.insert(orderEvents).values({ orderId: row.id, status: 'placed' });
      return rows.map((r) => r.id) as [number, number];
    });
    const id = String(payNow.stopped);
    const list = await ordersCommand('--date', PAY_NOW_SLOT.slice(0, 10));
    expect(list.stdout).toMatch(new RegExp(`#${id}\\s+placed\\s+Meera Iyer, 560011\\s+0 items\\s+₹258\\s+UPI now, awaiting payment`));
    const shown = await ordersCommand('show', id);
    expect(shown.stdout).toContain(`Order #${id}  placed  (UPI now, awaiting payment)\nAwaiting its UPI payment of ₹258 until 1 Jan 2099, 05:30: npm run orders -- paid ${id} once it arrives.`);

    const packing = await ordersCommand('advance', id);
    expect(packing.code).toBe(1);
    expect(packing.stderr.trim()).toBe(`orders: Order ${id} is awaiting its UPI payment: it cannot be packed until the payment is confirmed (npm run orders -- paid ${id}).`);

    const paid = await ordersCommand('paid', id);
    expect(paid.stderr).toBe('');
    expect(paid.stdout.trim()).toBe(`Order #${id}: payment of ₹258 confirmed. It can now be packed: npm run orders -- advance ${id}`);
    const twice = await ordersCommand('paid', `#${id}`);
    expect(twice.code).toBe(0);
    expect(twice.stdout.trim()).toMatch(new RegExp(`^Order #${id} is already paid \\(confirmed on .+\\); nothing changed\\.$`));
    expect((await ordersCommand('show', id)).stdout).toMatch(/\(UPI now, paid\)\nPaid on /);
    expect((await ordersCommand('advance', id)).stdout.trim()).toBe(`Order #${id}: placed → packed. Next: out for delivery.`);

    const cash = await ordersCommand('paid', String(ids.hostile));
    expect(cash.code).toBe(1);
    expect(cash.stderr.trim()).toBe(`orders: Order ${ids.hostile} is paid on delivery (cash): there is no payment to confirm now.`);
  });

  it('prints its help', async () => {
    const { code, stdout } = await ordersCommand('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('advance <id>');
    expect(stdout).toContain('cancel <id> --reason');
    expect(stdout).toContain('block <mobile>');
    expect(stdout).toContain('unblock <mobile>');
    expect(stdout).toContain('alerts');
    expect(stdout).toContain('paid <id>');
  });

  it('says when no shopper waits for a product to come back', async () => {
    const { code, stdout } = await ordersCommand('alerts');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('No shopper is waiting for a product to come back.');
  });
});

describe('with the shop running (the command goes through it)', () => {
  let shop: Child;
  let base = '';
  let placed: OrderDto;
  let shopper: SessionDto;
  const asShopper = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api${route}`, {
      method,
      headers: { authorization: `Bearer ${shopper.token}`, 'content-type': 'application/json', origin: base, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A plain product out of stock, which the shopper asks to hear about (issue 24). */
  let gone = { id: 0, name: '' };

  beforeAll(async () => {
    // A plain product taken off the shelf (not the one the shopper orders below).
    gone = await withDatabase(async (db) => {
      const [row] = await db
        .select({ id: products.id, name: products.name })
        .from(products)
        .where(and(eq(products.type, 'normal'), sql`${products.id} <> ${plainProductId}`, notExists(db.select().from(productVariants).where(eq(productVariants.productId, products.id)))))
        .orderBy(asc(products.id))
        .limit(1);
      await db.update(products).set({ stock: 0 }).where(eq(products.id, row!.id));
      return row!;
    });
    const port = await freePort();
    shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '' });
    children.push(shop);
    await shop.waitFor('[kirana] serving');
    base = `http://127.0.0.1:${port}`;
    // A shopper orders through the shop: register, fill the cart, save an address, pick a slot, place the order.
    const registered = await fetch(`${base}/api/Authenticate/Register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ name: 'Kavya Nair', email: 'kavya@example.in', phone: '9886012345', password: 'tamarind-rice-42' }),
    });
    expect(registered.status).toBe(202);
    const { challenge } = (await registered.json()) as { challenge: string };
    // The code the shop texted (written to its outbox: no SMS provider) opens the account, with a verified number.
    const verified = await fetch(`${base}/api/Authenticate/VerifyCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ phone: '9886012345', code: await codeTextedTo('9886012345'), challenge }),
    });
    expect(verified.status, await verified.clone().text()).toBe(200);
    shopper = (await verified.json()) as SessionDto;
    expect((await asShopper('POST', '/app/Carts', { productsId: plainProductId, qty: 2 })).status).toBe(201);
    const address = (await (
      await asShopper('POST', '/app/Addresses', {
        name: 'Kavya Nair',
        phone: '9886012345',
        line1: '7, Temple Street',
        city: 'Bengaluru',
        state: 'Karnataka',
        pincode: '560070',
        addressType: 'work',
        instructions: 'Leave with the guard at gate 2',
      })
    ).json()) as AddressListDto;
    const slots = (await (await asShopper('GET', '/app/DeliverySlots')).json()) as SlotListDto;
    const slot = slots.slots.find((s) => s.unavailable === null && !setUpSlotIds.has(s.id))!;
    const res = await asShopper(
      'POST',
      '/app/Orders',
      { addressId: address.addresses[0]!.id, slotId: slot.id, paymentMethod: 'upi' },
      { 'idempotency-key': 'orders-cli-test-0001' },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    placed = (await res.json()) as OrderDto;
  });

  it('announces itself in the data folder, readable by the shop alone', () => {
    const file = path.join(dataDir, 'shop.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ url: base, pid: shop.process.pid });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("lists the shopper's order under its slot while the shop holds the database", async () => {
    const { code, stdout } = await ordersCommand('--date', placed.slot.id.slice(0, 10));
    expect(code).toBe(0);
    expect(stdout).toMatch(/\d\d:\d\d–\d\d:\d\d  1 of 20 places/);
    expect(stdout).toMatch(new RegExp(`#${placed.id}\\s+placed\\s+Kavya Nair, 560070\\s+2 items\\s+₹[\\d,.]+\\s+UPI on delivery`));
  });

  it('moves the order along to delivered (the shopper sees each step), then refuses to move it', async () => {
    const id = String(placed.id);
    expect((await ordersCommand('advance', id)).stdout.trim()).toBe(`Order #${id}: placed → packed. Next: out for delivery.`);
    // Packed: the shopper can no longer cancel.
    expect((await asShopper('POST', `/app/Orders/${id}/Cancel`)).status).toBe(409);
    expect((await ordersCommand('advance', id)).stdout.trim()).toBe(`Order #${id}: packed → out for delivery. Next: delivered.`);
    expect((await ordersCommand('advance', `#${id}`)).stdout.trim()).toBe(`Order #${id}: out for delivery → delivered.`);
    const again = await ordersCommand('advance', id);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`orders: Order ${id} is delivered: it cannot move any further.`);
    const seen = (await (await asShopper('GET', `/app/Orders/${id}`)).json()) as OrderDto;
    expect(seen.status).toBe('delivered');
    expect(seen.timeline.map((e) => e.status)).toEqual(['placed', 'packed', 'out_for_delivery', 'delivered']);

    const cancelled = await ordersCommand('advance', String(ids.cancelled));
    expect(cancelled.code).toBe(1);
    expect(cancelled.stderr.trim()).toBe(`orders: Order ${ids.cancelled} is cancelled: it cannot move any further.`);

    const late = await ordersCommand('cancel', id, '--reason', 'Too late for that');
    expect(late.code).toBe(1);
    expect(late.stderr.trim()).toBe(`orders: Order ${id} is delivered: it can no longer be cancelled.`);
  });

  it('lists the issue the shopper reported on the delivered order, and settles it with a replacement, once, through the shop', async () => {
    const reported = await asShopper('POST', `/app/Orders/${placed.id}/Issues`, { orderLineId: placed.lines[0]!.orderLineId, kind: 'missing', note: 'Not in the bag' });
    expect(reported.status, await reported.clone().text()).toBe(201);
    const issueId = ((await reported.json()) as OrderDto).lines[0]!.issue!.id;
    const list = await ordersCommand('issues');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`\\n\\s+${issueId}\\s+#${placed.id}\\s+2 × .+\\s+Missing\\s+.+\\s+open\\n\\s+Note: Not in the bag\\n`));
    const settled = await ordersCommand('settle', String(issueId), '--replace', '--note', 'Coming with your next order');
    expect(settled.stdout.trim()).toMatch(new RegExp(`^Issue ${issueId} \\(order #${placed.id}, .+\\): settled with a replacement\\. The shopper sees it on the order\\.$`));
    const seen = (await (await asShopper('GET', `/app/Orders/${placed.id}`)).json()) as OrderDto;
    expect(seen.lines[0]!.issue).toMatchObject({ outcome: 'replaced', settleNote: 'Coming with your next order' });
    const twice = await ordersCommand('settle', String(issueId), '--refund');
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe(`orders: Issue ${issueId} is already settled (replaced).`);
  });

  it('cancels an order through the shop, and blocks and unblocks a number through it', async () => {
    const id = String(ids.today);
    const { code, stdout } = await ordersCommand('cancel', id, '--reason', 'Van broke down');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`Order #${id}: placed → cancelled. Its stock and slot place are back; the shopper sees: Cancelled by the shop: Van broke down`);
    expect((await ordersCommand('show', id)).stdout).toContain('Cancelled by the shop: Van broke down');
    expect((await ordersCommand('block', '9845012345')).stdout.trim()).toBe('9845012345 is blocked: it cannot place orders.');
    expect((await ordersCommand('unblock', '+919845012345')).stdout.trim()).toBe('9845012345 is no longer blocked: it can order again.');
    const twice = await ordersCommand('unblock', '9845012345');
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe('orders: 9845012345 is not blocked');
  });

  it("lists what shoppers wait to see back in stock ('Notify me when back') through the shop", async () => {
    expect((await asShopper('POST', '/app/StockAlerts', { productsId: gone.id, productVariantsId: 0 })).status).toBe(201);
    const { code, stdout } = await ordersCommand('alerts');
    expect(code).toBe(0);
    expect(stdout).toContain('Shoppers waiting for a product to come back');
    expect(stdout).toMatch(new RegExp(`\\n\\s+1\\s+${gone.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+0\\n`));
  });

  it("confirms a pay-now order's payment through the shop; twice says it is already paid", async () => {
    const id = String(payNow.running);
    const paid = await ordersCommand('paid', id);
    expect(paid.stderr).toBe('');
    expect(paid.stdout.trim()).toBe(`Order #${id}: payment of ₹258 confirmed. It can now be packed: npm run orders -- advance ${id}`);
    const twice = await ordersCommand('paid', id);
    expect(twice.code).toBe(0);
    expect(twice.stdout.trim()).toMatch(new RegExp(`^Order #${id} is already paid \\(confirmed on .+\\); nothing changed\\.$`));
    expect((await ordersCommand('--date', PAY_NOW_SLOT.slice(0, 10))).stdout).toMatch(new RegExp(`#${id}\\s+placed\\s+.+UPI now, paid`));
  });

  it('prints what came through the shop with its control characters made visible', async () => {
    const { code, stdout } = await ordersCommand('show', String(ids.hostile));
    expect(code).toBe(0);
    expect(hasControls(stdout)).toBe(false);
    expect(stdout).toContain(`${HOSTILE_NAME_SHOWN}, 9845099999, ravi@example.in`);
  });

  it('refuses the grocer routes without the token, or with a wrong one (401 JSON), or a shopper\'s sign-in (403), with no order data', async () => {
    const token = fs.readFileSync(path.join(dataDir, 'grocer-token'), 'utf8').trim();
    expect(fs.statSync(path.join(dataDir, 'grocer-token')).mode & 0o777).toBe(0o600);
    for (const authorization of [undefined, `Grocer ${token}x`, 'Grocer']) {
      const res = await fetch(`${base}/api/grocer/Orders/${placed.id}`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    // A bearer token is a shopper's way in, never the back office's (issue 34), whatever it holds.
    for (const authorization of [`Bearer ${token}`, `Bearer ${shopper.token}`]) {
      const res = await fetch(`${base}/api/grocer/Orders/${placed.id}`, { headers: { authorization } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    const ok = await fetch(`${base}/api/grocer/Orders/${placed.id}`, { headers: { authorization: `Grocer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('removes its announcement when it stops; the command then reads the database again', async () => {
    shop.process.kill('SIGTERM');
    expect((await shop.exited).code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'shop.json'))).toBe(false);
    const { code, stdout } = await ordersCommand('show', String(placed.id));
    expect(code).toBe(0);
    expect(stdout).toContain('Kavya Nair, 9886012345, kavya@example.in');
    // The address's type and the shopper's instructions reach the grocer (issue 25).
    expect(stdout).toContain('Deliver to (work)');
    expect(stdout).toContain('  Instructions: Leave with the guard at gate 2');
    expect(stdout).toMatch(/Timeline\n\s+placed.+\n\s+packed.+\n\s+out for delivery.+\n\s+delivered.+\n/);
  });
});

it('writes one order event per step', async () => {
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    const events = await handle.db.select({ status: orderEvents.status }).from(orderEvents).where(eq(orderEvents.orderId, ids.delivering));
    expect(events.map((e) => e.status)).toEqual(['placed', 'packed']);
  } finally {
    await handle.close();
  }
});
