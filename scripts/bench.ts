// `npm run bench [-- --quick]`: Lighthouse mobile, JavaScript before the first interaction and SSR throughput
// of the built shop, checked against the budgets of ../shared/DESIGN.md ("Budgets").
//
// Serves the built shop with scripts/serve.ts (building it when missing) on 127.0.0.1:$BENCH_PORT (default 4455) with a fresh
// temporary DATA_DIR, measures, stops it and removes the directory. Writes bench-results/bench-<date>.md,
// bench-results/latest.md and bench-results/latest.json.
//
//   --quick          1 Lighthouse run per page and 5 s load tests (for trying things out)
//   --slow-phone     only the slow-phone section: a signed-in shopper's first taps in Chromium at 4× CPU, 400 ms,
//                    400 kbit/s (bench-results/slow-phone.md; before/after against the previous slow-phone.json)
//   --cache-miss     only the cache-miss section: the page cache off, rotating product ids and search words
//                    (bench-results/cache-miss.md; before/after against the previous bench-results/cache-miss.json)
//   BENCH_PRODUCTS   products seeded for the cache-miss section (default: the shop's first-start seed, 400)
//   BENCH_MISS_SECONDS  seconds per cache-miss load test (default 8)
//   BENCH_DATA_FROM  a data folder to copy for the cache-miss section instead (a big seed made once)
//   BENCH_PORT       port of the server under test (default 4455)
//   BENCH_SECONDS    seconds per load test (default 10, 5 with --quick)
//   BENCH_RUNS       Lighthouse runs per page (default 3, 1 with --quick)
//   CHROMIUM_PATH    Chromium binary (default /usr/bin/chromium)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { onCleanup, runCleanup } from './bench/cleanup.ts';
import { parseOptions, reportFileName, type BenchOptions } from './bench/format.ts';
import { VIEWPORTS, launchBrowser, measureJs, warmPictures } from './bench/js-bytes.ts';
import { CHROMIUM_PATH, NO_METRICS, lighthousePage } from './bench/lighthouse.ts';
import { emptyLoadResult, loadTest } from './bench/load.ts';
import { measureCacheMiss, writeLatest, type CacheMissOptions } from './bench/cache-miss.ts';
import { renderCacheMiss, renderReport } from './bench/report.ts';
import { measureSlowPhone, renderSlowPhone, writeLatestSlowPhone } from './bench/slow-phone.ts';
import { ensureBuild, startServer } from './bench/server.ts';
import { closestBySize, ratio } from './bench/stats.ts';
import type { BenchResults, LoadResult, PageResult, ThroughputResult } from './bench/types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (message: string) => console.log(`[bench] ${message}`);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const HELP = `npm run bench [-- --quick] [--cache-miss]

Benchmarks the built shop against the budgets of DESIGN.md: Lighthouse mobile (median of 3 runs per page),
JavaScript loaded before the first interaction, and SSR throughput (autocannon, 32 connections).

  --quick         1 Lighthouse run per page, 5 s load tests
  --cache-miss    only the cache-miss section (page cache off; product ids and search words rotating)
  --slow-phone    only the slow-phone section (first tap to count / to answer, first suggestion; 4× CPU, 400 ms, 400 kbit/s)
  BENCH_PRODUCTS  products seeded for the cache-miss section (default 400)   BENCH_MISS_SECONDS (default 8)
  BENCH_DATA_FROM a data folder to copy for the cache-miss section instead of seeding (e.g. a 50,000-product seed)
  BENCH_PORT      server port (default 4455)      BENCH_SECONDS  seconds per load test (default 10)
  BENCH_RUNS      Lighthouse runs per page (3)    CHROMIUM_PATH  Chromium binary (/usr/bin/chromium)
`;

function packageVersion(name: string): string | null {
  try {
    const file = path.join(root, 'node_modules', name, 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function chromiumVersion(): string | null {
  const result = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const line = result.stdout?.trim().split('\n').pop()?.trim();
  return result.status === 0 && line ? line.replace(/^Chromium\s+/, '') : null;
}

async function probe(url: string): Promise<{ status: number | null; bodyBytes: number | null; finalUrl: string; error?: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    const body = await res.arrayBuffer();
    return { status: res.status, bodyBytes: body.byteLength, finalUrl: res.url };
  } catch (error) {
    return { status: null, bodyBytes: null, finalUrl: url, error: errorText(error) };
  }
}

async function firstHotProductId(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/app/Products/LoadProductsByPriorityTag`, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`LoadProductsByPriorityTag answered HTTP ${res.status}`);
  const list = (await res.json()) as unknown;
  const id = Array.isArray(list) ? (list[0] as { id?: unknown } | undefined)?.id : undefined;
  if (typeof id !== 'number') throw new Error('LoadProductsByPriorityTag returned no product with an id');
  return id;
}

