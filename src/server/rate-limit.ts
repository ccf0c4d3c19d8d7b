// Limits on anonymous writes (reviews, contact messages) and on sign-in calls, per address or per account.
import type { Context } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { CLIENT_IP_HEADER } from '../lib/api/headers.ts';
import { ApiError } from './errors.ts';

export interface WriteLimit {
  /** Writes one address may make per window. */
  writes: number;
  windowSeconds: number;
}

/**
 * A limiter for one kind of write. In memory: one process; several instances would share a store
 * (rate-limiter-flexible has a PostgreSQL one). Throws a 429 ApiError with Retry-After past the limit.
 */
export function writeLimiter(limit: WriteLimit, what: string) {
  const byKey = keyedLimiter(limit, what);
  return (c: Context) => byKey(c, clientAddress(c));
}

export const clientAddress = (c: Context) => c.req.header(CLIENT_IP_HEADER) ?? 'unknown';

/**
 * Like writeLimiter, for any key (an account's email, a user id): `(c, key)` throws the 429 past the limit.
 * `refund(key)` gives a call's point back, for calls that should count only when they fail: taking first and
 * giving back on success leaves no gap for many calls at once to slip through.
 */
export function keyedLimiter(limit: WriteLimit, what: string) {
  const limiter = new RateLimiterMemory({ points: limit.writes, duration: limit.windowSeconds });
  const consume = async (c: Context, key: string) => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      c.header('Retry-After', String(seconds));
      throw new ApiError(429, 'too_many_requests', `Too many ${what}. Please try again in ${waitText(seconds)}.`);
    }
  };
  const refund = async (key: string) => {
    await limiter.reward(key, 1);
  };
  return Object.assign(consume, { refund });
}

/** A wait as a shopper reads it, never shorter than the real one: '45 seconds', '1 minute', '10 minutes'. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
