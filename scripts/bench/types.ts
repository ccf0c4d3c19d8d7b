// The shape of bench-results/latest.json (and the input of the Markdown report).
import type { SlowPhoneResult } from './slow-phone.ts';

export type LighthouseMetrics = {
  /** Category scores, 0–100. */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  /** Total Blocking Time, ms. */
  tbtMs: number | null;
  /** Cumulative Layout Shift (unitless). */
  cls: number | null;
  /** Largest Contentful Paint, ms. */
  lcpMs: number | null;
};

export const LIGHTHOUSE_METRIC_KEYS = [
  'performance',
  'accessibility',
  'bestPractices',
  'seo',
  'tbtMs',
  'cls',
  'lcpMs',
] as const satisfies ReadonlyArray<keyof LighthouseMetrics>;

export type FailedAudit = { category: string; id: string; title: string; score: number | null; displayValue?: string };

export type LighthouseRun = LighthouseMetrics & {
  durationMs: number;
  benchmarkIndex: number | null;
  runWarnings: string[];
  /** Audits below a perfect score in the accessibility, best-practices and SEO categories. */
  failedAudits: FailedAudit[];
  /** Main-thread time by kind of work (Lighthouse's mainthread-work-breakdown groups), ms. */
  mainThreadMs: Record<string, number>;
  error?: string;
};

export type LighthouseSummary = {
  runs: LighthouseRun[];
  /** Median of each metric across the runs that completed (per-metric median). */
  median: LighthouseMetrics;
  error?: string;
};

export type ScriptEntry = {
  url: string;
  status: number;
  /** Bytes on the wire (body only, as encoded by the server). */
  encodedBytes: number;
  /** Decoded body bytes. */
  decodedBytes: number;
  /** gzip size of the decoded body, computed locally with zlib (level 6). */
  gzipBytes: number;
};

export type JsSnapshot = {
  files: number;
  encodedBytes: number;
  decodedBytes: number;
  gzipBytes: number;
  /** Inline <script> elements holding JavaScript (not JSON), counted separately from the files. */
  inlineScripts: number;
  inlineBytes: number;
  inlineGzipBytes: number;
  scripts: ScriptEntry[];
};

export type Viewport = { name: 'mobile' | 'desktop'; width: number; height: number };

export type JsMeasurement = {
  viewport: Viewport;
  before: JsSnapshot | null;
  /** After hovering and focusing the search input (cumulative, includes `before`). */
  after: JsSnapshot | null;
  interaction: string;
  error?: string;
};

export type PageResult = {
  label: string;
  path: string;
  url: string;
  status: number | null;
  bodyBytes: number | null;
  /** Whether the JavaScript budget applies (home and product pages). */
  jsBudgeted: boolean;
  note?: string;
  lighthouse: LighthouseSummary | null;
  js: JsMeasurement[];
};

export type LoadResult = {
  label: string;
  path: string;
  url: string;
  kind: 'product' | 'prerendered' | 'static-fallback';
  status: number | null;
  bodyBytes: number | null;
  connections: number;
  /** The API's in-process read cache was on (READ_CACHE_SECONDS); runs before it existed have no such field. */
  readCache?: boolean;
  seconds: number;
  requestsPerSec: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  non2xx: number | null;
  errors: number | null;
  timeouts: number | null;
  totalRequests: number | null;
  skipped?: string;
  error?: string;
};

export type ThroughputResult = {
  product: LoadResult;
  reference: LoadResult;
  /** product requests/s ÷ reference requests/s. */
  ratio: number | null;
  notes: string[];
};

export type BenchEnvironment = {
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  quick: boolean;
  lighthouseRuns: number;
  loadSeconds: number;
  warmupSeconds: number;
  connections: number;
  baseUrl: string;
  node: string;
  chromium: string | null;
  lighthouse: string | null;
  autocannon: string | null;
  cpus: string;
  cpuCount: number;
  /** os.loadavg() (1, 5, 15 min) when the bench started and when it finished: other work on the machine skews every figure. */
  loadAverage: { start: number[]; end: number[] };
  buildTime: string | null;
};

export type BenchResults = {
  environment: BenchEnvironment;
  productId: number | null;
  pages: PageResult[];
  throughput: ThroughputResult | null;
  /** Absent in results written before the cache-miss section existed. */
  cacheMiss?: CacheMissResult | null;
  /** The first taps on a throttled phone (issue 26). */
  slowPhone?: SlowPhoneResult | null;
  notes: string[];
  errors: string[];
  /** The server's last output lines, kept when it exited unexpectedly. */
  serverLog?: string;
};

/** One rotating load test of the cache-miss section: every request asks for another path. */
export type CacheMissLoad = {
  label: string;
  /** e.g. '/product-detail?id=N'. */
  pattern: string;
  /** How many different paths the requests rotate over. */
  rotatingOver: number;
  connections: number;
  /** The API's in-process read cache was on (READ_CACHE_SECONDS); runs before it existed have no such field. */
  readCache?: boolean;
  seconds: number;
  requestsPerSec: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  non2xx: number | null;
  errors: number | null;
  timeouts: number | null;
  totalRequests: number | null;
  /** The server process's CPU time (user + system) over the run, per request answered; null where unknown. */
  cpuMsPerRequest?: number | null;
  /** The goal for this request. */
  target: { minRequestsPerSec: number | null; maxP99Ms: number | null };
  error?: string;
};

/** The page cache off (PAGE_CACHE_SECONDS=0), one process, the embedded database. */
export type CacheMissResult = {
  measuredAt: string;
  products: number;
  loads: CacheMissLoad[];
  /** The same section of the previous run (bench-results/cache-miss.json), for before/after. */
  previous: { measuredAt: string; products: number; loads: CacheMissLoad[] } | null;
  notes: string[];
};