function listFiles(dir: string, prefix = ''): Array<{ rel: string; size: number }> {
  const out: Array<{ rel: string; size: number }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, rel));
    else if (entry.isFile() && !/\.(map|gz|br)$/.test(entry.name)) out.push({ rel, size: fs.statSync(full).size });
  }
  return out;
}

async function measureThroughput(
  baseUrl: string,
  product: PageResult | undefined,
  home: PageResult | undefined,
  options: BenchOptions,
): Promise<ThroughputResult> {
  const notes: string[] = [];
  const clientDir = path.join(root, 'dist/client');

  // The prerendered reference: /about, or else the static file closest in size to the product page.
  const aboutUrl = `${baseUrl}/about`;
  const about = await probe(aboutUrl);
  let reference: Pick<LoadResult, 'label' | 'path' | 'url' | 'kind' | 'status' | 'bodyBytes'>;
  if (about.status === 200) {
    const prerendered = ['about/index.html', 'about.html'].some((f) => fs.existsSync(path.join(clientDir, f)));
    if (!prerendered) notes.push('/about answers 200 but no prerendered about/index.html or about.html is in dist/client: it may be rendered per request.');
    reference = { label: 'about', path: '/about', url: aboutUrl, kind: 'prerendered', status: 200, bodyBytes: about.bodyBytes };
  } else {
    const target = (product?.status === 200 ? product.bodyBytes : null) ?? home?.bodyBytes ?? 30_000;
    const pick = fs.existsSync(clientDir) ? closestBySize(listFiles(clientDir), target) : null;
    if (!pick) throw new Error(`/about answered ${about.status ?? about.error} and dist/client has no static file to fall back on`);
    const urlPath = '/' + pick.rel.split('/').map(encodeURIComponent).join('/');
    const res = await probe(baseUrl + urlPath);
    notes.push(
      `/about answered ${about.status === null ? `nothing (${about.error})` : `HTTP ${about.status}`}, so the prerendered reference is the static file ` +
        `dist/client/${pick.rel} (${pick.size} bytes), the one closest in size to the ${product?.status === 200 ? 'product' : 'home'} page (${target} bytes).`,
    );
    reference = { label: pick.rel, path: urlPath, url: baseUrl + urlPath, kind: 'static-fallback', status: res.status, bodyBytes: res.bodyBytes };
  }

  const productTarget = {
    label: 'product',
    path: product?.path ?? '/product-detail',
    url: product?.url ?? `${baseUrl}/product-detail`,
    kind: 'product' as const,
    status: product?.status ?? null,
    bodyBytes: product?.bodyBytes ?? null,
  };
  const skippedProduct = (reason: string): LoadResult =>
    emptyLoadResult(productTarget, options.connections, options.loadSeconds, reason);

  let productLoad: LoadResult;
  if (!product || product.status !== 200) {
    productLoad = skippedProduct(`skipped (HTTP ${product?.status ?? 'no answer'})`);
  } else {
    log(`load: ${product.path} (${options.warmupSeconds} s warm-up + ${options.loadSeconds} s)…`);
    productLoad = await loadTest(productTarget, options.connections, options.loadSeconds, options.warmupSeconds);
  }
  log(`load: ${reference.path} (${options.warmupSeconds} s warm-up + ${options.loadSeconds} s)…`);
  const referenceLoad = await loadTest(reference, options.connections, options.loadSeconds, options.warmupSeconds);
  return { product: productLoad, reference: referenceLoad, ratio: ratio(productLoad.requestsPerSec, referenceLoad.requestsPerSec), notes };
}

const outDir = path.join(root, 'bench-results');

function cacheMissOptions(options: BenchOptions): CacheMissOptions {
  return {
    port: options.port,
    connections: options.connections,
    seconds: options.missSeconds,
    warmupSeconds: options.warmupSeconds,
    products: options.products,
    dataFrom: options.dataFrom,
    log,
  };
}

