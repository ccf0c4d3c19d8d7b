// `npm run orders`: the grocer's side of the shop (issue 11; the SPEC has no admin role, so no admin pages).
// Lists a day's orders by delivery slot, shows one, moves one along placed → packed → out for delivery → delivered.
// While the shop runs it goes through the shop's grocer routes (only one process may open the embedded database);
// when the shop is stopped, or with DATABASE_URL, it opens the database itself and runs the same service code.
import { parseArgs } from 'node:util';
import { formatRupees } from '../src/lib/money.ts';
import { positiveIdFrom } from '../src/lib/ids.ts';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
import type { OrderStatus } from '../src/server/db/schema.ts';
import { ShopDateSchema, type GrocerAdvanceDto, type GrocerDayDto, type GrocerOrderDto } from '../src/server/grocer-schemas.ts';
import { advanceOrder, grocerOrder, NEXT_STATUS, ordersOfDay, statusLabel } from '../src/server/services/grocer.ts';
import { readStoreSettings } from '../src/server/store-settings.ts';
import { CliError, grocerClient, openStoppedShop } from './lib/grocer-client.ts';
import { runningShop } from './lib/shop-file.ts';

const HELP = `npm run orders -- [command] [options]

The grocer's orders. Works with the shop running (it asks the shop) or stopped (it opens the database).

Commands:
  list [--date YYYY-MM-DD]   the orders to deliver on a day (default: today, shop time), by delivery slot
  show <id>                  one order: customer, address, lines, totals, timeline
  advance <id>               move an order one step: placed → packed → out for delivery → delivered

Options:
  --date YYYY-MM-DD          the day for list
  -h, --help                 this help

Reads DATA_DIR (default ./data) or DATABASE_URL, as the shop does.`;

interface Backend {
  day(date: string | undefined): Promise<GrocerDayDto>;
  order(id: number): Promise<GrocerOrderDto>;
  advance(id: number): Promise<GrocerAdvanceDto>;
  close(): Promise<void>;
}

/** The running shop's grocer routes, with the token from the data folder. */
function httpBackend(url: string, dataDir: string): Backend {
  const call = grocerClient(url, dataDir);
  return {
    day: (date) => call('GET', date ? `Orders?date=${date}` : 'Orders'),
    order: (id) => call('GET', `Orders/${id}`),
    advance: (id) => call('POST', `Orders/${id}/Advance`),
    close: async () => {},
  };
}

/** The database itself: the shop is stopped (the data folder's lock refuses otherwise), or it is PostgreSQL. */
async function databaseBackend(settings: ServerSettings): Promise<Backend> {
  const handle = await openStoppedShop(settings);
  const { db } = handle;
  const { delivery } = readStoreSettings();
  return {
    day: (date) => ordersOfDay(db, delivery, date),
    order: (id) => grocerOrder(db, delivery, id),
    advance: async (id) => {
      const { from } = await advanceOrder(db, id);
      return { from, order: await grocerOrder(db, delivery, id) };
    },
    close: () => handle.close(),
  };
}

// --- Output --------------------------------------------------------------------------------------------------------

