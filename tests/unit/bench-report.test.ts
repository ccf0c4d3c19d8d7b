import { describe, expect, it } from 'vitest';
import { BUDGETS } from '../../scripts/bench/budgets.ts';
import {
  cell,
  formatCls,
  formatKB,
  formatMs,
  formatScore,
  markdownTable,
  parseOptions,
  reportFileName,
} from '../../scripts/bench/format.ts';
import { mainThreadSummary, renderReport, worstJs } from '../../scripts/bench/report.ts';
import type { BenchResults, JsSnapshot, LighthouseRun, LoadResult, PageResult } from '../../scripts/bench/types.ts';

describe('formatting', () => {
  it('formats figures, with a dash for none', () => {
    expect(formatKB(20_480)).toBe('20.5 KB');
    expect(formatKB(null)).toBe('—');
    expect(formatMs(16.04)).toBe('16 ms');
    expect(formatMs(12.5)).toBe('12.5 ms');
    expect(formatMs(1493.6)).toBe('1494 ms');
    expect(formatScore(99.6)).toBe('100');
    expect(formatCls(0)).toBe('0');
    expect(formatCls(0.0123)).toBe('0.012');
  });
  it('puts the verdict and the budget next to a figure', () => {
    expect(cell(94, formatScore, BUDGETS.performance)).toBe('94 ❌ (≥ 100)');
    expect(cell(16, formatMs, BUDGETS.tbtMs)).toBe('16 ms ✅ (≤ 50 ms)');
    expect(cell(12_345, formatKB, BUDGETS.jsGzipBytes)).toBe('12.3 KB ✅ (≤ 20.0 KB)');
    expect(cell(0.02, formatCls, BUDGETS.cls, String)).toBe('0.020 ❌ (≤ 0.01)');
    expect(cell(12_345, formatKB, null)).toBe('12.3 KB');
    expect(cell(null, formatScore, BUDGETS.performance)).toBe('—');
  });
});

describe('markdownTable', () => {
  it('renders a header, an aligned separator and rows, escaping pipes', () => {
    expect(markdownTable(['Page', 'Score'], [['a|b', '1'], ['c']], ['l', 'r'])).toBe(
      ['| Page | Score |', '| --- | ---: |', '| a\\|b | 1 |', '| c |  |'].join('\n'),
    );
  });
});

describe('reportFileName', () => {
  it('uses the ISO date without colons or milliseconds', () => {
    expect(reportFileName(new Date('2025-03-04T05:06:07.890Z'))).toBe('bench-2025-03-04T05-06-07Z.md');
  });
});

describe('parseOptions', () => {
  it('defaults to 3 Lighthouse runs and 10 s load tests on port 4455', () => {
    expect(parseOptions([], {})).toMatchObject({ quick: false, lighthouseRuns: 3, loadSeconds: 10, warmupSeconds: 2, connections: 32, port: 4455 });
  });
  it('--quick means 1 run and 5 s', () => {
    expect(parseOptions(['--quick'], {})).toMatchObject({ quick: true, lighthouseRuns: 1, loadSeconds: 5 });
  });
  it('reads BENCH_PORT, BENCH_SECONDS and BENCH_RUNS', () => {
    expect(parseOptions(['--quick'], { BENCH_PORT: '5000', BENCH_SECONDS: '3', BENCH_RUNS: '2' })).toMatchObject({
      port: 5000,
      loadSeconds: 3,
      lighthouseRuns: 2,
    });
  });
  it('rejects unknown options and bad numbers', () => {
    expect(() => parseOptions(['--fast'], {})).toThrow(/unknown option/);
    expect(() => parseOptions([], { BENCH_PORT: 'x' })).toThrow(/BENCH_PORT/);
    expect(() => parseOptions([], { BENCH_SECONDS: '0' })).toThrow(/BENCH_SECONDS/);
  });
});

function js(gzipBytes: number, files = 1): JsSnapshot {
  return { files, encodedBytes: gzipBytes * 3, decodedBytes: gzipBytes * 3, gzipBytes, inlineScripts: 1, inlineBytes: 3000, inlineGzipBytes: 1200, scripts: [] };
}

function lhRun(over: Partial<LighthouseRun> = {}): LighthouseRun {
  return {
    performance: 100,
    accessibility: 100,
    bestPractices: 100,
    seo: 100,
    tbtMs: 10,
    cls: 0,
    lcpMs: 1200,
    durationMs: 15_000,
    benchmarkIndex: 1200,
    runWarnings: [],
    failedAudits: [],
    mainThreadMs: { styleLayout: 300, parseHTML: 100 },
    ...over,
  };
}

function load(over: Partial<LoadResult>): LoadResult {
  return {
    label: 'x',
    path: '/x',
    url: 'http://127.0.0.1:4455/x',
    kind: 'product',
    status: 200,
    bodyBytes: 60_000,
    connections: 32,
    seconds: 10,
    requestsPerSec: 800,
    p50Ms: 20,
    p99Ms: 80,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    totalRequests: 8000,
    ...over,
  };
}

