import { describe, expect, it } from 'vitest';
import { closestBySize, median, medianOfRuns, ratio } from '../../scripts/bench/stats.ts';

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([100, 85, 94])).toBe(94);
  });
  it('averages the middle two of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('ignores missing and non-finite values', () => {
    expect(median([null, 5, undefined, Number.NaN, 7, Infinity])).toBe(6);
  });
  it('is null when there is nothing to take the median of', () => {
    expect(median([])).toBeNull();
    expect(median([null, undefined])).toBeNull();
  });
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('medianOfRuns', () => {
  it('takes the median of each metric separately', () => {
    const runs = [
      { performance: 90, tbtMs: 10 },
      { performance: 100, tbtMs: 80 },
      { performance: 95, tbtMs: 20 },
    ];
    expect(medianOfRuns(runs, ['performance', 'tbtMs'])).toEqual({ performance: 95, tbtMs: 20 });
  });
  it('gives null for a metric no run has', () => {
    expect(medianOfRuns([{ cls: null }, {}], ['cls'])).toEqual({ cls: null });
  });
});

describe('ratio', () => {
  it('divides', () => {
    expect(ratio(50, 200)).toBe(0.25);
  });
  it('is null without both figures or with a zero denominator', () => {
    expect(ratio(null, 10)).toBeNull();
    expect(ratio(10, undefined)).toBeNull();
    expect(ratio(10, 0)).toBeNull();
  });
});

describe('closestBySize', () => {
  const files = [
    { rel: 'favicon.svg', size: 244 },
    { rel: 'images/default.svg', size: 575 },
    { rel: '_astro/client.js', size: 220_749 },
  ];
  it('picks the closest size on a log scale', () => {
    // 30 KB: 220 KB is 7x away, 575 B is 52x away.
    expect(closestBySize(files, 30_000)?.rel).toBe('_astro/client.js');
    expect(closestBySize(files, 500)?.rel).toBe('images/default.svg');
  });
  it('is null for no candidates', () => {
    expect(closestBySize([], 1000)).toBeNull();
  });
});
