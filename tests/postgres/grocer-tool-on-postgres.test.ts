// `npm run orders` straight on PostgreSQL (issue 33), with two built shops (dist/, through scripts/serve.ts) running on
// the same database, their page and read caches on (60 s): the grocer's cancel of an order that took a product's last
// unit makes the other shop's product page and API show it back in stock within 1 s (the tool tells them on the
// invalidation bus, LISTEN/NOTIFY, as a shop does), closes the restock alert of the shopper who waited for it, and sends
// the shopper's notice once, whoever of the tool and the shops' outbox drainers gets to it; `npm run import` there
// shows its new prices on both shops within 1 s. Needs dist/ (`npm run build`).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltServer } from '../../scripts/lib/built-server.ts';
import { CACHE_HEADER } from '../../src/http/page-cache.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { cartLines, orderNotices, products, stockAlerts, users } from '../../src/server/db/schema.ts';
import { payNowRules } from '../../src/server/payments/provider.ts';
import type { ProductDto } from '../../src/server/schemas.ts';
import { placeOrder } from '../../src/server/services/orders.ts';
import { listSlots } from '../../src/server/services/slots.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { plainProductIds, saveHomeAddress } from '../api/harness.ts';
import { testServerUrl, twoShopsOnPostgres, type TwoShops } from '../helpers/postgres-shops.ts';
import { root } from '../server/processes.ts';

const serverUrl = testServerUrl();

/** How soon the other shop must show the stock back (the requirement). */
const WITHIN_MS = 1_000;
const POLL_MS = 50;
const ENV = {
  // The same on every instance and the tool, as README's settings table asks.
  JWT_SECRET: 'a secret shared by the shops and the tool of the grocer-tool test',
  GROCER_TOKEN: 'grocer-token-of-the-grocer-tool-test-0123456789',
  PAGE_CACHE_SECONDS: '60',
  READ_CACHE_SECONDS: '60',
  SHUTDOWN_GRACE_SECONDS: '0',
};

let shops: TwoShops | undefined;
let a: BuiltServer | undefined;
let b: BuiltServer | undefined;
let handle: DatabaseHandle | undefined;
/** The tool's own data folder: where its mails and texts are written (the shops write theirs in their own). */
const toolDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-grocer-tool-'));

/** `npm run <script> -- …args` straight on the test's PostgreSQL database, as the grocer runs it beside the shops. */
async function tool(script: 'orders' | 'import', ...args: string[]) {
  return promisify(execFile)(process.execPath, [path.join(root, `scripts/${script}.ts`), ...args], {
    cwd: root,
    env: { ...process.env, ...ENV, DATABASE_URL: shops!.url, DATA_DIR: toolDataDir },
  });
}
const ordersTool = (...args: string[]) => tool('orders', ...args);

async function productOf(shop: BuiltServer, id: number): Promise<ProductDto> {
  const res = await fetch(`${shop.url}/api/app/Products/${id}`, { signal: AbortSignal.timeout(20_000) });
  expect(res.status).toBe(200);
  return (await res.json()) as ProductDto;
}

async function pageOf(shop: BuiltServer, id: number) {
  const res = await fetch(`${shop.url}/product-detail?id=${id}`, { signal: AbortSignal.timeout(20_000) });
  const body = await res.text();
  return { status: res.status, cache: res.headers.get(CACHE_HEADER), outOfStock: body.includes('data-testid="out-of-stock"') };
}

