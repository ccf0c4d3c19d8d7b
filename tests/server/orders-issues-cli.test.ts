// `npm run orders -- issues` and `-- settle N --refund|--replace [--note]` (issue 25) with the shop stopped: the
// command opens the data folder's database and runs the same service code as the grocer's routes (which
// tests/api/order-issues.test.ts covers over HTTP, and the order-issues e2e journey through the running shop).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { deliverySlots, issuePhotos, orderEvents, orderIssues, orderLines, orders, products, users } from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { zonedInstant } from '../../src/server/services/slots.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { runToEnd } from './processes.ts';

const timeZone = readStoreSettings().delivery.timeZone;
let dataDir = '';
const issue = { open: 0, older: 0 };
let orderId = 0;
let photoId = 0;

const ordersCommand = (...args: string[]) => runToEnd('scripts/orders.ts', dataDir, args);

async function withDatabase<T>(read: (db: Awaited<ReturnType<typeof openShopDatabase>>['db']) => Promise<T>): Promise<T> {
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-issues-')), 'data');
  await withDatabase(async (db) => {
    await seedCatalogue(db, { products: 10 });
    const [toor, atta] = await db.select({ id: products.id }).from(products).orderBy(asc(products.id)).limit(2);
    const [user] = await db
      .insert(users)
      .values({ name: 'Meera Iyer', email: 'meera@example.in', phone: '9845012345', passwordHash: 'not used here' })
      .returning({ id: users.id });
    const slotId = '2026-11-20T10:00';
    await db.insert(deliverySlots).values({
      id: slotId,
      startsAt: zonedInstant('2026-11-20', 600, timeZone),
      endsAt: zonedInstant('2026-11-20', 720, timeZone),
      capacity: 20,
      taken: 1,
    });
    const [order] = await db
      .insert(orders)
      .values({
        userId: user!.id,
        status: 'delivered',
        paymentMethod: 'cash',
        slotId,
        address: { name: 'Meera Iyer', phone: '9845012345', line1: '12, 4th Cross', line2: '', landmark: '', city: 'Bengaluru', state: 'Karnataka', pincode: '560011' },
        subtotalPaise: 30_000,
        mrpTotalPaise: 32_000,
        discounts: [],
        discountPaise: 0,
        deliveryPaise: 0,
        totalPaise: 30_000,
        idempotencyKey: 'issues-cli-order',
        requestHash: 'test',
      })
      .returning({ id: orders.id });
    orderId = order!.id;
    const lines = await db
      .insert(orderLines)
      .values([
        { orderId, productId: toor!.id, name: 'Toor Dal', variantName: '1 kg', unitPricePaise: 10_000, unitMrpPaise: 11_000, qty: 2, lineTotalPaise: 20_000 },
        { orderId, productId: atta!.id, name: 'Atta', unitPricePaise: 7_600, unitMrpPaise: 7_600, qty: 1, lineTotalPaise: 7_600 },
      ])
      .returning({ id: orderLines.id });
    await db.insert(orderEvents).values([{ orderId, status: 'placed' }, { orderId, status: 'delivered' }]);
    const [older] = await db
      .insert(orderIssues)
      .values({ orderId, orderLineId: lines[0]!.id, kind: 'missing', note: '', outcome: 'replaced', settledAt: new Date('2026-11-21T05:00:00Z'), createdAt: new Date('2026-11-21T04:00:00Z') })
      .returning({ id: orderIssues.id });
    const [photo] = await db
      .insert(issuePhotos)
      .values({ userId: user!.id, bytes: new Uint8Array([0xff, 0xd8, 0xff]), thumbnail: new Uint8Array([0xff, 0xd8, 0xff]), byteSize: 6 })
      .returning({ id: issuePhotos.id });
    photoId = photo!.id;
    const [open] = await db
      .insert(orderIssues)
      .values({ orderId, orderLineId: lines[1]!.id, kind: 'damaged', note: 'The bag was torn', photoId, createdAt: new Date('2026-11-22T04:00:00Z') })
      .returning({ id: orderIssues.id });
    issue.older = older!.id;
    issue.open = open!.id;
  });
});
// Guarded: with no dataDir, path.dirname('') is '.', the working tree itself.
afterAll(() => dataDir && fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

it('lists the issues, open ones first, with the order, item, kind, note, photo URL and when', async () => {
  const { code, stdout, stderr } = await ordersCommand('issues');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('1 open, 1 settled');
  const rows = stdout.split('\n').filter((l) => /^\s+\d+\s+#\d+/.test(l));
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatch(new RegExp(`^\\s+${issue.open}\\s+#${orderId}\\s+1 × Atta \\(₹76\\)\\s+Damaged\\s+22 Nov 2026.*open$`));
  expect(rows[1]).toMatch(new RegExp(`^\\s+${issue.older}\\s+#${orderId}\\s+2 × Toor Dal \\(1 kg\\) \\(₹200\\)\\s+Missing.*replaced`));
  expect(stdout).toContain('Note: The bag was torn');
  // The grocer's own URL of the photo: it answers only with the grocer's token (issue 32).
  expect(stdout).toContain(`Photo: /api/grocer/IssuePhotos/${photoId}`);
});

it('settles an open issue with a refund of the line’s total and a note, once; refuses a settled one clearly', async () => {
  const settled = await ordersCommand('settle', String(issue.open), '--refund', '--note', 'Refunded to your UPI');
  expect(settled.stderr).toBe('');
  expect(settled.stdout.trim()).toBe(`Issue ${issue.open} (order #${orderId}, Atta): settled with a refund of ₹76. The shopper sees it on the order.`);
  const row = await withDatabase(async (db) => (await db.select().from(orderIssues).where(eq(orderIssues.id, issue.open)))[0]!);
  expect(row).toMatchObject({ outcome: 'refunded', settleNote: 'Refunded to your UPI' });
  expect(row.settledAt).not.toBeNull();

  const again = await ordersCommand('settle', String(issue.open), '--replace');
  expect(again.code).toBe(1);
  expect(again.stderr.trim()).toBe(`orders: Issue ${issue.open} is already settled (refunded).`);
  expect((await ordersCommand('issues')).stdout).toContain('0 open, 2 settled');
});

it('refuses a settle without an outcome, with both, without a number, or for no such issue', async () => {
  expect((await ordersCommand('settle', String(issue.open))).stderr.trim()).toBe('orders: settle needs one of --refund or --replace');
  expect((await ordersCommand('settle', String(issue.open), '--refund', '--replace')).stderr.trim()).toBe('orders: settle needs one of --refund or --replace');
  expect((await ordersCommand('settle', '--refund')).stderr).toContain('settle needs an issue number');
  expect((await ordersCommand('settle', 'x1', '--refund')).stderr).toContain("'x1' is not an issue number");
  expect((await ordersCommand('list', '--refund')).stderr.trim()).toBe('orders: --refund, --replace and --note go with settle only');
  const missing = await ordersCommand('settle', '99999', '--replace');
  expect(missing.code).toBe(1);
  expect(missing.stderr.trim()).toBe('orders: There is no issue 99999');
});
