// HTTP load with autocannon against the local server (127.0.0.1 only).
import autocannon from 'autocannon';
import type { LoadResult } from './types.ts';

export type Target = Pick<LoadResult, 'label' | 'path' | 'url' | 'kind' | 'status' | 'bodyBytes'>;

/** A load result with no measurements yet (or none at all, when `skipped` says why). */
export function emptyLoadResult(target: Target, connections: number, seconds: number, skipped?: string): LoadResult {
  return {
    ...target,
    connections,
    seconds,
    requestsPerSec: null,
    p50Ms: null,
    p99Ms: null,
    non2xx: null,
    errors: null,
    timeouts: null,
    totalRequests: null,
    ...(skipped ? { skipped } : {}),
  };
}

export function assertLocal(url: string): void {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`load tests only target 127.0.0.1, not ${url}`);
}

/** What a load result records of an autocannon run. */
export function measured(r: autocannon.Result) {
  return {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    totalRequests: r.requests.total,
  };
}

async function fire(url: string, connections: number, seconds: number): Promise<autocannon.Result> {
  assertLocal(url);
  return autocannon({ url, connections, duration: seconds, timeout: 10 });
}

/** A warm-up of `warmupSeconds`, then the measured run. */
export async function loadTest(target: Target, connections: number, seconds: number, warmupSeconds: number): Promise<LoadResult> {
  const base = emptyLoadResult(target, connections, seconds);
  try {
    if (warmupSeconds > 0) await fire(target.url, connections, warmupSeconds);
    const r = await fire(target.url, connections, seconds);
    return { ...base, ...measured(r) };
  } catch (error) {
    return { ...base, error: error instanceof Error ? error.message : String(error) };
  }
}
