// Mixed load on two shops behind nginx (issue 23, DESIGN.md "Budgets": the mixed-load budget), with a shop
// restarted and the database stopped on the way, then a check in the database that every acknowledged write is there
// exactly once.
//
//   npm run load                                   starts its own cluster (scripts/lib/cluster.ts; needs dist/)
//   LOAD_DATABASE_URL=postgres://… npm run load -- http://127.0.0.1:PORT
//                                                  a running `npm run cluster`: the same mix, without the faults
//                                                  (this script does not own its processes)
// Env: LOAD_SECONDS (default 60), LOAD_CONNECTIONS (default 64), LOAD_REPORT (a file to write the figures to, JSON).
//
// The mix, per connection (scaled to LOAD_CONNECTIONS): 40 catalogue pages (home, the hot listing, every product,
// searches), 12 suggestions, 2 sign-ins (each a scrypt hash, the shop's dearest call), 8 cart writes, and orders on 2
// (each an add to the cart, then the order with its Idempotency-Key). Pages, suggestions, sign-ins and cart writes
// run on autocannon. Orders run on fetch: an order follows its own cart write, for the same shopper, and is retried
// with the same key when its answer is lost, which autocannon's loop of independent requests cannot do.
//
// Faults (own cluster only), at the same share of any duration: at 1/3 one shop gets SIGTERM (it drains: its /readyz
// turns 503 for SHUTDOWN_GRACE_SECONDS=2, then it answers what it accepted) and is started again once it exited; at
// 7/12 PostgreSQL stops (fast shutdown) for 1/6 of the run, at most 10 s, and starts again.
//
// Exit code: 1 when an acknowledged cart write or order is missing from the database or there twice, or a shop exited
// on its own (a crash), else 0. Errors and slow answers are reported, not failed on: the budget is read from the
// figures.
import autocannon from 'autocannon';
import { writeFileSync } from 'node:fs';
import { Cluster } from './lib/cluster.ts';
import { SEARCH_WORDS } from './bench/cache-miss.ts';
import { cartQuantities, insertShoppers, openPool, ordersOf, PASSWORD, productIds, signIn, stockedProducts, type Shopper } from './load/shoppers.ts';

const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS || 64);
if (!(SECONDS >= 5) || !(CONNECTIONS >= 8)) throw new Error('LOAD_SECONDS must be 5 or more, LOAD_CONNECTIONS 8 or more');
const TIMEOUT_SECONDS = 10;
const log = (message: string) => console.log(`load: ${message}`);

const share = (n: number) => Math.max(1, Math.round((n / 64) * CONNECTIONS));
const GROUPS = { catalogue: share(40), suggestions: share(12), signIns: share(2), cartWrites: share(8), orders: share(2) };

const given = process.argv[2];
if (given && new URL(given).hostname !== '127.0.0.1') throw new Error(`load tests only target 127.0.0.1, not ${given}`);

// ---------------------------------------------------------------------------
// the cluster, and everything stopped on the way out

let cluster: Cluster | undefined;
let pool: ReturnType<typeof openPool> | undefined;
const runners: autocannon.Instance[] = [];
process.on('exit', () => cluster?.stopNow());
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    for (const r of runners) r.stop();
    void Promise.allSettled([pool?.end(), cluster?.stop()]).finally(() => process.exit(128 + number));
  });
}

// ---------------------------------------------------------------------------
// what happened: every answer and error with its time

const t0 = { at: 0 };
const now = () => (performance.now() - t0.at) / 1000;
interface Answer { group: string; start: number; end: number; ms: number; status: number }
interface Failed { group: string; at: number; kind: string }
const answers: Answer[] = [];
const failures: Failed[] = [];
const notFound = new Map<string, number>();
const events: Array<{ name: string; from: number; to: number; note: string }> = [];

function record(group: string, status: number, ms: number) {
  const end = now();
  answers.push({ group, start: end - ms / 1000, end, ms, status });
}

