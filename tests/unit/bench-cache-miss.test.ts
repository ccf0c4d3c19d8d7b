import { describe, expect, it } from 'vitest';
import { CACHE_MISS_TARGETS, SEARCH_WORDS, rotating } from '../../scripts/bench/cache-miss.ts';
import { parseOptions } from '../../scripts/bench/format.ts';
import { renderCacheMiss, renderReport } from '../../scripts/bench/report.ts';
import type { BenchResults, CacheMissLoad, CacheMissResult } from '../../scripts/bench/types.ts';

function load(pattern: string, requestsPerSec: number | null, p99Ms: number | null, target: CacheMissLoad['target']): CacheMissLoad {
  return {
    label: pattern,
    pattern,
    rotatingOver: 400,
    connections: 32,
    seconds: 8,
    requestsPerSec,
    p50Ms: p99Ms === null ? null : p99Ms / 2,
    p99Ms,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    totalRequests: requestsPerSec === null ? null : requestsPerSec * 8,
    target,
  };
}

describe('cache-miss bench', () => {
  it('rotates through every path in order, then starts again', () => {
    const next = rotating(['/a', '/b', '/c']);
    expect([next(), next(), next(), next()]).toEqual(['/a', '/b', '/c', '/a']);
    expect(() => rotating([])).toThrow(/nothing to rotate over/);
  });

  it('asks for words shoppers type: Hinglish, typos, several words, prefixes, no duplicates', () => {
    expect(new Set(SEARCH_WORDS).size).toBe(SEARCH_WORDS.length);
    for (const w of ['chawal', 'basmti', 'toor dal 1kg', 'ri']) expect(SEARCH_WORDS).toContain(w);
  });

  it('reads --cache-miss, BENCH_PRODUCTS, BENCH_DATA_FROM and BENCH_MISS_SECONDS', () => {
    const plain = parseOptions([], {});
    expect(plain).toMatchObject({ cacheMissOnly: false, missSeconds: 8, products: undefined, dataFrom: undefined });
    const set = parseOptions(['--cache-miss'], { BENCH_PRODUCTS: '50000', BENCH_MISS_SECONDS: '3', BENCH_DATA_FROM: '/tmp/k' });
    expect(set).toMatchObject({ cacheMissOnly: true, missSeconds: 3, products: 50000, dataFrom: '/tmp/k' });
    expect(() => parseOptions([], { BENCH_PRODUCTS: 'many' })).toThrow(/BENCH_PRODUCTS must be a whole number/);
  });

  it('prints each row against its goal, with the previous run as before and the change', () => {
    const result: CacheMissResult = {
      measuredAt: '2026-11-23T03:00:00.000Z',
      products: 50000,
      loads: [
        { ...load('/product-detail?id=N', 600, 120, CACHE_MISS_TARGETS.product), cpuMsPerRequest: 3.14 },
        load('/api/app/Products/SearchProducts/W', 900, 40, CACHE_MISS_TARGETS.suggestions),
        { ...load('/search?name=W', 30, 90, CACHE_MISS_TARGETS.searchAlone), connections: 1 },
      ],
      previous: {
        measuredAt: '2026-11-23T02:00:00.000Z',
        products: 400,
        loads: [load('/product-detail?id=N', 40, 5800, CACHE_MISS_TARGETS.product)],
      },
      notes: ['a note'],
    };
    const text = renderCacheMiss(result).join('\n');
    expect(text).toContain('## SSR throughput, page cache off (cache misses)');
    expect(text).toContain('50000 products');
    expect(text).toContain('"Before" is the run of 2026-11-23T02:00:00.000Z (400 products)');
    const product = text.split('\n').find((l) => l.startsWith('| /product-detail'));
    expect(product).toContain('| 600 |');
    expect(product).toContain('| 3.1 ms |');
    expect(product).toContain('✅ ≥ 500/s, p99 ≤ 150 ms');
    expect(product).toContain('40 (+1400 %)');
    expect(product).toContain('5800 ms (-98 %)');
    const suggestions = text.split('\n').find((l) => l.startsWith('| /api/'));
    expect(suggestions).toContain('❌ ≥ 1000/s, p99 ≤ 50 ms');
    expect(suggestions).toMatch(/\| — \| — \|$/);
    const alone = text.split('\n').find((l) => l.startsWith('| /search'));
    expect(alone).toContain('1 connection');
    expect(alone).toContain('✅ p99 ≤ 150 ms');
    expect(text).toContain('- a note');
    // Nothing finished: 0 ms is no proof of speed.
    const none = renderCacheMiss({ ...result, loads: [{ ...load('/search?name=W', 0, 0, CACHE_MISS_TARGETS.searchAlone), totalRequests: 0 }] });
    expect(none.join('\n')).toContain('❌ p99 ≤ 150 ms');
    expect(renderCacheMiss(null).join('\n')).toContain('Not measured.');
    expect(renderCacheMiss({ ...result, previous: null }).join('\n')).toContain('No earlier run to compare with.');
  });

  it('puts the cache-miss table after the cached one in the full report, and leaves it out of older results', () => {
    const results: BenchResults = {
      environment: {
        startedAt: '2026-11-23T03:00:00.000Z',
        finishedAt: '2026-11-23T03:05:00.000Z',
        durationSeconds: 300,
        quick: false,
        lighthouseRuns: 3,
        loadSeconds: 10,
        warmupSeconds: 2,
        connections: 32,
        baseUrl: 'http://127.0.0.1:4455',
        node: 'v24',
        chromium: null,
        lighthouse: null,
        autocannon: null,
        cpus: '2 × CPU',
        cpuCount: 2,
        loadAverage: { start: [0.5], end: [0.5] },
        buildTime: null,
      },
      productId: 1,
      pages: [],
      throughput: null,
      notes: [],
      errors: [],
    };
    const without = renderReport(results);
    expect(without).not.toContain('page cache off');
    const cacheMiss: CacheMissResult = { measuredAt: 'x', products: 400, loads: [], previous: null, notes: [] };
    const text = renderReport({ ...results, cacheMiss });
    expect(text.indexOf('## SSR throughput, page cache off')).toBeGreaterThan(text.indexOf('## SSR throughput\n'));
  });
});

describe('processCpuMs', () => {
  it("reads a process's CPU time from /proc, and nothing for a process that is not there", async () => {
    const { processCpuMs } = await import('../../scripts/bench/server.ts');
    const before = processCpuMs(process.pid);
    expect(before).toBeGreaterThan(0);
    // Busy until the kernel has counted another clock tick of this process (10 ms), or 5 s have passed.
    let after = before;
    for (const end = Date.now() + 5_000; after === before && Date.now() < end; ) after = processCpuMs(process.pid);
    expect(after).toBeGreaterThan(before ?? Infinity);
    expect(processCpuMs(2 ** 22 + 1)).toBeNull();
  });
});
