import { describe, expect, it } from 'vitest';
import { BUDGETS, describeBudget, mark, verdict } from '../../scripts/bench/budgets.ts';

describe('budgets from DESIGN.md', () => {
  it('holds the documented limits', () => {
    expect(BUDGETS.performance).toEqual({ kind: 'min', limit: 100 });
    expect(BUDGETS.accessibility).toEqual({ kind: 'min', limit: 100 });
    expect(BUDGETS.seo).toEqual({ kind: 'min', limit: 100 });
    expect(BUDGETS.bestPractices).toEqual({ kind: 'min', limit: 95 });
    expect(BUDGETS.tbtMs).toEqual({ kind: 'max', limit: 50 });
    expect(BUDGETS.cls).toEqual({ kind: 'max', limit: 0.01 });
    expect(BUDGETS.jsGzipBytes).toEqual({ kind: 'max', limit: 20_000 });
    expect(BUDGETS.ssrRatio).toEqual({ kind: 'min', limit: 0.5 });
    expect(BUDGETS.ssrP99Ms).toEqual({ kind: 'max', limit: 100 });
  });
});

describe('verdict', () => {
  it('passes a minimum at or above the limit', () => {
    expect(verdict(100, BUDGETS.performance)).toBe('pass');
    expect(verdict(99, BUDGETS.performance)).toBe('fail');
    expect(verdict(95, BUDGETS.bestPractices)).toBe('pass');
    expect(verdict(0.5, BUDGETS.ssrRatio)).toBe('pass');
    expect(verdict(0.49, BUDGETS.ssrRatio)).toBe('fail');
  });
  it('passes a maximum at or below the limit', () => {
    expect(verdict(50, BUDGETS.tbtMs)).toBe('pass');
    expect(verdict(50.1, BUDGETS.tbtMs)).toBe('fail');
    expect(verdict(0, BUDGETS.cls)).toBe('pass');
    expect(verdict(0.011, BUDGETS.cls)).toBe('fail');
    expect(verdict(20_000, BUDGETS.jsGzipBytes)).toBe('pass');
    expect(verdict(20_001, BUDGETS.jsGzipBytes)).toBe('fail');
  });
  it('has no verdict without a figure or a budget', () => {
    expect(verdict(null, BUDGETS.performance)).toBe('n/a');
    expect(verdict(undefined, BUDGETS.tbtMs)).toBe('n/a');
    expect(verdict(Number.NaN, BUDGETS.tbtMs)).toBe('n/a');
    expect(verdict(42, null)).toBe('n/a');
  });
});

describe('mark and describeBudget', () => {
  it('marks verdicts', () => {
    expect(mark('pass')).toBe('✅');
    expect(mark('fail')).toBe('❌');
    expect(mark('n/a')).toBe('');
  });
  it('describes a budget in the figure’s unit', () => {
    expect(describeBudget(BUDGETS.performance)).toBe('≥ 100');
    expect(describeBudget(BUDGETS.tbtMs, (n) => `${n} ms`)).toBe('≤ 50 ms');
  });
});