function errorKind(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string }; name?: string; message?: string };
  if (e?.message === 'request timed out' || e?.name === 'TimeoutError') return 'timeout';
  const code = e?.code ?? e?.cause?.code;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'reset';
  if (code === 'ECONNREFUSED') return 'refused';
  return code ?? e?.message ?? String(error);
}

function track(instance: autocannon.Instance, group: string) {
  runners.push(instance);
  instance.on('response', (_client, status, _bytes, ms) => record(group, status, ms));
  instance.on('reqError', (error) => failures.push({ group, at: now(), kind: errorKind(error) }));
}

/** The shops' last lines, printed when one exits on its own (a crash) and at the end when they hold errors. */
const lastLines = new Map<string, string[]>();
function keepOutput(name: string, line: string) {
  const lines = lastLines.get(name) ?? [];
  lines.push(`${now().toFixed(1)} s ${line}`);
  if (lines.length > 40) lines.shift();
  lastLines.set(name, lines);
  if (line.startsWith('exited') && !stoppingShops.has(name)) {
    crashed.push(`${name} ${line} at ${now().toFixed(1)} s`);
    console.log(`load: ${name} ${line}; its last lines:\n${lines.join('\n')}`);
  }
}
/** Shops that exited without being asked: the run fails. */
const crashed: string[] = [];
const stoppingShops = new Set<string>();

// ---------------------------------------------------------------------------
// main

