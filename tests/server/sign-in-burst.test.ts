// Issue 32: a patient attacker's failed sign-ins (each a 128 MiB scrypt hash) must not starve the shop. The built
// server, a real OWASP-cost account, 480 wrong passwords from 16 addresses at 32 at a time, and meanwhile a shopper's
// product pages, account call and favicon, each timed. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, run, seededDataFolder, type Child } from './processes.ts';

const PASSWORD = 'tamarind-rice-42';
const EMAIL = 'asha@example.in';
const ATTEMPTS = 480;
const AT_ONCE = 32;
const ADDRESSES = 16;
/** The bar: what a shopper asks for answers within this while the attack runs. */
const ANSWER_WITHIN_MS = 200;
/** The slowest single answer allowed (see the assertion for why it is not 200 ms). */
const SLOWEST_MS = 500;

let work = '';
let shop: Child | undefined;

beforeAll(async () => {
  let dataDir: string;
  ({ work, dataDir } = await seededDataFolder('kirana-burst-', 40));
  // The account under attack, with a real (OWASP) hash, as a registration would have stored it.
  const [{ readServerSettings }, { openShopDatabase }, { createUser }, { hashPassword, closePasswordHashing }] = await Promise.all([
    import('../../src/server/config.ts'),
    import('../../src/server/db/prepare.ts'),
    import('../../src/server/services/accounts.ts'),
    import('../../src/server/auth/passwords.ts'),
  ]);
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    await createUser(handle.db, { name: 'Asha', email: EMAIL, phone: '9876543210', passwordHash: await hashPassword(PASSWORD), phoneVerified: true });
  } finally {
    await handle.close();
    await closePasswordHashing();
  }
});
afterAll(async () => {
  if (shop && shop.process.exitCode === null && shop.process.signalCode === null) shop.process.kill('SIGKILL');
  await shop?.exited;
  fs.rmSync(work, { recursive: true, force: true });
});

/** A process's resident memory (Linux's VmRSS, or VmHWM: its peak so far), in MiB. */
function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(path.join('/proc', String(pid), 'status'), 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
}