/** `--cache-miss`: the cache-miss section alone, written to bench-results/cache-miss.md and cache-miss.json. */
async function cacheMissOnly(options: BenchOptions): Promise<number> {
  try {
    ensureBuild(root);
    const result = await measureCacheMiss(root, outDir, cacheMissOptions(options));
    writeLatest(outDir, result);
    const markdown = renderCacheMiss(result).join('\n') + '\n';
    fs.writeFileSync(path.join(outDir, 'cache-miss.md'), markdown);
    console.log('\n' + markdown);
    log('wrote bench-results/cache-miss.md and bench-results/cache-miss.json');
    return result.loads.some((l) => l.error) ? 1 : 0;
  } finally {
    await runCleanup();
  }
}

/** Slow-phone runs per figure (the median is shown). */
const slowPhoneRuns = (options: BenchOptions) => (options.quick ? 1 : 3);

/** `--slow-phone`: the slow-phone section alone, on a server of its own, to bench-results/slow-phone.md and .json. */
async function slowPhoneOnly(options: BenchOptions): Promise<number> {
  try {
    ensureBuild(root);
    const server = await startServer(root, options.port);
    let result;
    try {
      result = await measureSlowPhone(server.baseUrl, server.dataDir, outDir, slowPhoneRuns(options), log);
    } finally {
      await server.stop();
    }
    writeLatestSlowPhone(outDir, result);
    const markdown = renderSlowPhone(result).join('\n') + '\n';
    fs.writeFileSync(path.join(outDir, 'slow-phone.md'), markdown);
    console.log('\n' + markdown);
    log('wrote bench-results/slow-phone.md and bench-results/slow-phone.json');
    return result.notes.length ? 1 : 0;
  } finally {
    await runCleanup();
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  if (options.cacheMissOnly) return cacheMissOnly(options);
  if (options.slowPhoneOnly) return slowPhoneOnly(options);
  const started = new Date();
  const results: BenchResults = {
    environment: {
      startedAt: started.toISOString(),
      finishedAt: '',
      durationSeconds: 0,
      quick: options.quick,
      lighthouseRuns: options.lighthouseRuns,
      loadSeconds: options.loadSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      baseUrl: `http://127.0.0.1:${options.port}`,
      node: process.version,
      chromium: chromiumVersion(),
      lighthouse: packageVersion('lighthouse'),
      autocannon: packageVersion('autocannon'),
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}`,
      cpuCount: os.cpus().length,
      loadAverage: { start: os.loadavg().map((n) => Number(n.toFixed(2))), end: [] },
      buildTime: null,
    },
    productId: null,
    pages: [],
    throughput: null,
    notes: [],
    errors: [],
  };
  let fatal = false;

  try {
    const { entry, built } = ensureBuild(root);
    results.environment.buildTime = fs.statSync(entry).mtime.toISOString();
    if (built) results.notes.push('dist/server/entry.mjs was missing, so the bench built the shop first.');

    log(`starting scripts/serve.ts on 127.0.0.1:${options.port} with a fresh DATA_DIR (the first start seeds the database)…`);
    const server = await startServer(root, options.port);
    const baseUrl = server.baseUrl;
    log(`server ready at ${baseUrl}`);

    try {
      results.productId = await firstHotProductId(baseUrl);
    } catch (error) {
      results.notes.push(`No product page measured: ${errorText(error)}.`);
    }

    const pageDefs = [
      { label: 'home', path: '/', jsBudgeted: true },
      { label: 'shop (hot)', path: '/shop?type=hot', jsBudgeted: false },
      { label: 'product', path: results.productId === null ? null : `/product-detail?id=${results.productId}`, jsBudgeted: true },
      { label: 'search', path: '/search?name=rice', jsBudgeted: false },
    ];
    for (const def of pageDefs) {
      const pagePath = def.path ?? '/product-detail';
      const url = baseUrl + pagePath;
      const page: PageResult = { label: def.label, path: pagePath, url, status: null, bodyBytes: null, jsBudgeted: def.jsBudgeted, lighthouse: null, js: [] };
      if (def.path === null) {
        page.note = 'no hot product id, so no product page';
      } else {
        const p = await probe(url);
        page.status = p.status;
        page.bodyBytes = p.bodyBytes;
        if (p.error) page.note = `no answer: ${p.error}`;
        else if (p.finalUrl !== url) page.note = `redirected to ${p.finalUrl}`;
      }
      log(`${page.label} ${page.path}: ${page.status ?? 'no answer'}${page.bodyBytes !== null ? `, ${page.bodyBytes} bytes` : ''}`);
      results.pages.push(page);
    }
    const measured = results.pages.filter((p) => p.status === 200);

    const serverUp = () => server.unexpectedExit() === null;
    if (measured.length && serverUp()) {
      log('pictures: loading each page once on a phone screen, so their sizes are made before Lighthouse…');
      const browser = await launchBrowser();
      try {
        for (const page of measured) await warmPictures(browser, page.url).catch((error) => log(`  ${page.path}: ${errorText(error)}`));
      } finally {
        await browser.close();
      }
    }

    // Lighthouse: one page at a time, one Chromium per run.
    for (const page of measured) {
      if (!serverUp()) break;
      log(`Lighthouse ${page.path} (${options.lighthouseRuns} run(s))…`);
      try {
        page.lighthouse = await lighthousePage(page.url, options.lighthouseRuns, log);
      } catch (error) {
        page.lighthouse = { runs: [], median: { ...NO_METRICS }, error: errorText(error) };
      }
    }

    // JavaScript before (and after) the first interaction.
    if (measured.length && serverUp()) {
      let browser: Browser | undefined;
      try {
        browser = await launchBrowser();
        const b = browser;
        const unregister = onCleanup('close Playwright Chromium', () => b.close());
        for (const page of measured) {
          for (const viewport of VIEWPORTS) {
            if (!serverUp()) break;
            const m = await measureJs(b, page.url, viewport);
            page.js.push(m);
            const kb = (n: number | undefined) => (n === undefined ? '—' : `${(n / 1000).toFixed(1)} KB`);
            log(
              `JS ${page.path} [${viewport.name}]: ${m.before?.files ?? '—'} files, ${kb(m.before?.gzipBytes)} gzip before, ${kb(m.after?.gzipBytes)} after interaction${m.error ? ` (error: ${m.error})` : ''}`,
            );
          }
        }
        unregister();
        await b.close();
      } catch (error) {
        results.errors.push(`JavaScript measurement: ${errorText(error)}`);
        await browser?.close().catch(() => undefined);
      }
    }

    // The first taps on a slow phone, before the load tests (which leave carts and caches behind them).
    if (serverUp()) {
      try {
        results.slowPhone = await measureSlowPhone(baseUrl, server.dataDir, outDir, slowPhoneRuns(options), log);
        writeLatestSlowPhone(outDir, results.slowPhone);
      } catch (error) {
        results.slowPhone = null;
        results.errors.push(`Slow phone: ${errorText(error)}`);
      }
    }

    if (serverUp()) {
      try {
        results.throughput = await measureThroughput(
          baseUrl,
          results.pages.find((p) => p.label === 'product'),
          results.pages.find((p) => p.label === 'home'),
          options,
        );
      } catch (error) {
        results.errors.push(`SSR throughput: ${errorText(error)}`);
      }
    }
    const died = server.unexpectedExit();
    if (died) {
      fatal = true;
      results.errors.push(`${died.split('\n')[0]}: the figures measured after that are missing (see latest.json for its output).`);
      results.serverLog = server.log();
    }

    // Cache misses: a server of its own on the same port (page cache off), so this one stops first.
    await server.stop();
    try {
      results.cacheMiss = await measureCacheMiss(root, outDir, cacheMissOptions(options));
      writeLatest(outDir, results.cacheMiss);
    } catch (error) {
      results.cacheMiss = null;
      results.errors.push(`Cache-miss throughput: ${errorText(error)}`);
    }
  } catch (error) {
    fatal = true;
    results.errors.push(errorText(error));
  } finally {
    await runCleanup();
  }

  const finished = new Date();
  results.environment.finishedAt = finished.toISOString();
  results.environment.durationSeconds = (finished.getTime() - started.getTime()) / 1000;
  results.environment.loadAverage.end = os.loadavg().map((n) => Number(n.toFixed(2)));

  const markdown = renderReport(results);
  fs.mkdirSync(outDir, { recursive: true });
  const dated = path.join(outDir, reportFileName(started));
  fs.writeFileSync(dated, markdown);
  fs.writeFileSync(path.join(outDir, 'latest.md'), markdown);
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  console.log('\n' + markdown);
  log(`wrote ${path.relative(root, dated)}, bench-results/latest.md and bench-results/latest.json`);
  return fatal ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`[bench] ${errorText(error)}`);
  await runCleanup();
  process.exitCode = 1;
}