async function main(): Promise<number> {
  let url = given;
  let databaseUrl = process.env.LOAD_DATABASE_URL;
  if (!url) {
    cluster = new Cluster({ shutdownGraceSeconds: 2, log: (m) => log(m), output: keepOutput });
    await cluster.start();
    url = cluster.url;
    databaseUrl = cluster.databaseUrl;
  }
  if (!databaseUrl) throw new Error('LOAD_DATABASE_URL is needed with a cluster of your own (npm run cluster prints it)');
  pool = openPool(databaseUrl);

  // Shoppers and what they buy.
  const run = Math.floor(Math.random() * 90_000) + 1;
  const products = await stockedProducts(pool);
  const allProducts = await productIds(pool);
  const cartShopperCount = Math.max(8, GROUPS.cartWrites * 4);
  // Orders: at most 4 a second, as the slots allow (20 places each), 3 open per shopper, each in another slot.
  const wantedOrders = Math.round(4 * SECONDS);
  const orderShopperCount = Math.ceil(wantedOrders / 3);
  log(`${cartShopperCount + orderShopperCount} shoppers (verified numbers, inserted in the database), signing in through nginx ...`);
  const inserted = await insertShoppers(pool, cartShopperCount + orderShopperCount, run);
  const shoppers = await signIn(url, inserted);
  const cartShoppers = shoppers.slice(0, cartShopperCount);
  const orderShoppers = shoppers.slice(cartShopperCount);
  const slots = await openSlots(url, orderShoppers[0]!);
  const plan = planOrders(orderShoppers, slots, wantedOrders, products);
  log(`${products.length} stocked products; ${slots.length} open delivery slots; ${plan.length} orders planned for ${orderShoppers.length} shoppers`);

  const rssBefore = cluster?.shops.map((s) => ({ name: s.name, rss: s.rss() })) ?? [];
  const rssPeak = new Map<string, number>();
  const sampler = setInterval(() => {
    for (const s of cluster?.shops ?? []) rssPeak.set(s.name, Math.max(rssPeak.get(s.name) ?? 0, s.rss() ?? 0));
  }, 500);

  log(`${SECONDS} s at ${CONNECTIONS} connections: ${JSON.stringify(GROUPS)}`);
  t0.at = performance.now();
  const pages = [
    '/',
    '/shop?type=hot',
    ...allProducts.map((id) => `/product-detail?id=${id}`),
    ...SEARCH_WORDS.map((w) => `/search?name=${encodeURIComponent(w)}`),
  ];
  const suggestions = SEARCH_WORDS.map((w) => `/api/app/Products/SearchProducts/${encodeURIComponent(w)}`);
  const carts = cartWrites(cartShoppers, products);

  const common = { url, duration: SECONDS, timeout: TIMEOUT_SECONDS };
  const fire = (group: string, connections: number, requests: autocannon.Request[]) => {
    const instance = autocannon({ ...common, connections, requests }, () => {});
    track(instance, group);
    return new Promise<autocannon.Result>((resolve) => instance.on('done', resolve));
  };
  let page = 0;
  let word = 0;
  let s = 0;
  const done = Promise.all([
    fire('catalogue', GROUPS.catalogue, [
      {
        setupRequest: (req, context) => {
          const path = pages[page++ % pages.length]!;
          (context as { path?: string }).path = path;
          return { ...req, path };
        },
        // Pages that answered 404 (each exists: the load asks only for products in the database).
        onResponse: (status, _body, context) => {
          const path = (context as { path?: string }).path;
          if (status === 404 && path) notFound.set(path, (notFound.get(path) ?? 0) + 1);
        },
      },
    ]),
    fire('suggestions', GROUPS.suggestions, [{ setupRequest: (req) => ({ ...req, path: suggestions[word++ % suggestions.length] }) }]),
    fire('sign-ins', GROUPS.signIns, [
      {
        method: 'POST',
        setupRequest: (req) => {
          const shopper = shoppers[s++ % shoppers.length]!;
          return {
            ...req,
            path: '/api/Authenticate/Login',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': shopper.ip },
            body: JSON.stringify({ login: shopper.email, password: PASSWORD }),
          };
        },
      },
    ]),
    fire('cart writes', GROUPS.cartWrites, [carts.request]),
    placeOrders(url, plan, GROUPS.orders),
  ]);

  const faults = cluster ? injectFaults(cluster) : Promise.resolve();
  await Promise.all([done, faults]);
  clearInterval(sampler);
  const rssAfter = cluster?.shops.map((s) => ({ name: s.name, rss: s.rss() })) ?? [];
  for (const name of cluster?.shops.map((s) => s.name) ?? []) stoppingShops.add(name);
  const balancerErrors = cluster?.balancerErrors() ?? [];

  // Afterwards: every acknowledged write in the database once.
  const verdict = await checkWrites(pool, carts, plan, cartShoppers, orderShoppers);
  const report = { ...summarize({ rssBefore, rssAfter, rssPeak, verdict, plan }), balancerErrors: kindsOf(balancerErrors) };
  printReport(report);
  for (const [name, lines] of lastLines) {
    const errors = lines.filter((l) => /error|fail/i.test(l));
    if (errors.length) console.log(`${name}, its last errors:\n${errors.slice(-8).join('\n')}`);
  }
  if (process.env.LOAD_REPORT) writeFileSync(process.env.LOAD_REPORT, `${JSON.stringify(report, null, 2)}\n`);
  if (crashed.length) console.log(`load: FAILED: a shop exited on its own: ${crashed.join('; ')}`);
  return verdict.ok && crashed.length === 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// faults

async function injectFaults(c: Cluster) {
  const wait = (untilSecond: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, (untilSecond - now()) * 1000)));
  const shop = c.shops[0]!;
  await wait(SECONDS / 3);
  const killed = now();
  log(`${killed.toFixed(1)} s: SIGTERM to ${shop.name}`);
  stoppingShops.add(shop.name);
  const exit = await c.stopShop(shop);
  stoppingShops.delete(shop.name);
  const exited = now();
  await c.startShop(shop);
  const back = now();
  log(`${shop.name} exited (${exit.signal ?? exit.code}) after ${(exited - killed).toFixed(1)} s, ready again at ${back.toFixed(1)} s`);
  events.push({ name: 'restart', from: killed, to: back, note: `${shop.name}: SIGTERM, exit ${exit.signal ?? exit.code} after ${(exited - killed).toFixed(1)} s, ready again ${(back - killed).toFixed(1)} s after the signal` });

  const outage = Math.min(10, SECONDS / 6);
  await wait((SECONDS * 7) / 12);
  const down = now();
  log(`${down.toFixed(1)} s: stopping PostgreSQL for ${outage.toFixed(1)} s`);
  await c.postgres.stopAsync();
  await wait(down + outage);
  await c.postgres.startAsync();
  const up = now();
  log(`${up.toFixed(1)} s: PostgreSQL started again`);
  events.push({ name: 'database outage', from: down, to: up, note: `PostgreSQL stopped (fast) at ${down.toFixed(1)} s, up again at ${up.toFixed(1)} s` });
}

