// withTransactionRetry (issue 22): a deadlock or serialization failure, however deeply wrapped, runs the transaction
// again after a short jittered wait; anything else is thrown at once.
import { describe, expect, it } from 'vitest';
import { isRetryableConflict, withTransactionRetry } from '../../src/server/db/retry.ts';

/** An error as drizzle throws it: its own, with the driver's (which has the SQLSTATE) in `cause`. */
const wrapped = (code: string) => new Error('Failed query: update …', { cause: Object.assign(new Error('deadlock detected'), { code }) });

describe('isRetryableConflict', () => {
  it('finds 40P01 and 40001 through cause chains, and nothing else', () => {
    expect(isRetryableConflict(wrapped('40P01'))).toBe(true);
    expect(isRetryableConflict(new Error('outer', { cause: wrapped('40001') }))).toBe(true);
    expect(isRetryableConflict(Object.assign(new Error('x'), { code: '40001' }))).toBe(true);
    expect(isRetryableConflict(wrapped('23505'))).toBe(false);
    expect(isRetryableConflict(new Error('plain'))).toBe(false);
    expect(isRetryableConflict(undefined)).toBe(false);
  });
});

describe('withTransactionRetry', () => {
  it('runs again after a deadlock, waiting a little longer each time, and answers the try that worked', async () => {
    const waits: number[] = [];
    let tries = 0;
    const answer = await withTransactionRetry(
      async () => {
        tries += 1;
        if (tries < 3) throw wrapped(tries === 1 ? '40P01' : '40001');
        return 'placed';
      },
      { baseDelayMs: 20, sleep: async (ms) => void waits.push(ms) },
    );
    expect(answer).toBe('placed');
    expect(tries).toBe(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(10);
    expect(waits[0]).toBeLessThanOrEqual(20);
    expect(waits[1]).toBeGreaterThanOrEqual(20);
    expect(waits[1]).toBeLessThanOrEqual(40);
  });

  it('gives up after its tries with the last error', async () => {
    let tries = 0;
    const failing = withTransactionRetry(
      async () => {
        tries += 1;
        throw wrapped('40P01');
      },
      { attempts: 4, sleep: async () => {} },
    );
    await expect(failing).rejects.toThrow('Failed query');
    expect(tries).toBe(4);
  });

  it('throws any other error at once (a 409 is an answer, not a collision)', async () => {
    let tries = 0;
    const failing = withTransactionRetry(
      async () => {
        tries += 1;
        throw wrapped('23505');
      },
      { sleep: async () => {} },
    );
    await expect(failing).rejects.toThrow('Failed query');
    expect(tries).toBe(1);
  });
});
