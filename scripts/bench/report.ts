// Renders bench results (see types.ts) as the Markdown report. Pure: same results, same text.
import { BUDGETS, verdict } from './budgets.ts';
import {
  DASH,
  cell,
  formatCls,
  formatKB,
  formatMs,
  formatNumber,
  formatScore,
  markdownTable,
} from './format.ts';
import { renderSlowPhone } from './slow-phone.ts';
import { median } from './stats.ts';
import type { BenchResults, CacheMissResult, FailedAudit, JsMeasurement, LighthouseRun, LoadResult, PageResult } from './types.ts';

/** Median main-thread time per kind of work across runs, largest first, as "Style & Layout 812 ms, …". */
export function mainThreadSummary(runs: ReadonlyArray<Pick<LighthouseRun, 'mainThreadMs'>>, top = 4): string {
  const groups = new Set(runs.flatMap((r) => Object.keys(r.mainThreadMs)));
  return [...groups]
    .map((group) => ({ group, ms: median(runs.map((r) => r.mainThreadMs[group] ?? 0)) ?? 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map(({ group, ms }) => `${group} ${Math.round(ms)} ms`)
    .join(', ');
}

/** The viewport that loaded the most JavaScript (gzip) before the first interaction. */
export function worstJs(page: PageResult): JsMeasurement | null {
  let worst: JsMeasurement | null = null;
  for (const m of page.js) {
    if (!m.before) continue;
    if (!worst || m.before.gzipBytes > (worst.before?.gzipBytes ?? -1)) worst = m;
  }
  return worst;
}

function viewportSuffix(page: PageResult, m: JsMeasurement | null): string {
  if (!m || page.js.filter((j) => j.before).length < 2) return '';
  const sizes = new Set(page.js.map((j) => j.before?.gzipBytes));
  return sizes.size > 1 ? ` [${m.viewport.name}]` : '';
}

function pageRow(page: PageResult): string[] {
  const ok = page.status === 200;
  const lh = ok ? page.lighthouse?.median : undefined;
  const js = ok ? worstJs(page) : null;
  const suffix = viewportSuffix(page, js);
  const status = page.status === null ? 'no answer' : String(page.status);
  const lhCell = (text: string) => (ok && page.lighthouse?.error && !lh?.performance ? 'error' : text);
  return [
    `${page.label} \`${page.path}\``,
    status,
    lhCell(cell(lh?.performance, formatScore, BUDGETS.performance)),
    lhCell(cell(lh?.accessibility, formatScore, BUDGETS.accessibility)),
    lhCell(cell(lh?.bestPractices, formatScore, BUDGETS.bestPractices)),
    lhCell(cell(lh?.seo, formatScore, BUDGETS.seo)),
    lhCell(cell(lh?.tbtMs, formatMs, BUDGETS.tbtMs)),
    lhCell(cell(lh?.cls, formatCls, BUDGETS.cls, (n) => String(n))),
    lhCell(formatMs(lh?.lcpMs)),
    js?.before ? String(js.before.files) : DASH,
    js?.before ? formatKB(js.before.encodedBytes) : DASH,
    js?.before ? cell(js.before.gzipBytes, formatKB, page.jsBudgeted ? BUDGETS.jsGzipBytes : null) + suffix : DASH,
    js?.after ? formatKB(js.after.gzipBytes) : DASH,
    js?.before ? (js.before.inlineScripts ? formatKB(js.before.inlineGzipBytes) : '0') : DASH,
  ];
}

function loadRow(r: LoadResult, budgeted: boolean): string[] {
  const kind = r.kind === 'product' ? 'product page (SSR)' : r.kind === 'prerendered' ? 'prerendered page' : 'static file (fallback)';
  const skipped = r.skipped ?? (r.error ? `error: ${r.error}` : undefined);
  return [
    `${kind} \`${r.path}\``,
    r.status === null ? 'no answer' : String(r.status),
    formatKB(r.bodyBytes),
    skipped ? skipped : formatNumber(r.requestsPerSec, 1),
    skipped ? DASH : formatMs(r.p50Ms),
    skipped ? DASH : cell(r.p99Ms, formatMs, budgeted ? BUDGETS.ssrP99Ms : null),
    skipped ? DASH : formatNumber(r.non2xx),
    skipped ? DASH : formatNumber((r.errors ?? 0) + (r.timeouts ?? 0)),
  ];
}

function uniqueFailedAudits(page: PageResult): FailedAudit[] {
  const seen = new Map<string, FailedAudit>();
  for (const run of page.lighthouse?.runs ?? []) {
    for (const audit of run.failedAudits) {
      const key = `${audit.category}/${audit.id}`;
      if (!seen.has(key)) seen.set(key, audit);
    }
  }
  return [...seen.values()];
}

export function renderReport(results: BenchResults): string {
  const env = results.environment;
  const out: string[] = [];
  out.push(`# Kirana bench, ${env.startedAt}`);
  out.push('');
  out.push(
    [
      `Mode: ${env.quick ? '**quick** (figures are indicative only)' : 'full'}`,
      `Lighthouse ${env.lighthouse ?? '?'} mobile defaults (simulated throttling), ${env.lighthouseRuns} run(s) per page, ${env.lighthouseRuns > 1 ? 'median of each metric taken separately' : 'single run'}`,
      `Chromium ${env.chromium ?? '?'}`,
      `Node ${env.node}`,
      `${env.cpus}, load average ${env.loadAverage.start.join('/')} at start, ${env.loadAverage.end.join('/') || '?'} at end`,
      `server ${env.baseUrl} on a fresh DATA_DIR${env.buildTime ? `, build of ${env.buildTime}` : ''}`,
      `took ${Math.round(env.durationSeconds)} s`,
    ].join(' · '),
  );
  out.push('');
  out.push('## Pages: Lighthouse mobile and JavaScript before the first interaction');
  out.push('');
  out.push(
    markdownTable(
      [
        'Page',
        'HTTP',
        'Performance',
        'Accessibility',
        'Best practices',
        'SEO',
        'TBT',
        'CLS',
        'LCP',
        'JS files',
        'JS transferred',
        'JS gzip',
        'JS gzip after interaction',
        'Inline JS gzip',
      ],
      results.pages.map(pageRow),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  out.push('');
  out.push(
    'JS columns: script files loaded on a fresh browser context by network idle + 1 s, without interaction; ' +
      '"transferred" is the encoded body size, "gzip" is each body gzipped locally (zlib level 6); ' +
      'the JavaScript budget (≤ 20 KB gzip) applies to the home and product pages. ' +
      'Measured at a mobile (412×823) and a desktop (1280×800) viewport; the larger is shown, tagged when they differ. ' +
      '"After interaction" is the cumulative figure after hovering and focusing the search box. 1 KB = 1000 bytes.',
  );
  out.push('');
  out.push('## SSR throughput');
  out.push('');
  const t = results.throughput;
  if (!t) {
    out.push('Not measured.');
  } else {
    out.push(
      `autocannon, ${t.product.connections} connections, ${t.product.seconds} s per URL after a ${env.warmupSeconds} s warm-up, against 127.0.0.1.`,
    );
    out.push('');
    const ratioRow = [
      'product ÷ prerendered (requests/s)',
      '',
      '',
      cell(t.ratio, (n) => formatNumber(n, 2), BUDGETS.ssrRatio),
      '',
      '',
      '',
      '',
    ];
    out.push(
      markdownTable(
        ['Target', 'HTTP', 'Body', 'Requests/s', 'p50', 'p99', 'Non-2xx', 'Errors'],
        [loadRow(t.product, true), loadRow(t.reference, false), ratioRow],
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
    );
    for (const note of t.notes) out.push('', `- ${note}`);
  }

  if (results.slowPhone !== undefined) out.push('', ...renderSlowPhone(results.slowPhone));
  if (results.cacheMiss !== undefined) out.push('', ...renderCacheMiss(results.cacheMiss));

  const notes: string[] = [...results.notes];
  const busiest = Math.max(...env.loadAverage.start.slice(0, 1), ...env.loadAverage.end.slice(0, 1));
  if (env.cpuCount > 0 && busiest > env.cpuCount) {
    notes.push(
      `The machine was busy with other work (1-minute load average up to ${busiest} on ${env.cpuCount} CPUs): ` +
        'Lighthouse timings and throughput are skewed; rerun on a quiet machine before trusting a failed budget.',
    );
  }
  for (const page of results.pages) {
    if (page.note) notes.push(`${page.label}: ${page.note}`);
    if (page.lighthouse?.error) notes.push(`${page.label}: Lighthouse: ${page.lighthouse.error}`);
    for (const run of page.lighthouse?.runs ?? []) if (run.error) notes.push(`${page.label}: a Lighthouse run failed: ${run.error}`);
    const warnings = new Set((page.lighthouse?.runs ?? []).flatMap((r) => r.runWarnings));
    for (const w of warnings) notes.push(`${page.label}: Lighthouse warning: ${w}`);
    for (const m of page.js) if (m.error) notes.push(`${page.label} (${m.viewport.name}): JavaScript measurement failed: ${m.error}`);
    const completed = (page.lighthouse?.runs ?? []).filter((r) => !r.error);
    if (verdict(page.lighthouse?.median.tbtMs, BUDGETS.tbtMs) === 'fail' && completed.length) {
      notes.push(`${page.label}: TBT over budget; main-thread work (Lighthouse mobile CPU, median): ${mainThreadSummary(completed)}`);
    }
    const audits = uniqueFailedAudits(page);
    if (audits.length) {
      notes.push(
        `${page.label}: audits below a perfect score: ` +
          audits.map((a) => `${a.category}/${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`).join(', '),
      );
    }
  }
  const benchmark = results.pages.flatMap((p) => p.lighthouse?.runs ?? []).map((r) => r.benchmarkIndex);
  const known = benchmark.filter((b): b is number => typeof b === 'number');
  if (known.length) {
    notes.push(
      `Lighthouse benchmarkIndex of this machine: ${Math.min(...known)}–${Math.max(...known)} ` +
        '(Lighthouse calibrates its mobile throttling for about 1000+; lower means the simulated scores are pessimistic).',
    );
  }
  if (notes.length || results.errors.length) {
    out.push('', '## Notes', '');
    for (const note of notes) out.push(`- ${note}`);
    for (const error of results.errors) out.push(`- **error**: ${error}`);
  }
  out.push('');
  return out.join('\n');
}

function previousCell(now: number | null, before: number | null | undefined, format: (n: number | null | undefined) => string): string {
  if (typeof before !== 'number') return DASH;
  if (typeof now !== 'number' || before === 0) return format(before);
  const change = ((now - before) / before) * 100;
  return `${format(before)} (${change >= 0 ? '+' : ''}${change.toFixed(0)} %)`;
}

/** The cache-miss table (page cache off), with the previous run's figures when there are any. */
export function renderCacheMiss(m: CacheMissResult | null): string[] {
  const out = ['## SSR throughput, page cache off (cache misses)', ''];
  if (!m) return [...out, 'Not measured.'];
  const first = m.loads[0];
  out.push(
    `PAGE_CACHE_SECONDS=0, one process, embedded database, ${m.products} products; autocannon ${first?.connections ?? '—'} connections, ` +
      `${first?.seconds ?? '—'} s per row (rows marked 1 connection: one shopper alone), each request the next path of the rotation. ` +
      'Rows marked "read cache off" ran with READ_CACHE_SECONDS=0: every request read the database, as a page or search asked for the first time does; ' +
      'the others ran as the shop does, where the API keeps catalogue answers until a write changes them, after one request for every path ' +
      'of the rotation when it comes back within the cache\'s minute at the goal\'s rate (30,000 paths or fewer): the steady state.' +
      (m.previous ? ` "Before" is the run of ${m.previous.measuredAt} (${m.previous.products} products).` : ' No earlier run to compare with.'),
    '',
  );
  const rows = m.loads.map((l) => {
    // A run from before the read cache existed read the database every time: the "before" of both kinds of row.
    const before = m.previous?.loads.find(
      (p) => p.pattern === l.pattern && p.connections === l.connections && (p.readCache === undefined || p.readCache === l.readCache),
    );
    const { minRequestsPerSec: min, maxP99Ms: max } = l.target;
    const goal = [min === null ? null : `≥ ${min}/s`, max === null ? null : `p99 ≤ ${max} ms`].filter(Boolean).join(', ');
    const met =
      l.requestsPerSec === null
        ? DASH
        : l.totalRequests !== 0 && (min === null || l.requestsPerSec >= min) && (max === null || (l.p99Ms ?? Infinity) <= max)
          ? '✅'
          : '❌';
    return [
      `${l.pattern} (${l.rotatingOver} paths${l.connections === 1 ? ', 1 connection' : ''}${l.readCache === false ? ', read cache off' : ''})`,
      formatNumber(l.requestsPerSec),
      formatMs(l.p50Ms),
      formatMs(l.p99Ms),
      l.cpuMsPerRequest == null ? DASH : `${l.cpuMsPerRequest.toFixed(1)} ms`,
      l.error ? `error: ${l.error}` : `${l.non2xx ?? DASH} / ${l.errors ?? DASH} / ${l.timeouts ?? DASH}`,
      `${met} ${goal}`,
      previousCell(l.requestsPerSec, before?.requestsPerSec, (n) => formatNumber(n)),
      previousCell(l.p99Ms, before?.p99Ms, formatMs),
    ];
  });
  out.push(
    markdownTable(
      ['Request', 'Requests/s', 'p50', 'p99', 'Server CPU / request', 'Non-2xx / errors / timeouts', 'Goal (issue 12)', 'Before: req/s', 'Before: p99'],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r'],
    ),
  );
  for (const note of m.notes) out.push('', `- ${note}`);
  return out;
}