// ---------------------------------------------------------------------------
// cart writes (autocannon): each registered when built, its answer noted when it comes

interface CartWrite { shopper: Shopper; productId: number; status?: number }

function cartWrites(shoppers: Shopper[], products: number[]) {
  const writes: CartWrite[] = [];
  // Shopper k % n, product (k / n) % products: one unit per line until every product is in every cart, far under the
  // 10 units one line may hold.
  const request: autocannon.Request = {
    method: 'POST',
    setupRequest: (req, context) => {
      const k = writes.length;
      const shopper = shoppers[k % shoppers.length]!;
      const productId = products[Math.floor(k / shoppers.length) % products.length]!;
      writes.push({ shopper, productId });
      (context as { write?: number }).write = k;
      return {
        ...req,
        path: '/api/app/Carts',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${shopper.token}`, 'x-forwarded-for': shopper.ip },
        body: JSON.stringify({ productsId: productId, qty: 1 }),
      };
    },
    onResponse: (status, _body, context) => {
      const write = writes[(context as { write?: number }).write ?? -1];
      if (write) write.status = status;
    },
  };
  return { writes, request };
}

// ---------------------------------------------------------------------------
// orders (fetch): add to the cart, then place with a key; a lost answer is asked again with the same key

interface Slot { id: string; placesLeft: number; unavailable: string | null }
interface PlannedOrder { shopper: Shopper; slotId: string; productId: number; key: string; orderId?: number; answers: number[] }

async function openSlots(url: string, shopper: Shopper): Promise<Slot[]> {
  const res = await fetch(`${url}/api/app/DeliverySlots`, { headers: { authorization: `Bearer ${shopper.token}` } });
  if (!res.ok) throw new Error(`DeliverySlots answered ${res.status}`);
  const { slots } = (await res.json()) as { slots: Slot[] };
  return slots.filter((s) => !s.unavailable && s.placesLeft > 0);
}

/** Round the open slots while they have places: a shopper's three orders land in three different slots. */
function planOrders(shoppers: Shopper[], slots: Slot[], wanted: number, products: number[]): PlannedOrder[] {
  const left = new Map(slots.map((s) => [s.id, s.placesLeft]));
  const plan: PlannedOrder[] = [];
  let turn = 0;
  while (plan.length < wanted && slots.length >= 3) {
    const open = slots.filter((s) => (left.get(s.id) ?? 0) > 0);
    if (open.length < 3) break;
    const slot = open[turn++ % open.length]!;
    const shopper = shoppers[Math.floor(plan.length / 3)];
    if (!shopper) break;
    left.set(slot.id, left.get(slot.id)! - 1);
    plan.push({ shopper, slotId: slot.id, productId: products[plan.length % products.length]!, key: `load-${shopper.userId}-${plan.length}`, answers: [] });
  }
  return plan;
}

async function placeOrders(url: string, plan: PlannedOrder[], workers: number) {
  const deadline = SECONDS * 1000;
  const call = async (group: string, path: string, shopper: Shopper, body: unknown, headers: Record<string, string> = {}) => {
    const started = performance.now();
    try {
      const res = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${shopper.token}`, 'x-forwarded-for': shopper.ip, ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
      });
      const text = await res.text();
      record(group, res.status, performance.now() - started);
      return { status: res.status, text };
    } catch (error) {
      failures.push({ group, at: now(), kind: errorKind(error) });
      return { status: 0, text: '' };
    }
  };
  // A worker takes the shoppers whose number modulo `workers` is its own, so one shopper's cart and order never race.
  const worker = async (w: number) => {
    const mine = plan.filter((o) => o.shopper.index % workers === w);
    const spacing = deadline / Math.max(1, mine.length);
    for (let i = 0; i < mine.length; i++) {
      const order = mine[i]!;
      // Tries 2 s apart, so that the last falls after a 10 s outage. The product goes in the cart until an add is
      // acknowledged; after an order's lost answer or 5xx it goes in again (the order may have emptied the cart: an
      // extra unit, never a second order, as the key is the same).
      let inCart = false;
      for (let attempt = 0; attempt < 7 && order.orderId === undefined; attempt++) {
        const at = i * spacing + attempt * 2000;
        if (at > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - (performance.now() - t0.at))));
        if (!inCart) {
          const added = await call('orders', '/api/app/Carts', order.shopper, { productsId: order.productId, qty: 1 });
          inCart = added.status === 201;
          if (!inCart) continue;
        }
        const placed = await call('orders', '/api/app/Orders', order.shopper, { addressId: order.shopper.addressId, slotId: order.slotId, paymentMethod: 'cash' }, { 'Idempotency-Key': order.key });
        order.answers.push(placed.status);
        if (placed.status === 201 || placed.status === 200) order.orderId = (JSON.parse(placed.text) as { id: number }).id;
        // A refusal is final (409: slot full, empty cart, a limit); an error or a lost answer is asked again.
        else if (placed.status >= 400 && placed.status < 500) break;
        else inCart = false;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
}