const signIn = (base: string, login: string, password: string, address: string) =>
  fetch(`${base}/api/Authenticate/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ login, password }),
    // Never held: an answer (401, 429 or 503) comes well within this, or the test fails.
    signal: AbortSignal.timeout(30_000),
  });

it(`a product page answers within ${ANSWER_WITHIN_MS} ms while ${ATTEMPTS} failed sign-ins run`, async () => {
  const port = await freePort();
  // Every render is a real one (no page cache); the attacker's addresses are taken from X-Forwarded-For, and the
  // per-address limit is raised, so that the sign-ins reach the hash rather than a 429.
  shop = run('scripts/serve.ts', {
    DATA_DIR: path.join(work, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PAGE_CACHE_SECONDS: '0',
    READ_CACHE_SECONDS: '0',
    TRUST_PROXY: 'true',
    ACCOUNT_WRITES_PER_ADDRESS: '100000',
  });
  await shop.waitFor('[kirana] serving');
  const base = `http://127.0.0.1:${port}`;

  const session = await signIn(base, EMAIL, PASSWORD, '10.9.9.9');
  expect(session.status).toBe(200);
  const { token } = (await session.json()) as { token: string };
  const products = (await (await fetch(`${base}/api/app/Products/LoadProductsByPriorityTag`)).json()) as { id: number }[];
  expect(products.length).toBeGreaterThan(0);

  // What the shopper asks for: product pages (each a server render, rotating over products), their account, a file.
  const asks = [
    (n: number) => `/product-detail?id=${products[n % products.length]!.id}`,
    () => '/api/app/Users/Me',
    () => '/favicon.svg',
  ];
  const failures: string[] = [];
  /** How long `url` took to answer in full; an answer other than 200 is noted in `failures`. */
  const timed = async (url: string) => {
    const started = performance.now();
    try {
      const response = await fetch(base + url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(120_000) });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${url}: ${response.status}`);
    } catch (error) {
      failures.push(`${url}: ${(error as Error).name}`);
    }
    return performance.now() - started;
  };
  // Warmed once: the first render of a route loads its code, which is no attacker's doing.
  for (const ask of asks) await timed(ask(0));

  const rssBefore = rssMiB(shop.process.pid!, 'VmRSS');
  // The peak counted from here (Linux: 5 resets VmHWM), not from the start's.
  fs.writeFileSync(path.join('/proc', String(shop.process.pid), 'clear_refs'), '5');
  let attacking = true;
  const statuses: Record<string, number> = {};
  let next = 0;
  const attacker = async () => {
    while (next < ATTEMPTS) {
      const n = next++;
      const address = `10.0.${n % ADDRESSES}.1`;
      // Every fourth at the real account (its own limit 429s it after a few), the rest at addresses that have no
      // account: those are checked against a stand-in hash of the same cost, so each is a full scrypt too.
      const login = n % 4 === 0 ? EMAIL : `nobody-${n}@example.in`;
      let status: string;
      try {
        const response = await signIn(base, login, `wrong-${n}`, address);
        await response.arrayBuffer();
        const retryAfter = response.headers.get('retry-after');
        status = response.status === 503 && !/^\d+$/.test(retryAfter ?? '') ? '503 without Retry-After' : String(response.status);
      } catch (error) {
        status = (error as Error).name; // TimeoutError: held past 30 s
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const burst = Promise.all(Array.from({ length: AT_ONCE }, attacker)).finally(() => (attacking = false));

  const took: Record<string, number[]> = { product: [], account: [], favicon: [] };
  const kinds = ['product', 'account', 'favicon'] as const;
  const startedAt = performance.now();
  for (let n = 0; attacking; n++) {
    for (const [i, kind] of kinds.entries()) took[kind]!.push(await timed(asks[i]!(n + 1)));
  }
  await burst;
  const burstSeconds = (performance.now() - startedAt) / 1000;
  const peak = rssMiB(shop.process.pid!, 'VmHWM');
  const worst = Object.fromEntries(kinds.map((kind) => [kind, Math.round(Math.max(...took[kind]!))]));
  const p95 = Object.fromEntries(kinds.map((kind) => [kind, Math.round(took[kind]!.toSorted((a, b) => a - b)[Math.floor(took[kind]!.length * 0.95)]!)]));
  console.log(`[burst] ${burstSeconds.toFixed(1)} s, sign-ins ${JSON.stringify(statuses)}, answers p95 (ms) ${JSON.stringify(p95)}, slowest ${JSON.stringify(worst)}, rounds ${took.product!.length}, RSS ${Math.round(rssBefore)} MiB before, peak ${Math.round(peak)} MiB`);

  expect(failures).toEqual([]);
  // Every attempt was answered: wrong (401), limited (429) or busy (503); none hung, none failed otherwise.
  expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(ATTEMPTS);
  expect(Object.keys(statuses).filter((status) => !['401', '429', '503'].includes(status))).toEqual([]);
  // Hashes really ran meanwhile (a 401 is a finished scrypt), not only refusals.
  expect(statuses[401] ?? 0).toBeGreaterThanOrEqual(8);
  // The shopper who waited, not an average: 95 in 100 answers of each kind within the 200 ms, and the slowest
  // within SLOWEST_MS. The test's own 32 attacking connections share the shop's 2 cores (and other tests run beside
  // it), so one answer in a run of ~500 may meet a scheduling hiccup; before this, answers were held over 60 s.
  expect(Object.entries(p95).filter(([, ms]) => ms > ANSWER_WITHIN_MS)).toEqual([]);
  expect(Object.entries(worst).filter(([, ms]) => ms > SLOWEST_MS)).toEqual([]);
  // The hashes at once are bounded, so is their memory (each 128 MiB): before, 480 of them took the shop to 1.5 GB.
  // Counted from the shop's own size before the burst (its catalogue and code, ~530–550 MiB, no attacker's doing): one
  // hash and the burst's garbage stay under two hashes' worth (they measure ~200–220 MiB); a second hash at once would not.
  expect(peak - rssBefore).toBeLessThan(2 * 128);
}, 240_000);
