// `npm run orders`: the grocer's side of the shop (issue 11; the SPEC has no admin role, so no admin pages).
// Lists a day's orders by delivery slot, shows one, moves one along placed → packed → out for delivery → delivered,
// cancels one not yet delivered, blocks a mobile number from ordering (issue 22), and lists what shoppers wait to
// see back in stock (issue 24).
// While the shop runs it goes through the shop's grocer routes (only one process may open the embedded database);
// when the shop is stopped, or with DATABASE_URL, it opens the database itself and runs the same order writes as a shop
// (services/after-write.ts): on PostgreSQL the shops running on it hear each change on their invalidation bus.
import { parseArgs } from 'node:util';
import { showControlCharacters } from '../src/lib/control-characters.ts';
import { formatRupees } from '../src/lib/money.ts';
import { positiveIdFrom } from '../src/lib/ids.ts';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
import type { OrderStatus } from '../src/server/db/schema.ts';
import {
  BlockReasonSchema,
  CancelReasonSchema,
  GrocerBlockRequestSchema,
  ShopDateSchema,
  type BlockedPhoneDto,
  type GrocerAdvanceDto,
  type GrocerCancelDto,
  type GrocerDayDto,
  type GrocerOrderDto,
  type GrocerPaidDto,
  type GrocerStockAlertsDto,
} from '../src/server/grocer-schemas.ts';
import { NEXT_STATUS, shopCancelText, statusLabel } from '../src/lib/order-status.ts';
import { readStoreSettings } from '../src/server/store-settings.ts';
import { CliError, grocerClient, openStoppedShop, toolBus } from './lib/grocer-client.ts';
import { runningShop } from '../src/http/shop-file.ts';
import { ISSUE_KIND_LABELS } from '../src/lib/order-issues.ts';
import { SettleNoteSchema, type GrocerIssueDto, type GrocerIssueListDto } from '../src/server/after-delivery-schemas.ts';

const HELP = `npm run orders -- [command] [options]

The grocer's orders. Works with the shop running (it asks the shop) or stopped (it opens the database).

Commands:
  list [--date YYYY-MM-DD]   the orders to deliver on a day (default: today, shop time), by delivery slot
  show <id>                  one order: customer, address, lines, totals, timeline
  advance <id>               move an order one step: placed → packed → out for delivery → delivered
  paid <id>                  confirm that a "UPI — pay now" order's payment arrived (then it can be packed);
                             an unpaid one is cancelled by itself when its time runs out (store.yaml payments)
  cancel <id> --reason "…"   cancel an order not yet delivered; its stock and slot place go back, and the
                             shopper sees "Cancelled by the shop: <reason>"
  block <mobile>             stop a mobile number from placing orders (--reason "…" to note why)
  unblock <mobile>           let a blocked number order again
  alerts                     what shoppers wait to see back in stock ('Notify me when back'): how many wait
                             for each product and pack, and the units on the shelf now
  issues                     the issues shoppers reported on delivered orders, open ones first: issue number,
                             order, item, kind, note, photo URL, when
  settle <issue> --refund|--replace [--note "…"]
                             settle an open issue: a refund of the line's total, or a replacement; the shopper
                             sees the outcome (and the note) on the order

Options:
  --date YYYY-MM-DD          the day for list
  --reason "…"               why, for cancel (required) and block
  --refund, --replace        how settle settles the issue (one of them)
  --note "…"                 what the shopper reads about it, for settle (optional)
  -h, --help                 this help

Reads DATA_DIR (default ./data) or DATABASE_URL, as the shop does.`;

interface Backend {
  day(date: string | undefined): Promise<GrocerDayDto>;
  order(id: number): Promise<GrocerOrderDto>;
  advance(id: number): Promise<GrocerAdvanceDto>;
  cancel(id: number, reason: string): Promise<GrocerCancelDto>;
  paid(id: number): Promise<GrocerPaidDto>;
  block(phone: string, reason: string): Promise<BlockedPhoneDto>;
  unblock(phone: string): Promise<BlockedPhoneDto>;
  alerts(): Promise<GrocerStockAlertsDto>;
  issues(): Promise<GrocerIssueListDto>;
  settle(id: number, outcome: 'refunded' | 'replaced', note: string): Promise<GrocerIssueDto>;
  close(): Promise<void>;
}