// ---------------------------------------------------------------------------
// the check

async function checkWrites(p: NonNullable<typeof pool>, carts: ReturnType<typeof cartWrites>, plan: PlannedOrder[], cartShoppers: Shopper[], orderShoppers: Shopper[]) {
  const problems: string[] = [];
  // Cart writes: per line, the acknowledged adds (2xx) must all be there, and no more than those plus the ones whose
  // outcome is unknown: no answer, or a 5xx (nginx's 502 when a shop reset the connection after the request reached
  // it; a 503 when the database went away around the commit). A 4xx is a refusal: nothing was written.
  const acked = new Map<string, number>();
  const unknown = new Map<string, number>();
  for (const w of carts.writes) {
    const line = `${w.shopper.userId}:${w.productId}`;
    if (w.status === undefined || w.status >= 500) unknown.set(line, (unknown.get(line) ?? 0) + 1);
    else if (w.status >= 200 && w.status < 300) acked.set(line, (acked.get(line) ?? 0) + 1);
  }
  const inDb = await cartQuantities(p, cartShoppers.map((s) => s.userId));
  let missingLines = 0;
  let doubledLines = 0;
  for (const line of new Set([...acked.keys(), ...inDb.keys()])) {
    const have = inDb.get(line) ?? 0;
    const want = acked.get(line) ?? 0;
    if (have < want) missingLines++;
    if (have > want + (unknown.get(line) ?? 0)) doubledLines++;
  }
  const ackedWrites = [...acked.values()].reduce((a, b) => a + b, 0);
  const unknownWrites = [...unknown.values()].reduce((a, b) => a + b, 0);
  if (missingLines) problems.push(`${missingLines} cart lines hold fewer units than acknowledged adds`);
  if (doubledLines) problems.push(`${doubledLines} cart lines hold more units than the adds sent`);

  // Orders: each acknowledged id there once, for its key, and no key with two orders.
  const orders = await ordersOf(p, orderShoppers.map((s) => s.userId));
  const byKey = new Map<string, number[]>();
  for (const o of orders) byKey.set(`${o.user_id}:${o.idempotency_key}`, [...(byKey.get(`${o.user_id}:${o.idempotency_key}`) ?? []), o.id]);
  const ids = new Set(orders.map((o) => o.id));
  const ackedOrders = plan.filter((o) => o.orderId !== undefined);
  const missingOrders = ackedOrders.filter((o) => !ids.has(o.orderId!));
  const wrongKey = ackedOrders.filter((o) => !(byKey.get(`${o.shopper.userId}:${o.key}`) ?? []).includes(o.orderId!));
  const doubledKeys = [...byKey.values()].filter((list) => list.length > 1);
  const unanswered = plan.filter((o) => o.orderId === undefined && byKey.has(`${o.shopper.userId}:${o.key}`));
  if (missingOrders.length) problems.push(`${missingOrders.length} acknowledged orders are not in the database`);
  if (wrongKey.length) problems.push(`${wrongKey.length} acknowledged orders are not under their Idempotency-Key`);
  if (doubledKeys.length) problems.push(`${doubledKeys.length} Idempotency-Keys have more than one order`);
  return {
    ok: problems.length === 0,
    problems,
    cart: { sent: carts.writes.length, acknowledged: ackedWrites, unknownOutcome: unknownWrites, linesChecked: inDb.size, missingLines, doubledLines },
    orders: {
      planned: plan.length,
      acknowledged: ackedOrders.length,
      inDatabase: orders.length,
      placedWithoutAnAnswerSeen: unanswered.length,
      refused: plan.filter((o) => o.orderId === undefined && o.answers.some((s) => s >= 400 && s < 500)).length,
      missing: missingOrders.length,
      doubledKeys: doubledKeys.length,
    },
  };
}

