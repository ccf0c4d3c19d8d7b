// The budgets of ../shared/DESIGN.md ("Budgets"), and pass/fail verdicts against them.

export type Verdict = 'pass' | 'fail' | 'n/a';

export type Budget = {
  /** 'min': the figure must be >= limit; 'max': <= limit. */
  kind: 'min' | 'max';
  limit: number;
};

/** 1 KB = 1000 bytes throughout the bench. */
export const KB = 1000;

export const BUDGETS = {
  performance: { kind: 'min', limit: 100 },
  accessibility: { kind: 'min', limit: 100 },
  seo: { kind: 'min', limit: 100 },
  bestPractices: { kind: 'min', limit: 95 },
  tbtMs: { kind: 'max', limit: 50 },
  cls: { kind: 'max', limit: 0.01 },
  /** JavaScript (gzip) loaded before the first interaction, on the home and product pages. */
  jsGzipBytes: { kind: 'max', limit: 20 * KB },
  /** product-detail requests/s ÷ prerendered page requests/s. */
  ssrRatio: { kind: 'min', limit: 0.5 },
  /** product-detail p99 latency at 32 connections. */
  ssrP99Ms: { kind: 'max', limit: 100 },
} as const satisfies Record<string, Budget>;

export type BudgetName = keyof typeof BUDGETS;

/** 'n/a' when there is no figure or no budget; otherwise whether the figure is within the budget (the limit itself passes). */
export function verdict(value: number | null | undefined, budget: Budget | null | undefined): Verdict {
  if (!budget || typeof value !== 'number' || !Number.isFinite(value)) return 'n/a';
  return budget.kind === 'min' ? (value >= budget.limit ? 'pass' : 'fail') : value <= budget.limit ? 'pass' : 'fail';
}

export function mark(v: Verdict): string {
  return v === 'pass' ? '✅' : v === 'fail' ? '❌' : '';
}

/** "≥ 100", "≤ 50 ms", "≤ 20 KB" … `format` renders the limit in the figure's unit. */
export function describeBudget(budget: Budget, format: (n: number) => string = String): string {
  return `${budget.kind === 'min' ? '≥' : '≤'} ${format(budget.limit)}`;
}
