// Pure formatting for the bench report: numbers, Markdown tables, file names, command-line options.
import { KB, describeBudget, mark, verdict, type Budget } from './budgets.ts';

export const DASH = '—';

export function formatKB(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return DASH;
  return `${(bytes / KB).toFixed(1)} KB`;
}

export function formatMs(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return DASH;
  return ms >= 100 ? `${Math.round(ms)} ms` : `${Number(ms.toFixed(1))} ms`;
}

export function formatScore(score: number | null | undefined): string {
  if (typeof score !== 'number' || !Number.isFinite(score)) return DASH;
  return String(Math.round(score));
}

export function formatCls(cls: number | null | undefined): string {
  if (typeof cls !== 'number' || !Number.isFinite(cls)) return DASH;
  return cls === 0 ? '0' : cls.toFixed(3);
}

export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return DASH;
  return n.toFixed(digits);
}

/**
 * A figure with its verdict and budget: "97 ❌ (≥ 100)". Without a figure: "—". Without a budget: the figure alone.
 * `formatLimit` renders the budget's limit (defaults to `formatValue`).
 */
export function cell(
  value: number | null | undefined,
  formatValue: (n: number | null | undefined) => string,
  budget?: Budget | null,
  formatLimit?: (n: number) => string,
): string {
  const text = formatValue(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return text;
  if (!budget) return text;
  return `${text} ${mark(verdict(value, budget))} (${describeBudget(budget, formatLimit ?? ((n) => formatValue(n)))})`;
}

function escapeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A GitHub-flavoured Markdown table; `align` per column ('l' default, 'r' for numbers). */
export function markdownTable(headers: string[], rows: string[][], align: Array<'l' | 'r'> = []): string {
  const width = headers.length;
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`;
  const separator = `|${headers.map((_, i) => (align[i] === 'r' ? ' ---: ' : ' --- ')).join('|')}|`;
  return [line(headers), separator, ...rows.map(line)].join('\n');
}

/** `bench-2025-01-02T03-04-05Z.md`: the ISO date with ':' and milliseconds removed, safe on every file system. */
export function reportFileName(date: Date): string {
  return `bench-${date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')}.md`;
}

export type BenchOptions = {
  quick: boolean;
  help: boolean;
  lighthouseRuns: number;
  loadSeconds: number;
  warmupSeconds: number;
  connections: number;
  port: number;
  /** --cache-miss: only the cache-miss section (its own server, page cache off). */
  cacheMissOnly: boolean;
  /** --slow-phone: only the slow-phone section (issue 26: the first taps on a throttled phone). */
  slowPhoneOnly: boolean;
  /** Seconds per cache-miss load test (BENCH_MISS_SECONDS, default 8). */
  missSeconds: number;
  /** BENCH_PRODUCTS: seed this many products for the cache-miss section (default: the shop's own 400). */
  products: number | undefined;
  /** BENCH_DATA_FROM: a data folder to copy for the cache-miss section (a big seed made once), instead of seeding. */
  dataFrom: string | undefined;
};

/** Options from the command line and BENCH_PORT / BENCH_SECONDS / BENCH_RUNS. Throws on anything unknown. */
export function parseOptions(argv: string[], env: Record<string, string | undefined>): BenchOptions {
  let quick = false;
  let help = false;
  let cacheMissOnly = false;
  let slowPhoneOnly = false;
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else if (arg === '--cache-miss') cacheMissOnly = true;
    else if (arg === '--slow-phone') slowPhoneOnly = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else throw new Error(`unknown option ${arg} (try --help)`);
  }
  const positiveInt = (name: string, fallback: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}, not ${raw}`);
    return n;
  };
  return {
    quick,
    help,
    lighthouseRuns: positiveInt('BENCH_RUNS', quick ? 1 : 3, 9),
    loadSeconds: positiveInt('BENCH_SECONDS', quick ? 5 : 10, 120),
    warmupSeconds: 2,
    connections: 32,
    port: positiveInt('BENCH_PORT', 4455, 65535),
    cacheMissOnly,
    slowPhoneOnly,
    missSeconds: positiveInt('BENCH_MISS_SECONDS', quick ? 5 : 8, 120),
    products: env.BENCH_PRODUCTS ? positiveInt('BENCH_PRODUCTS', 400, 500_000) : undefined,
    dataFrom: env.BENCH_DATA_FROM || undefined,
  };
}
