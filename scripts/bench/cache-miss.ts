// The cache-miss section of the bench (issue 12): the shop with its page cache off (PAGE_CACHE_SECONDS=0),
// one process on the embedded database, under autocannon with every request asking for another path —
// product pages rotating over every product id, search pages and suggestions over a word list.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { assertLocal, measured } from './load.ts';
import { processCpuMs, startServer } from './server.ts';
import type { CacheMissLoad, CacheMissResult } from './types.ts';

/**
 * What shoppers type: catalogue words, Hindi/Hinglish names, typos and half-typed prefixes (suggestions
 * fire while typing). Words that find nothing are in on purpose: a miss costs a search too.
 */
export const SEARCH_WORDS = [
  'rice', 'dal', 'toor dal', 'atta', 'oil', 'milk', 'paneer', 'butter', 'ghee', 'tea', 'coffee', 'sugar',
  'salt', 'biscuits', 'namkeen', 'masala', 'haldi', 'jeera', 'chawal', 'basmati', 'basmti', 'tomatoe',
  'buter', 'onion', 'potato', 'aloo', 'pyaz', 'mango', 'banana', 'soap', 'detergent', 'shampoo', 'noodles',
  'pickle', 'achaar', 'honey', 'almonds', 'kaju', 'amul milk 1 l', 'toor dal 1kg', 'sunflower oil 1 l',
  'ri', 'pan', 'bisc', 'chai', 'dahi', 'curd', 'besan', 'sooji', 'poha', 'maida', 'jaggery', 'gur',
];

/** The goals of issue 12 (cache off, embedded database, 32 connections). */
export const CACHE_MISS_TARGETS = {
  product: { minRequestsPerSec: 500, maxP99Ms: 150 },
  search: { minRequestsPerSec: 250, maxP99Ms: null },
  suggestions: { minRequestsPerSec: 1000, maxP99Ms: 50 },
  /** At 50,000 products, one shopper at a time. */
  searchAlone: { minRequestsPerSec: null, maxP99Ms: 150 },
  suggestionsAlone: { minRequestsPerSec: null, maxP99Ms: 50 },
} as const;

/** Cycles through `paths` (autocannon calls setupRequest before every request on every connection). */
export function rotating(paths: readonly string[]): () => string {
  if (paths.length === 0) throw new Error('nothing to rotate over');
  let next = 0;
  return () => {
    const p = paths[next] as string;
    next = (next + 1) % paths.length;
    return p;
  };
}

async function fire(
  baseUrl: string,
  nextPath: () => string,
  connections: number,
  run: { seconds: number } | { requests: number },
): Promise<autocannon.Result> {
  assertLocal(baseUrl);
  return autocannon({
    url: baseUrl,
    connections,
    ...('seconds' in run ? { duration: run.seconds } : { amount: run.requests }),
    timeout: 10,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
  });
}

