// `npm run orders` against a real data folder: with the shop stopped it opens the database itself (orders written
// straight to the folder); with the built shop running (which holds the folder's lock) it goes through the shop's
// grocer routes, for an order a shopper placed over HTTP. Needs `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, notExists } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { deliverySlots, orderEvents, orderLines, orders, products, productVariants, users } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import type { OrderDto, SlotListDto, AddressListDto } from '../../src/server/order-schemas.ts';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import { shopDate, zonedInstant } from '../../src/server/services/slots.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { freePort, root, run, runToEnd, type Child } from './processes.ts';

const entry = path.join(root, 'dist/server/entry.mjs');
const DAY = '2026-11-24';
const timeZone = readStoreSettings().delivery.timeZone;
let dataDir = '';
const children: Child[] = [];
const ids = { delivering: 0, cancelled: 0, today: 0 };
let plainProductId = 0;
/** The slots the set-up fills with orders of its own; the running shop's shopper books another (whatever the day). */
const setUpSlotIds = new Set<string>();

/** Runs `npm run orders -- …args` as the grocer would; never throws on exit 1. */
function ordersCommand(...args: string[]) {
  return runToEnd('scripts/orders.ts', dataDir, args);
}

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
    const setUpSlots = [slot(`${DAY}T10:00`, 2), slot(`${DAY}T14:00`, 0), slot(`${today}T16:00`, 1)];
    for (const { id } of setUpSlots) setUpSlotIds.add(id);
    await db.insert(deliverySlots).values(setUpSlots);
    const order = (slotId: string, name: string, totalPaise: number, status: 'placed' | 'cancelled' = 'placed') => ({
      userId: user!.id,
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
      ])
      .returning({ id: orders.id, status: orders.status });
    [ids.delivering, ids.cancelled, ids.today] = placed.map((o) => o.id) as [number, number, number];
    for (const o of placed) {
      await db.insert(orderLines).values([
        { orderId: o.id, productId: toor!.id, name: toor!.name, unitPricePaise: 10_000, unitMrpPaise: 11_000, qty: 2, lineTotalPaise: 20_000 },
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
  });

  it.each([
    [['show', '999999'], 'orders: There is no order 999999'],
    [['advance', 'twelve'], "orders: 'twelve' is not an order id: give the order's number, e.g. 12"],
    [['advance'], 'orders: advance needs an order id, e.g. npm run orders -- advance 12'],
    [['--date', '2026-02-30'], 'orders: date must be a real day, e.g. 2026-11-24'],
    [['ship', '1'], "orders: unknown command 'ship': use list, show or advance (see npm run orders -- --help)"],
  ])('%j: one line on stderr, exit 1', async (args, message) => {
    const { code, stdout, stderr } = await ordersCommand(...args);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(message);
  });

  it('prints its help', async () => {
    const { code, stdout } = await ordersCommand('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('advance <id>');
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

  beforeAll(async () => {
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
    expect(registered.status).toBe(201);
    shopper = (await registered.json()) as SessionDto;
    expect((await asShopper('POST', '/app/Carts', { productsId: plainProductId, qty: 2 })).status).toBe(201);
    const address = (await (
      await asShopper('POST', '/app/Addresses', {
        name: 'Kavya Nair',
        phone: '9886012345',
        line1: '7, Temple Street',
        city: 'Mysuru',
        state: 'Karnataka',
        pincode: '570001',
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
    expect(stdout).toMatch(new RegExp(`#${placed.id}\\s+placed\\s+Kavya Nair, 570001\\s+2 items\\s+₹[\\d,.]+\\s+UPI on delivery`));
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
  });

  it('refuses the grocer routes without the token, or with a wrong one (401 JSON, no order data)', async () => {
    const token = fs.readFileSync(path.join(dataDir, 'grocer-token'), 'utf8').trim();
    expect(fs.statSync(path.join(dataDir, 'grocer-token')).mode & 0o777).toBe(0o600);
    for (const authorization of [undefined, `Grocer ${token}x`, `Bearer ${token}`, `Bearer ${shopper.token}`, 'Grocer']) {
      const res = await fetch(`${base}/api/grocer/Orders/${placed.id}`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
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