const mobile = { name: 'mobile', width: 412, height: 823 } as const;
const desktop = { name: 'desktop', width: 1280, height: 800 } as const;

function sample(): BenchResults {
  const home: PageResult = {
    label: 'home',
    path: '/',
    url: 'http://127.0.0.1:4455/',
    status: 200,
    bodyBytes: 90_000,
    jsBudgeted: true,
    lighthouse: {
      runs: [lhRun({ tbtMs: 300, performance: 94 }), lhRun({ tbtMs: 40 }), lhRun({ tbtMs: 60, performance: 98 })],
      median: { performance: 98, accessibility: 100, bestPractices: 100, seo: 100, tbtMs: 60, cls: 0, lcpMs: 1200 },
    },
    js: [
      { viewport: mobile, before: js(0, 0), after: js(82_000, 7), interaction: 'hover + focus' },
      { viewport: desktop, before: js(25_000, 2), after: js(82_000, 7), interaction: 'hover + focus' },
    ],
  };
  const search: PageResult = {
    label: 'search',
    path: '/search?name=rice',
    url: 'http://127.0.0.1:4455/search?name=rice',
    status: 404,
    bodyBytes: 4000,
    jsBudgeted: false,
    lighthouse: null,
    js: [],
  };
  return {
    environment: {
      startedAt: '2025-03-04T05:06:07.890Z',
      finishedAt: '2025-03-04T05:10:07.890Z',
      durationSeconds: 240,
      quick: false,
      lighthouseRuns: 3,
      loadSeconds: 10,
      warmupSeconds: 2,
      connections: 32,
      baseUrl: 'http://127.0.0.1:4455',
      node: 'v24.0.0',
      chromium: '156',
      lighthouse: '12.8.2',
      autocannon: '9.0.0',
      cpus: '2 × CPU',
      cpuCount: 2,
      loadAverage: { start: [0.5, 0.4, 0.3], end: [1.5, 1, 0.5] },
      buildTime: null,
    },
    productId: 163,
    pages: [home, search],
    throughput: {
      product: load({ path: '/product-detail?id=163', requestsPerSec: 800, p99Ms: 298 }),
      reference: load({ kind: 'prerendered', path: '/about', requestsPerSec: 1000, p99Ms: 40 }),
      ratio: 0.8,
      notes: [],
    },
    notes: [],
    errors: [],
  };
}

describe('worstJs', () => {
  it('picks the viewport that loaded the most JavaScript before interaction', () => {
    expect(worstJs(sample().pages[0]!)?.viewport.name).toBe('desktop');
  });
});

describe('mainThreadSummary', () => {
  it('lists the largest kinds of main-thread work by median', () => {
    expect(mainThreadSummary([lhRun(), lhRun({ mainThreadMs: { styleLayout: 500, parseHTML: 50, other: 10 } })], 2)).toBe(
      'styleLayout 400 ms, parseHTML 75 ms',
    );
  });
});

describe('renderReport', () => {
  const md = renderReport(sample());
  it('has one row per page with figures, verdicts and budgets', () => {
    const home = md.split('\n').find((l) => l.startsWith('| home'))!;
    expect(home).toContain('98 ❌ (≥ 100)');
    expect(home).toContain('60 ms ❌ (≤ 50 ms)');
    expect(home).toContain('0 ✅ (≤ 0.01)');
    expect(home).toContain('25.0 KB ❌ (≤ 20.0 KB) [desktop]');
    expect(home).toContain('82.0 KB');
  });
  it('gives a page that did not answer 200 its status and no scores', () => {
    const row = md.split('\n').find((l) => l.startsWith('| search'))!;
    expect(row).toContain('| 404 |');
    expect(row).not.toMatch(/✅|❌/);
  });
  it('has a throughput table with the p99 and ratio verdicts', () => {
    expect(md).toContain('## SSR throughput');
    const product = md.split('\n').find((l) => l.startsWith('| product page (SSR)'))!;
    expect(product).toContain('800.0');
    expect(product).toContain('298 ms ❌ (≤ 100 ms)');
    expect(md).toContain('0.80 ✅ (≥ 0.50)');
  });
  it('explains a failed TBT budget', () => {
    expect(md).toContain('home: TBT over budget; main-thread work (Lighthouse mobile CPU, median): styleLayout 300 ms, parseHTML 100 ms');
  });
  it('warns when the machine was busy', () => {
    expect(md).not.toContain('The machine was busy');
    const results = sample();
    results.environment.loadAverage.end = [6.5, 4, 2];
    expect(renderReport(results)).toContain('1-minute load average up to 6.5 on 2 CPUs');
  });
  it('says when the product page was not load-tested', () => {
    const results = sample();
    results.throughput!.product = load({ status: 404, requestsPerSec: null, skipped: 'skipped (HTTP 404)' });
    results.throughput!.ratio = null;
    const text = renderReport(results);
    expect(text).toContain('skipped (HTTP 404)');
    expect(text).toMatch(/\| product ÷ prerendered \(requests\/s\) \|  \|  \| — \|/);
  });
});