/** Asks until `seen` holds, every POLL_MS; the ms from `since` to the answer that showed it, or null past 3 × WITHIN_MS. */
async function pollUntil(seen: () => Promise<boolean>, since: number): Promise<number | null> {
  for (;;) {
    if (await seen()) return Date.now() - since;
    if (Date.now() - since > 3 * WITHIN_MS) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The mail files of a data folder about this order's cancel. */
function cancelMails(dataDir: string, orderId: number): string[] {
  const folder = path.join(dataDir, 'outbox');
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).filter((name) => fs.readFileSync(path.join(folder, name), 'utf8').includes(`Order #${orderId} is cancelled`));
}

beforeAll(async () => {
  shops = await twoShopsOnPostgres(serverUrl, ENV);
  ({ a, b } = shops);
  handle = await openDatabase({ kind: 'postgres', url: shops.url });
}, 180_000);

afterAll(async () => {
  await handle?.close();
  await shops?.stop();
  fs.rmSync(toolDataDir, { recursive: true, force: true });
}, 60_000);

/** A verified shopper's order of the product's last unit, placed by the order service on the shared database. */
async function orderOfLastUnit(productId: number): Promise<number> {
  const { db } = handle!;
  await db.update(products).set({ stock: 1 }).where(eq(products.id, productId));
  const [shopper] = await db
    .insert(users)
    .values({ name: 'Meera Iyer', email: 'meera.tool@example.in', phone: '9845077777', passwordHash: 'not used here', phoneVerifiedAt: new Date() })
    .returning({ id: users.id });
  const addressId = await saveHomeAddress(db, shopper!.id);
  await db.insert(cartLines).values({ userId: shopper!.id, productId, qty: 1 });
  const store = readStoreSettings();
  const now = new Date();
  const slot = (await listSlots(db, store.delivery, now)).slots.find((s) => s.unavailable === null);
  expect(slot, 'an open delivery slot').toBeDefined();
  const rules = { offers: store.offers, delivery: store.delivery, limits: store.limits, area: store.area, coupons: store.coupons, now: () => now, payNow: payNowRules(store) };
  const { order } = await placeOrder(db, rules, shopper!.id, 'grocer-tool-test-order', { addressId, slotId: slot!.id, paymentMethod: 'cash' });
  return order.id;
}

describe('npm run orders straight on PostgreSQL, two shops running', () => {
  it("the grocer's cancel shows the stock back on the other shop within 1 s, closes the restock alert and sends the notice once", async () => {
    const productId = (await plainProductIds(handle!.db))[0]!;
    const orderId = await orderOfLastUnit(productId);
    // Another shopper waits for it to come back ('Notify me when back').
    const [waiter] = await handle!.db
      .insert(users)
      .values({ name: 'Ravi', email: 'ravi.tool@example.in', phone: '9845088888', passwordHash: 'not used here', phoneVerifiedAt: new Date() })
      .returning({ id: users.id });
    await handle!.db.insert(stockAlerts).values({ userId: waiter!.id, productId, productVariantId: 0 });

    // B keeps "out of stock" in its read cache and its page cache.
    expect((await productOf(b!, productId)).inStock).toBe(false);
    expect((await productOf(b!, productId)).inStock).toBe(false);
    expect(await pageOf(b!, productId)).toMatchObject({ status: 200, outOfStock: true });
    expect(await pageOf(b!, productId)).toMatchObject({ status: 200, cache: 'HIT', outOfStock: true });

    const { stdout } = await ordersTool('cancel', String(orderId), '--reason', 'Out of paneer today');
    const answered = Date.now();
    expect(stdout).toContain(`Order #${orderId}: placed → cancelled.`);

    const [apiMs, pageMs] = await Promise.all([
      pollUntil(async () => (await productOf(b!, productId)).inStock, answered),
      pollUntil(async () => {
        const page = await pageOf(b!, productId);
        return page.status === 200 && !page.outOfStock;
      }, answered),
    ]);
    console.log(`[grocer tool] B's API showed the stock back ${apiMs} ms and B's page ${pageMs} ms after the tool's cancel ended`);
    expect(apiMs, `B's API did not show the stock back within ${3 * WITHIN_MS} ms`).not.toBeNull();
    expect(pageMs, `B's page did not show the stock back within ${3 * WITHIN_MS} ms`).not.toBeNull();
    expect(apiMs!).toBeLessThanOrEqual(WITHIN_MS);
    expect(pageMs!).toBeLessThanOrEqual(WITHIN_MS);

    // The shopper who waited is no longer counted as waiting.
    const [alert] = await handle!.db
      .select({ notifiedAt: stockAlerts.notifiedAt })
      .from(stockAlerts)
      .where(and(eq(stockAlerts.userId, waiter!.id), eq(stockAlerts.productId, productId)));
    expect(alert?.notifiedAt).toBeInstanceOf(Date);

    // The notice went once, whoever sent it: the tool (it waits for its sends before it ends) or a shop's drainer.
    const [notice] = await handle!.db
      .select({ sentAt: orderNotices.sentAt })
      .from(orderNotices)
      .where(and(eq(orderNotices.orderId, orderId), eq(orderNotices.event, 'cancelled')));
    expect(notice?.sentAt).toBeInstanceOf(Date);
    const mails = [toolDataDir, a!.dataDir, b!.dataDir].flatMap((dir) => cancelMails(dir, orderId));
    expect(mails).toHaveLength(1);
  });

  it("the grocer's import shows the new price on both shops within 1 s", async () => {
    const csv = path.join(toolDataDir, 'catalogue.csv');
    const catalogue = (rupees: number) =>
      fs.writeFileSync(
        csv,
        [
          'handle,name,brand,category,description,pack,price,mrp,stock,hot,images',
          `grocer-tool-ghee,Grocer Tool Cow Ghee Tin,Grocer Tool Dairy,Dals & Pulses,A tin of ghee for the grocer tool test.,,${rupees},1499,20,,`,
        ].join('\n'),
      );
    catalogue(1234);
    await tool('import', csv);
    const [made] = await handle!.db.select({ id: products.id }).from(products).where(eq(products.handle, 'grocer-tool-ghee'));
    // Both shops keep the old price in their read caches.
    for (const shop of [a!, b!, a!, b!]) expect((await productOf(shop, made!.id)).pricePaise).toBe(123_400);

    catalogue(1357);
    await tool('import', csv);
    const answered = Date.now();
    const [aMs, bMs] = await Promise.all(
      [a!, b!].map((shop) => pollUntil(async () => (await productOf(shop, made!.id)).pricePaise === 135_700, answered)),
    );
    console.log(`[grocer tool] the new price showed on A ${aMs} ms and on B ${bMs} ms after the tool's import ended`);
    expect(aMs, `A did not show the new price within ${3 * WITHIN_MS} ms`).not.toBeNull();
    expect(bMs, `B did not show the new price within ${3 * WITHIN_MS} ms`).not.toBeNull();
    expect(Math.max(aMs!, bMs!)).toBeLessThanOrEqual(WITHIN_MS);
  });
});