/** How many products the shop has: the X-Total-Count of every category's first page, added up. */
async function countProducts(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/app/Categories/LoadCategoriesByPriority?pageSize=100`, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`LoadCategoriesByPriority answered HTTP ${res.status}`);
  const categories = (await res.json()) as Array<{ id: string }>;
  let total = 0;
  for (const c of categories) {
    const page = await fetch(`${baseUrl}/api/app/Products/LoadProductsByCategory/${encodeURIComponent(c.id)}?pageSize=1`, {
      signal: AbortSignal.timeout(30_000),
    });
    await page.arrayBuffer();
    total += Number(page.headers.get('X-Total-Count') ?? 0);
  }
  return total;
}

/** Seeds `products` products into an empty data folder with `npm run seed` (scripts/seed.ts). */
function seedInto(root: string, dataDir: string, products: number): void {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/seed.ts'), '--products', String(products)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`seeding ${products} products failed (exit ${result.status})`);
}

export type CacheMissOptions = {
  port: number;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Catalogue size; undefined: the shop's own first-start seed (400). */
  products: number | undefined;
  /** A data folder to copy (e.g. made once by `DATA_DIR=/tmp/k50k npm run seed -- --reset --products 50000`). */
  dataFrom: string | undefined;
  log: (message: string) => void;
};

export const PREVIOUS_FILE = 'cache-miss.json';

export function readPrevious(outDir: string): CacheMissResult['previous'] {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(outDir, PREVIOUS_FILE), 'utf8')) as CacheMissResult;
    return { measuredAt: saved.measuredAt, products: saved.products, loads: saved.loads };
  } catch {
    return null;
  }
}

export function writeLatest(outDir: string, result: CacheMissResult): void {
  fs.mkdirSync(outDir, { recursive: true });
  const { previous: _previous, ...kept } = result;
  fs.writeFileSync(path.join(outDir, PREVIOUS_FILE), JSON.stringify(kept, null, 2) + '\n');
}

/**
 * Measures the rotating loads on the shop as it runs (page cache off, the API's read cache on), then on a second
 * server with the read cache off too, where every request reads the database: the speed of a page or a search
 * asked for the first time, and the one-shopper latencies the issue sets at 50,000 products.
 */
export async function measureCacheMiss(root: string, outDir: string, options: CacheMissOptions): Promise<CacheMissResult> {
  const notes: string[] = [];
  const loads: CacheMissLoad[] = [];
  for (const readCache of [true, false]) {
    loads.push(...(await measureOneServer(root, options, readCache, notes)));
  }
  if (loads.some((l) => l.non2xx)) notes.push('A search or suggestion that finds nothing may answer 404; those count as non-2xx.');
  const products = loads.find((l) => l.pattern.startsWith('/product-detail'))?.rotatingOver ?? 0;
  return { measuredAt: new Date().toISOString(), products, loads, previous: readPrevious(outDir), notes };
}

/** The read cache keeps an answer this long in the bench (READ_CACHE_SECONDS below). */
const READ_CACHE_SECONDS = 60;
/** The longest rotation that comes back within the read cache's time at the product page's goal rate. */
export const KEPT_ROTATION = READ_CACHE_SECONDS * CACHE_MISS_TARGETS.product.minRequestsPerSec;

async function measureOneServer(root: string, options: CacheMissOptions, readCache: boolean, notes: string[]): Promise<CacheMissLoad[]> {
  const { log } = options;
  const server = await startServer(root, options.port, {
    env: { PAGE_CACHE_SECONDS: '0', READ_CACHE_SECONDS: readCache ? String(READ_CACHE_SECONDS) : '0' },
    prepare: (dataDir) => {
      if (options.dataFrom !== undefined) fs.cpSync(options.dataFrom, dataDir, { recursive: true });
      else if (options.products !== undefined) seedInto(root, dataDir, options.products);
    },
    readyTimeoutMs: 120_000,
  });
  try {
    const products = await countProducts(server.baseUrl);
    if (products === 0) throw new Error('the shop has no products');
    // A fresh seed numbers products 1..N (identities restarted), so every id is a real product.
    const productPaths = Array.from({ length: products }, (_, i) => `/product-detail?id=${i + 1}`);
    const encoded = SEARCH_WORDS.map(encodeURIComponent);
    const searchPaths = encoded.map((w) => `/search?name=${w}`);
    const suggestionPaths = encoded.map((w) => `/api/app/Products/SearchProducts/${w}`);
    const plans: Array<Pick<CacheMissLoad, 'label' | 'pattern' | 'rotatingOver' | 'target'> & { paths: string[]; connections?: number }> = [
      { label: 'product page', pattern: '/product-detail?id=N', rotatingOver: products, target: CACHE_MISS_TARGETS.product, paths: productPaths },
      { label: 'search page', pattern: '/search?name=W', rotatingOver: encoded.length, target: CACHE_MISS_TARGETS.search, paths: searchPaths },
      {
        label: 'suggestions API',
        pattern: '/api/app/Products/SearchProducts/W',
        rotatingOver: encoded.length,
        target: CACHE_MISS_TARGETS.suggestions,
        paths: suggestionPaths,
      },
    ];
    // One connection, every search read from the database: how long one shopper waits, the queue of 31 others left out.
    if (!readCache) {
      plans.push(
        { label: 'search page, alone', pattern: '/search?name=W', rotatingOver: encoded.length, target: CACHE_MISS_TARGETS.searchAlone, paths: searchPaths, connections: 1 },
        {
          label: 'suggestions API, alone',
          pattern: '/api/app/Products/SearchProducts/W',
          rotatingOver: encoded.length,
          target: CACHE_MISS_TARGETS.suggestionsAlone,
          paths: suggestionPaths,
          connections: 1,
        },
      );
    }
    const loads: CacheMissLoad[] = [];
    for (const plan of plans) {
      const { paths, connections = options.connections, ...described } = plan;
      const base: CacheMissLoad = {
        ...described,
        connections,
        readCache,
        seconds: options.seconds,
        requestsPerSec: null,
        p50Ms: null,
        p99Ms: null,
        non2xx: null,
        errors: null,
        timeouts: null,
        totalRequests: null,
      };
      log(
        `page cache off, read cache ${readCache ? 'on' : 'off'}: ${plan.pattern} over ${plan.rotatingOver} paths, ` +
          `${connections} connection(s) (${options.warmupSeconds} s warm-up + ${options.seconds} s)…`,
      );
      try {
        // With the read cache on, every path is asked for once first: the shop as it runs, where a rotation that
        // comes back within the cache's minute finds its answers kept. A longer rotation (50,000 products) would not
        // come back in time even at the goal's rate, so it is measured as it is. (A path asked for the first time is
        // what the read-cache-off rows measure.) Then the warm-up starts where the measured run does not: it warms
        // code paths.
        if (readCache && paths.length <= KEPT_ROTATION) await fire(server.baseUrl, rotating(paths), connections, { requests: paths.length });
        if (options.warmupSeconds > 0) await fire(server.baseUrl, rotating([...paths].reverse()), connections, { seconds: options.warmupSeconds });
        const cpuBefore = processCpuMs(server.child.pid);
        const r = await fire(server.baseUrl, rotating(paths), connections, { seconds: options.seconds });
        const cpuAfter = processCpuMs(server.child.pid);
        const answered = r.requests.total;
        const cpuMsPerRequest = cpuBefore !== null && cpuAfter !== null && answered > 0 ? (cpuAfter - cpuBefore) / answered : null;
        loads.push({ ...base, ...measured(r), cpuMsPerRequest });
      } catch (error) {
        loads.push({ ...base, error: error instanceof Error ? error.message : String(error) });
      }
      if (server.unexpectedExit()) break;
    }
    const died = server.unexpectedExit();
    if (died) notes.push(died.split('\n')[0] ?? died);
    for (const l of loads) {
      if (l.totalRequests === 0) notes.push(`${l.pattern} (${l.connections} connection(s)): not one request finished within the ${l.seconds} s run (${l.timeouts ?? 0} passed the 10 s timeout).`);
    }
    return loads;
  } finally {
    await server.stop();
  }
}