// ---------------------------------------------------------------------------
// the report

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarize(extra: {
  rssBefore: Array<{ name: string; rss: number | undefined }>;
  rssAfter: Array<{ name: string; rss: number | undefined }>;
  rssPeak: Map<string, number>;
  verdict: Awaited<ReturnType<typeof checkWrites>>;
  plan: PlannedOrder[];
}) {
  const byStatus: Record<string, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  const byGroup: Record<string, { answers: number; p50: number; p99: number; statuses: Record<string, number> }> = {};
  for (const group of new Set(answers.map((a) => a.group))) {
    const mine = answers.filter((a) => a.group === group);
    const ms = mine.map((a) => a.ms).sort((x, y) => x - y);
    const statuses: Record<string, number> = {};
    for (const a of mine) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    byGroup[group] = { answers: mine.length, p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), statuses };
  }
  const errors: Record<string, number> = {};
  for (const f of failures) errors[f.kind] = (errors[f.kind] ?? 0) + 1;
  const serverErrors: Record<string, number> = {};
  for (const a of answers) if (a.status >= 500) serverErrors[a.status] = (serverErrors[a.status] ?? 0) + 1;
  // 409 (a limit, a full slot) and 429 (a rate limit) are the shop's rules answering, counted apart from errors.
  const refusals = answers.filter((a) => a.status === 409 || a.status === 429).length;
  const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
  // When the answers that were neither 2xx nor a limit came: status → second of the run (whole) → count.
  const unexpectedBySecond: Record<string, Record<string, number>> = {};
  for (const a of answers) {
    if ((a.status >= 200 && a.status < 300) || a.status === 409 || a.status === 429) continue;
    const bySecond = (unexpectedBySecond[a.status] ??= {});
    const second = String(Math.floor(a.end));
    bySecond[second] = (bySecond[second] ?? 0) + 1;
  }
  // Held: sent while an event lasted, or in flight when it began, and answered without a 5xx.
  const held = events.map((e) => {
    const touched = answers.filter((a) => a.end >= e.from && a.start <= e.to);
    const errorsIn = failures.filter((f) => f.at >= e.from && f.at <= e.to + TIMEOUT_SECONDS);
    const kinds: Record<string, number> = {};
    for (const f of errorsIn) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
    for (const a of touched) if (a.status >= 500) kinds[a.status] = (kinds[a.status] ?? 0) + 1;
    return {
      event: e.name,
      note: e.note,
      seconds: round(e.to - e.from),
      held: touched.filter((a) => a.status < 500).length,
      heldLongerThan1s: touched.filter((a) => a.status < 500 && a.ms > 1000).length,
      failed: kinds,
    };
  });
  const mb = (bytes: number | undefined) => (bytes === undefined ? null : Math.round(bytes / 1024 / 1024));
  return {
    seconds: SECONDS,
    connections: CONNECTIONS,
    groups: GROUPS,
    requests: answers.length + failures.length,
    answered: answers.length,
    requestsPerSecond: round(answers.length / SECONDS),
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    byStatus,
    byGroup,
    refusals,
    errors: { connection: errors, serverErrors },
    unexpectedBySecond,
    notFoundPages: Object.fromEntries([...notFound].sort((a, b) => b[1] - a[1]).slice(0, 10)),
    events: held,
    memoryMb: extra.rssBefore.map((b, i) => ({ shop: b.name, before: mb(b.rss), peak: mb(extra.rssPeak.get(b.name)), after: mb(extra.rssAfter[i]?.rss) })),
    exactlyOnce: extra.verdict,
  };
}