/** The running shop's grocer routes, with the token from the data folder. */
function httpBackend(url: string, dataDir: string): Backend {
  const call = grocerClient(url, dataDir);
  return {
    day: (date) => call('GET', date ? `Orders?date=${date}` : 'Orders'),
    order: (id) => call('GET', `Orders/${id}`),
    advance: (id) => call('POST', `Orders/${id}/Advance`),
    cancel: (id, reason) => call('POST', `Orders/${id}/Cancel`, { json: { reason } }),
    paid: (id) => call('POST', `Orders/${id}/Paid`),
    block: (phone, reason) => call('POST', 'BlockedPhones', { json: { phone, reason } }),
    unblock: (phone) => call('DELETE', `BlockedPhones/${encodeURIComponent(phone)}`),
    alerts: () => call('GET', 'StockAlerts'),
    issues: () => call('GET', 'Issues'),
    settle: (id, outcome, note) => call('POST', `Issues/${id}/Settle`, { json: { outcome, note } }),
    close: async () => {},
  };
}

/**
 * The database itself: the shop is stopped (the data folder's lock refuses otherwise), or it is PostgreSQL, where the
 * shops that run on it hear each write on the invalidation bus. Each write is followed by what follows it in a shop
 * (services/after-write.ts): caches told, restock alerts closed, the notice sent.
 */
async function databaseBackend(settings: ServerSettings): Promise<Backend> {
  // Loaded here: a command through the running shop, or one refused for its arguments, needs none of the database's
  // code, and loading it is most of such a command's time.
  const [{ blockPhone, unblockPhone }, { grocerOrder, ordersOfDay }, { waitingForStock }, { orderWrites }, { messengersFromSettings }, { orderNotices }, { listIssues, settleIssue }] =
    await Promise.all([
      import('../src/server/services/blocked-phones.ts'),
      import('../src/server/services/grocer.ts'),
      import('../src/server/services/stock-alerts.ts'),
      import('../src/server/services/after-write.ts'),
      import('../src/server/auth/setup.ts'),
      import('../src/server/services/notices.ts'),
      import('../src/server/services/order-issues.ts'),
    ]);
  const handle = await openStoppedShop(settings);
  const { db } = handle;
  const { delivery, limits } = readStoreSettings();
  const stale = await toolBus(settings, (message) => console.error(`orders: ${message}`));
  // The same notices the running shop sends, through the settings' mailer and text sender (or their outboxes); drained
  // before this process ends. Where they were written is not the grocer's business: not printed.
  const notices = orderNotices({ db, ...(await messengersFromSettings(settings, () => {})), linkOrigin: settings.siteOrigin, timeZone: delivery.timeZone, textsPerNumberPerHour: limits.orderTextsPerNumberPerHour });
  const writes = orderWrites({ db, stale, notices });
  return {
    day: (date) => ordersOfDay(db, delivery, date),
    order: (id) => grocerOrder(db, delivery, id),
    advance: async (id) => {
      const { from } = await writes.advance(id);
      return { from, order: await grocerOrder(db, delivery, id) };
    },
    cancel: async (id, reason) => {
      const { from } = await writes.cancelByShop(id, reason);
      return { from, order: await grocerOrder(db, delivery, id) };
    },
    paid: async (id) => {
      const { outcome } = await writes.confirmPayment(id);
      return { outcome, order: await grocerOrder(db, delivery, id) };
    },
    block: (phone, reason) => blockPhone(db, phone, reason),
    unblock: (phone) => unblockPhone(db, phone),
    alerts: () => waitingForStock(db),
    issues: () => listIssues(db),
    settle: (id, outcome, note) => settleIssue(db, id, outcome, note),
    close: async () => {
      await notices.drain();
      await stale.close();
      await handle.close();
    },
  };
}

/**
 * Every string of the backend's answers with its control characters written out (`\x1b`, `U+202E`): names, addresses,
 * product names and reasons come from shoppers and imports, and must neither drive the grocer's terminal nor break a
 * line. Done once here, before any width is measured, so the columns line up on what is printed.
 */
