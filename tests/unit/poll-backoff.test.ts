// The live status's polling schedule (src/lib/poll-backoff.ts): 5 s, growing to a minute while nothing changes, and
// back to 5 s after a change.
import { expect, it } from 'vitest';
import { isSettledStatus, nextPollDelay, POLL_FIRST_MS, POLL_LONGEST_MS } from '../../src/lib/poll-backoff.ts';

it('doubles the wait after each answer that changed nothing, up to a minute', () => {
  const waits = [POLL_FIRST_MS];
  for (let i = 0; i < 6; i++) waits.push(nextPollDelay(waits.at(-1)!, false));
  expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
  expect(POLL_LONGEST_MS).toBe(60_000);
});

it('goes back to 5 s after a change, however long it waited', () => {
  expect(nextPollDelay(60_000, true)).toBe(5_000);
  expect(nextPollDelay(10_000, true)).toBe(5_000);
  expect(nextPollDelay(5_000, true)).toBe(5_000);
});

it('never waits less than 5 s, even from a shorter start', () => {
  expect(nextPollDelay(0, false)).toBe(5_000);
  expect(nextPollDelay(1_000, false)).toBe(5_000);
});

it('stops for a delivered or cancelled order, and not before', () => {
  expect(['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'].filter((s) => isSettledStatus(s as never))).toEqual(['delivered', 'cancelled']);
});