/** nginx's error lines grouped by what they say (addresses, times and ids taken out). */
function kindsOf(lines: string[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const line of lines) {
    const what = line.replace(/^\S+ \S+ \[\w+\] \d+#\d+: \*?\d* ?/, '').replace(/, client: .*$/, '').replace(/\d+\.\d+\.\d+\.\d+:\d+/g, 'ADDR');
    kinds[what] = (kinds[what] ?? 0) + 1;
  }
  return kinds;
}

const round = (n: number) => Math.round(n * 10) / 10;

function printReport(r: ReturnType<typeof summarize> & { balancerErrors: Record<string, number> }) {
  const lines = [
    '',
    `Mixed load: ${r.seconds} s, ${r.connections} connections ${JSON.stringify(r.groups)}`,
    `requests ${r.requests} (answered ${r.answered}, ${r.requestsPerSecond}/s), p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
    `answers by status: ${JSON.stringify(r.byStatus)}  (409/429, the shop's limits: ${r.refusals})`,
    ...Object.entries(r.byGroup).map(([g, v]) => `  ${g.padEnd(12)} ${String(v.answers).padStart(7)} answers, p50 ${v.p50} ms, p99 ${v.p99} ms, ${JSON.stringify(v.statuses)}`),
    `errors: connection ${JSON.stringify(r.errors.connection)}, 5xx ${JSON.stringify(r.errors.serverErrors)}`,
    ...(Object.keys(r.notFoundPages).length ? [`  pages that answered 404: ${JSON.stringify(r.notFoundPages)}`] : []),
    ...Object.entries(r.unexpectedBySecond).map(([status, seconds]) => `  ${status} by second of the run: ${JSON.stringify(seconds)}`),
    ...r.events.map((e) => `${e.event} (${e.seconds} s; ${e.note}): held ${e.held} (${e.heldLongerThan1s} over 1 s), failed ${JSON.stringify(e.failed)}`),
    ...r.memoryMb.map((m) => `memory ${m.shop}: RSS ${m.before} MB before, ${m.peak} MB peak, ${m.after} MB after`),
    ...Object.entries(r.balancerErrors).map(([what, n]) => `nginx: ${n} × ${what}`),
    `cart writes: ${JSON.stringify(r.exactlyOnce.cart)}`,
    `orders: ${JSON.stringify(r.exactlyOnce.orders)}`,
    r.exactlyOnce.ok
      ? 'exactly once: every acknowledged cart write and order is in the database, once'
      : `exactly once: FAILED: ${r.exactlyOnce.problems.join('; ')}`,
  ];
  console.log(lines.join('\n'));
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`load: ${(error as Error).stack ?? error}`);
}
for (const r of runners) r.stop();
await pool?.end().catch(() => {});
await cluster?.stop().catch((error: unknown) => console.error(`load: stopping the cluster: ${(error as Error).message}`));
process.exit(code);