/** Rows as aligned columns: 'r' columns (numbers, money) to the right. */
function columns(rows: string[][], align: Array<'l' | 'r'>, indent = '  '): string[] {
  const widths = align.map((_, i) => Math.max(0, ...rows.map((r) => (r[i] ?? '').length)));
  return rows.map(
    (r) => indent + r.map((cell, i) => (align[i] === 'r' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd(),
  );
}

const PAYMENT = { cash: 'cash on delivery', upi: 'UPI on delivery' } as const;
const time = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-IN', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
const dateTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-IN', { timeZone, dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(new Date(iso));
const longDay = (date: string) =>
  new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', dateStyle: 'full' }).format(new Date(`${date}T00:00:00Z`));
const slotText = (slot: { startsAt: string; endsAt: string }, timeZone: string) =>
  `${time(slot.startsAt, timeZone)}–${time(slot.endsAt, timeZone)}`;
const items = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

function printDay(day: GrocerDayDto) {
  console.log(`Orders to deliver on ${longDay(day.date)} (${day.timeZone})`);
  if (day.slots.length === 0) return console.log('\nNo orders for this day.');
  const rows = day.slots.flatMap((slot) =>
    slot.orders.map((o) => [
      `#${o.id}`,
      statusLabel(o.status),
      `${o.customerName}, ${o.pincode}`,
      items(o.itemCount),
      formatRupees(o.totalPaise),
      PAYMENT[o.paymentMethod],
    ]),
  );
  // One alignment for the whole day, so the columns line up from slot to slot.
  const lines = columns(rows, ['r', 'l', 'l', 'r', 'r', 'l']);
  let next = 0;
  for (const slot of day.slots) {
    console.log(`\n${slotText(slot, day.timeZone)}  ${slot.taken} of ${slot.capacity} places`);
    for (const _ of slot.orders) console.log(lines[next++]);
  }
}

function printOrder(order: GrocerOrderDto) {
  const tz = order.timeZone;
  const { address: a, customer: c, summary: s } = order;
  console.log(`Order #${order.id}  ${statusLabel(order.status)}  (${PAYMENT[order.paymentMethod]})`);
  for (const line of columns(
    [
      ['Placed', dateTime(order.createdAt, tz)],
      ['Slot', `${longDay(order.slot.id.slice(0, 10))}, ${slotText(order.slot, tz)}`],
      ['Customer', `${c.name}, ${c.phone}, ${c.email}`],
    ],
    ['l', 'l'],
    '',
  )) {
    console.log(line);
  }
  console.log('\nDeliver to');
  for (const text of [`${a.name}, ${a.phone}`, a.line1, a.line2, a.landmark, `${a.city}, ${a.state} ${a.pincode}`]) {
    if (text) console.log(`  ${text}`);
  }
  console.log('');
  const lineRows = order.lines.map((l) => [
    `${l.qty} ×`,
    l.variantName ? `${l.name} (${l.variantName})` : l.name,
    formatRupees(l.unitPricePaise),
    formatRupees(l.lineTotalPaise),
  ]);
  const totalRows = [
    ['', 'Subtotal', '', formatRupees(s.subtotalPaise)],
    ...s.discounts.map((d) => ['', d.label, '', `−${formatRupees(d.amountPaise)}`]),
    ['', 'Delivery', '', s.deliveryPaise === 0 ? 'free' : formatRupees(s.deliveryPaise)],
    ['', 'Total', '', formatRupees(s.totalPaise)],
  ];
  const all = columns([...lineRows, ...totalRows], ['r', 'l', 'r', 'r']);
  for (const line of all.slice(0, lineRows.length)) console.log(line);
  console.log('');
  for (const line of all.slice(lineRows.length)) console.log(line);
  console.log('\nTimeline');
  for (const line of columns(
    order.timeline.map((e) => [statusLabel(e.status), dateTime(e.at, tz)]),
    ['l', 'l'],
  )) {
    console.log(line);
  }
}

function nextStepHint(status: OrderStatus): string {
  const next = NEXT_STATUS[status];
  return next ? ` Next: ${statusLabel(next)}.` : '';
}

// --- Commands ------------------------------------------------------------------------------------------------------

function orderIdOf(raw: string | undefined, command: string): number {
  if (raw === undefined) throw new CliError(`${command} needs an order id, e.g. npm run orders -- ${command} 12`);
  const id = positiveIdFrom(raw.replace(/^#/, ''));
  if (id === null) throw new CliError(`'${raw}' is not an order id: give the order's number, e.g. 12`);
  return id;
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { date: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (see npm run orders -- --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return console.log(HELP);
  const [command = 'list', arg, ...extra] = positionals;
  if (extra.length > 0) throw new CliError(`unexpected '${extra.join(' ')}' (see npm run orders -- --help)`);
  if (!['list', 'show', 'advance'].includes(command)) {
    throw new CliError(`unknown command '${command}': use list, show or advance (see npm run orders -- --help)`);
  }
  if (values.date !== undefined && command !== 'list') throw new CliError('--date goes with list only');
  let date: string | undefined;
  if (values.date !== undefined) {
    const checked = ShopDateSchema.safeParse(values.date);
    if (!checked.success) throw new CliError(checked.error.issues[0]!.message);
    date = checked.data;
  }
  const id = command === 'list' ? 0 : orderIdOf(arg, command);
  if (command === 'list' && arg !== undefined) throw new CliError(`list takes no id; did you mean show ${arg}?`);

  const settings = readServerSettings();
  const shop = settings.databaseUrl ? undefined : runningShop(settings.dataDir);
  const backend = shop ? httpBackend(shop.url, settings.dataDir) : await databaseBackend(settings);
  try {
    if (command === 'list') printDay(await backend.day(date));
    else if (command === 'show') printOrder(await backend.order(id));
    else {
      const { from, order } = await backend.advance(id);
      console.log(`Order #${order.id}: ${statusLabel(from)} → ${statusLabel(order.status)}.${nextStepHint(order.status)}`);
    }
  } finally {
    await backend.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // One line for the grocer: what went wrong (an order that cannot move, a folder in use, a shop not answering).
  console.error(`orders: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