function visibleText<T>(value: T): T {
  if (typeof value === 'string') return showControlCharacters(value) as T;
  if (Array.isArray(value)) return value.map(visibleText) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, visibleText(v)])) as T;
  }
  return value;
}

function printable(backend: Backend): Backend {
  return {
    day: async (date) => visibleText(await backend.day(date)),
    order: async (id) => visibleText(await backend.order(id)),
    advance: async (id) => visibleText(await backend.advance(id)),
    cancel: async (id, reason) => visibleText(await backend.cancel(id, reason)),
    paid: async (id) => visibleText(await backend.paid(id)),
    block: async (phone, reason) => visibleText(await backend.block(phone, reason)),
    unblock: async (phone) => visibleText(await backend.unblock(phone)),
    alerts: async () => visibleText(await backend.alerts()),
    issues: async () => visibleText(await backend.issues()),
    settle: async (id, outcome, note) => visibleText(await backend.settle(id, outcome, note)),
    close: () => backend.close(),
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

const PAYMENT = { cash: 'cash on delivery', upi: 'UPI on delivery', upi_now: 'UPI now' } as const;
const PAYMENT_STATUS = { on_delivery: '', awaiting: ', awaiting payment', paid: ', paid', expired: ', not paid in time' } as const;
/**
 * How an order is paid and, paying now, where its payment is: 'UPI now, awaiting payment'. A cancelled order awaits
 * nothing: one cancelled before its payment came reads 'not paid'.
 */
const paymentText = (o: { status: OrderStatus; paymentMethod: keyof typeof PAYMENT; paymentStatus: keyof typeof PAYMENT_STATUS }) =>
  `${PAYMENT[o.paymentMethod]}${o.status === 'cancelled' && o.paymentStatus === 'awaiting' ? ', not paid' : PAYMENT_STATUS[o.paymentStatus]}`;
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
      paymentText(o),
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
  const { payment } = order;
  console.log(`Order #${order.id}  ${statusLabel(order.status)}  (${paymentText({ status: order.status, paymentMethod: payment.method, paymentStatus: payment.status })})`);
  if (order.status === 'cancelled') console.log(cancelledText(order));
  if (payment.status === 'awaiting' && payment.dueAt && order.status === 'placed') {
    console.log(`Awaiting its UPI payment of ${formatRupees(order.summary.totalPaise)} until ${dateTime(payment.dueAt, tz)}: npm run orders -- paid ${order.id} once it arrives.`);
  }
  if (payment.paidAt) console.log(`Paid on ${dateTime(payment.paidAt, tz)}`);
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
  console.log(`\nDeliver to${a.addressType ? ` (${a.addressType})` : ''}`);
  for (const text of [`${a.name}, ${a.phone}`, a.line1, a.line2, a.landmark, `${a.city}, ${a.state} ${a.pincode}`]) {
    if (text) console.log(`  ${text}`);
  }
  // The shopper's word to the delivery person (issue 25); its line breaks come written out, like any control character.
  if (a.instructions) console.log(`  Instructions: ${a.instructions}`);
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

function printAlerts(alerts: GrocerStockAlertsDto) {
  if (alerts.length === 0) return console.log('No shopper is waiting for a product to come back.');
  console.log('Shoppers waiting for a product to come back (Notify me when back)\n');
  const rows = [
    ['Waiting', 'Product', 'On the shelf'],
    ...alerts.map((a) => [String(a.waiting), a.variantName ? `${a.name} (${a.variantName})` : a.name, String(a.stock)]),
  ];
  for (const line of columns(rows, ['r', 'l', 'r'])) console.log(line);
}

/** Who cancelled it: the shop's words exactly as the shopper reads them. */
const cancelledText = (order: GrocerOrderDto) => shopCancelText(order) ?? 'Cancelled by the shopper';

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

const COMMANDS = ['list', 'show', 'advance', 'paid', 'cancel', 'block', 'unblock', 'alerts', 'issues', 'settle'];

/** settle's issue number, its outcome (--refund or --replace, one of them) and its note, checked as the shop checks it. */
function settlementOf(raw: string | undefined, values: { refund?: boolean; replace?: boolean; note?: string }) {
  if (raw === undefined) throw new CliError('settle needs an issue number (see npm run orders -- issues), e.g. npm run orders -- settle 3 --refund');
  const id = positiveIdFrom(raw.replace(/^#/, ''));
  if (id === null) throw new CliError(`'${raw}' is not an issue number: give the number npm run orders -- issues shows, e.g. 3`);
  if (values.refund === values.replace) throw new CliError('settle needs one of --refund or --replace');
  const note = SettleNoteSchema.safeParse(values.note ?? '');
  if (!note.success) throw new CliError(note.error.issues[0]!.message);
  return { id, outcome: values.refund ? ('refunded' as const) : ('replaced' as const), note: note.data };
}

/** The mobile number as the shop keeps it (ten digits), or a message naming what was given. */
function mobileOf(raw: string | undefined, command: string): string {
  if (raw === undefined) throw new CliError(`${command} needs a mobile number, e.g. npm run orders -- ${command} 9845012345`);
  const checked = GrocerBlockRequestSchema.shape.phone.safeParse(raw);
  if (!checked.success) throw new CliError(`'${raw}' is not a 10-digit Indian mobile number`);
  return checked.data;
}

/** The --reason text checked as the shop checks it (its first problem is the message). */
function reasonOf(raw: string | undefined, command: string): string {
  if (command === 'cancel' && raw === undefined) {
    throw new CliError('cancel needs a reason the shopper will read, e.g. npm run orders -- cancel 12 --reason "Out of paneer today"');
  }
  const checked = (command === 'cancel' ? CancelReasonSchema : BlockReasonSchema).safeParse(raw ?? '');
  if (!checked.success) throw new CliError(checked.error.issues[0]!.message);
  return checked.data;
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        date: { type: 'string' },
        reason: { type: 'string' },
        refund: { type: 'boolean' },
        replace: { type: 'boolean' },
        note: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message} (see npm run orders -- --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return console.log(HELP);
  const [command = 'list', arg, ...extra] = positionals;
  if (extra.length > 0) throw new CliError(`unexpected '${extra.join(' ')}' (see npm run orders -- --help)`);
  if (!COMMANDS.includes(command)) {
    throw new CliError(`unknown command '${command}': use ${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1)} (see npm run orders -- --help)`);
  }
  if (values.date !== undefined && command !== 'list') throw new CliError('--date goes with list only');
  if (values.reason !== undefined && command !== 'cancel' && command !== 'block') throw new CliError('--reason goes with cancel or block only');
  let date: string | undefined;
  if (values.date !== undefined) {
    const checked = ShopDateSchema.safeParse(values.date);
    if (!checked.success) throw new CliError(checked.error.issues[0]!.message);
    date = checked.data;
  }
  if ((values.refund || values.replace || values.note !== undefined) && command !== 'settle') {
    throw new CliError('--refund, --replace and --note go with settle only');
  }
  if (command === 'issues' && arg !== undefined) throw new CliError(`issues takes nothing after it (got '${arg}')`);
  if (command === 'issues' || command === 'settle') {
    const settlement = command === 'settle' ? settlementOf(arg, values) : undefined;
    return runIssueCommand(settlement);
  }
  const byPhone = command === 'block' || command === 'unblock';
  if (command === 'alerts' && arg !== undefined) throw new CliError(`alerts takes nothing after it (got '${arg}')`);
  const id = command === 'list' || command === 'alerts' || byPhone ? 0 : orderIdOf(arg, command);
  const phone = byPhone ? mobileOf(arg, command) : '';
  const reason = command === 'cancel' || command === 'block' ? reasonOf(values.reason, command) : '';
  if (command === 'list' && arg !== undefined) throw new CliError(`list takes no id; did you mean show ${arg}?`);

  const settings = readServerSettings();
  const shop = settings.databaseUrl ? undefined : runningShop(settings.dataDir);
  const backend = printable(shop ? httpBackend(shop.url, settings.dataDir) : await databaseBackend(settings));
  try {
    if (command === 'list') printDay(await backend.day(date));
    else if (command === 'alerts') printAlerts(await backend.alerts());
    else if (command === 'show') printOrder(await backend.order(id));
    else if (command === 'advance') {
      const { from, order } = await backend.advance(id);
      console.log(`Order #${order.id}: ${statusLabel(from)} → ${statusLabel(order.status)}.${nextStepHint(order.status)}`);
    } else if (command === 'paid') {
      const { outcome, order } = await backend.paid(id);
      const when = order.payment.paidAt ? dateTime(order.payment.paidAt, order.timeZone) : '';
      console.log(
        outcome === 'paid'
          ? `Order #${order.id}: payment of ${formatRupees(order.summary.totalPaise)} confirmed. It can now be packed: npm run orders -- advance ${order.id}`
          : `Order #${order.id} is already paid (confirmed on ${when}); nothing changed.`,
      );
    } else if (command === 'cancel') {
      const { from, order } = await backend.cancel(id, reason);
      console.log(`Order #${order.id}: ${statusLabel(from)} → cancelled. Its stock and slot place are back; the shopper sees: ${cancelledText(order)}`);
    } else if (command === 'block') {
      const blocked = await backend.block(phone, reason);
      console.log(`${blocked.phone} is blocked: it cannot place orders.${blocked.reason ? ` Reason: ${blocked.reason}` : ''}`);
    } else {
      const lifted = await backend.unblock(phone);
      console.log(`${lifted.phone} is no longer blocked: it can order again.`);
    }
  } finally {
    await backend.close();
  }
}

/** The backend of this run: the running shop's grocer routes, or the database itself. */
async function openBackend(): Promise<Backend> {
  const settings = readServerSettings();
  const shop = settings.databaseUrl ? undefined : runningShop(settings.dataDir);
  return printable(shop ? httpBackend(shop.url, settings.dataDir) : await databaseBackend(settings));
}

/** `issues` (no settlement) or `settle N --refund|--replace [--note]`. */
async function runIssueCommand(settlement: ReturnType<typeof settlementOf> | undefined): Promise<void> {
  const backend = await openBackend();
  try {
    if (!settlement) return printIssues(await backend.issues());
    const issue = await backend.settle(settlement.id, settlement.outcome, settlement.note);
    const outcome = issue.outcome === 'refunded' ? `refund of ${formatRupees(issue.refundPaise ?? 0)}` : 'replacement';
    console.log(`Issue ${issue.id} (order #${issue.orderId}, ${issue.item}): settled with a ${outcome}. The shopper sees it on the order.`);
  } finally {
    await backend.close();
  }
}

function printIssues({ issues }: GrocerIssueListDto) {
  if (issues.length === 0) return console.log('No shopper has reported an issue.');
  const { timeZone } = readStoreSettings().delivery;
  const open = issues.filter((i) => i.outcome === 'open').length;
  console.log(`Issues reported on delivered orders: ${open} open, ${issues.length - open} settled. Settle one: npm run orders -- settle <issue> --refund|--replace\n`);
  const rows = [
    ['Issue', 'Order', 'Item', 'Kind', 'Reported', 'Outcome'],
    ...issues.map((i) => [
      String(i.id),
      `#${i.orderId}`,
      `${i.qty} × ${i.item} (${formatRupees(i.lineTotalPaise)})`,
      ISSUE_KIND_LABELS[i.kind],
      dateTime(i.createdAt, timeZone),
      i.outcome === 'open' ? 'open' : `${i.outcome} ${i.settledAt ? dateTime(i.settledAt, timeZone) : ''}`.trim(),
    ]),
  ];
  const lines = columns(rows, ['r', 'r', 'l', 'l', 'l', 'l']);
  console.log(lines[0]);
  issues.forEach((issue, n) => {
    console.log(lines[n + 1]);
    if (issue.note) console.log(`        Note: ${issue.note}`);
    if (issue.photoUrl) console.log(`        Photo: ${issue.photoUrl}`);
  });
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // One line for the grocer: what went wrong (an order that cannot move, a folder in use, a shop not answering).
  // The shop's messages may quote what was given (a number, an order's product): shown, never obeyed, by the terminal.
  console.error(`orders: ${showControlCharacters(error instanceof Error ? error.message : String(error))}`);
  process.exitCode = 1;
}
