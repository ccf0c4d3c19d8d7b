// Pure statistics for `npm run bench`.

/** The median of the finite numbers in `values` (mean of the middle two for an even count), or null when there are none. */
export function median(values: ReadonlyArray<number | null | undefined>): number | null {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return null;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/** Per-metric median over runs: each key is the median of that key across the runs (null when no run has it). */
export function medianOfRuns<K extends string>(
  runs: ReadonlyArray<Partial<Record<K, number | null>>>,
  keys: ReadonlyArray<K>,
): Record<K, number | null> {
  const out = {} as Record<K, number | null>;
  for (const key of keys) out[key] = median(runs.map((run) => run[key]));
  return out;
}

/** a / b, or null when either is missing or b is not positive. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return null;
  return a / b;
}

/**
 * The file whose size is closest to `target` on a log scale (so 2x bigger and 2x smaller are equally far),
 * or null for an empty list. Ties keep the first candidate.
 */
export function closestBySize<T extends { size: number }>(candidates: ReadonlyArray<T>, target: number): T | null {
  let best: T | null = null;
  let bestDistance = Infinity;
  const t = Math.max(target, 1);
  for (const candidate of candidates) {
    const distance = Math.abs(Math.log(Math.max(candidate.size, 1) / t));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
