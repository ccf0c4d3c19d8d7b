// Lighthouse (programmatic API, mobile defaults) in Debian's Chromium through chrome-launcher.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { onCleanup } from './cleanup.ts';
import { medianOfRuns } from './stats.ts';
import { LIGHTHOUSE_METRIC_KEYS, type FailedAudit, type LighthouseRun, type LighthouseSummary } from './types.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.ts';

export { CHROMIUM_PATH };
/** Lighthouse launches Chromium itself, headless. */
export const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const AUDITED_CATEGORIES = ['accessibility', 'best-practices', 'seo'];

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function score(lhr: Lhr, id: string): number | null {
  const s = lhr.categories[id]?.score;
  return typeof s === 'number' ? Math.round(s * 100) : null;
}

function numeric(lhr: Lhr, id: string): number | null {
  const v = lhr.audits[id]?.numericValue;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function failedAudits(lhr: Lhr): FailedAudit[] {
  const out: FailedAudit[] = [];
  for (const category of AUDITED_CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      if (!ref.weight) continue;
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      const entry: FailedAudit = { category, id: audit.id, title: audit.title, score: audit.score };
      if (audit.displayValue) entry.displayValue = audit.displayValue;
      out.push(entry);
    }
  }
  return out;
}

function mainThread(lhr: Lhr): Record<string, number> {
  const out: Record<string, number> = {};
  const details = lhr.audits['mainthread-work-breakdown']?.details as { items?: Array<{ group?: unknown; duration?: unknown }> } | undefined;
  for (const item of details?.items ?? []) {
    if (typeof item.group === 'string' && typeof item.duration === 'number') out[item.group] = Math.round(item.duration);
  }
  return out;
}

export const NO_METRICS = {
  performance: null,
  accessibility: null,
  bestPractices: null,
  seo: null,
  tbtMs: null,
  cls: null,
  lcpMs: null,
} as const satisfies Record<(typeof LIGHTHOUSE_METRIC_KEYS)[number], null>;

/** One Lighthouse run on a Chromium of its own (so no cache or storage carries over between runs). */
export async function lighthouseOnce(url: string): Promise<LighthouseRun> {
  const started = Date.now();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    handleSIGINT: false,
    logLevel: 'silent',
  });
  const unregister = onCleanup('stop Lighthouse Chromium', () => chrome.kill(), () => chrome.kill());
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    if (!result) throw new Error('Lighthouse returned no result');
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return {
      performance: score(lhr, 'performance'),
      accessibility: score(lhr, 'accessibility'),
      bestPractices: score(lhr, 'best-practices'),
      seo: score(lhr, 'seo'),
      tbtMs: numeric(lhr, 'total-blocking-time'),
      cls: numeric(lhr, 'cumulative-layout-shift'),
      lcpMs: numeric(lhr, 'largest-contentful-paint'),
      durationMs: Date.now() - started,
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
      runWarnings: (lhr.runWarnings ?? []).map(String),
      failedAudits: failedAudits(lhr),
      mainThreadMs: mainThread(lhr),
    };
  } finally {
    unregister();
    chrome.kill();
  }
}

/** `runs` Lighthouse runs of one page, one after another; the summary is the per-metric median of the runs that completed. */
export async function lighthousePage(url: string, runs: number, log: (m: string) => void): Promise<LighthouseSummary> {
  const results: LighthouseRun[] = [];
  for (let i = 0; i < runs; i++) {
    try {
      const run = await lighthouseOnce(url);
      results.push(run);
      log(
        `  run ${i + 1}/${runs}: perf ${run.performance} a11y ${run.accessibility} bp ${run.bestPractices} seo ${run.seo}` +
          ` TBT ${run.tbtMs?.toFixed(0)} ms CLS ${run.cls?.toFixed(3)} LCP ${run.lcpMs?.toFixed(0)} ms (${(run.durationMs / 1000).toFixed(1)} s)`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`  run ${i + 1}/${runs} failed: ${message}`);
      results.push({
        ...NO_METRICS,
        durationMs: 0,
        benchmarkIndex: null,
        runWarnings: [],
        failedAudits: [],
        mainThreadMs: {},
        error: message,
      });
    }
  }
  const completed = results.filter((r) => !r.error);
  const summary: LighthouseSummary = { runs: results, median: medianOfRuns(completed, LIGHTHOUSE_METRIC_KEYS) };
  if (completed.length === 0) summary.error = results[0]?.error ?? 'no run completed';
  return summary;
}
