// Transactions that PostgreSQL may abort under contention: a deadlock it broke (40P01) or, above READ COMMITTED, a
// serialization failure (40001). Either leaves the database as it was, so the whole transaction can simply run again.
// Orders and cancellations take their rows in one order (the slot, then products by id), which keeps deadlocks out of
// reach between them; the retry covers what remains (another writer's rows, a trigger's order) rather than a 500.

/** SQLSTATEs after which running the transaction again is safe and likely to succeed. */
const RETRYABLE = new Set(['40001', '40P01']);

/** Whether the error, or one it wraps (drizzle puts the driver's error in `.cause`), is a deadlock or serialization failure. */
export function isRetryableConflict(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts?: number;
  /** The first wait's upper bound; each later one doubles it. Each wait is a random time between half its bound and it. */
  baseDelayMs?: number;
  /** Waits `ms` (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `transaction` (a whole `db.transaction(…)`, so each try starts afresh) and runs it again after a short,
 * jittered wait when PostgreSQL aborted it as a deadlock victim or a serialization failure; anything else, or the
 * last try's failure, is thrown as it is. The random waits keep the transactions that collided from colliding again.
 */
export async function withTransactionRetry<T>(
  transaction: () => Promise<T>,
  { attempts = 5, baseDelayMs = 15, sleep = wait }: RetryOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      const bound = baseDelayMs * 2 ** (attempt - 1);
      await sleep(bound / 2 + (Math.random() * bound) / 2);
    }
  }
}
