// Limits on anonymous writes (reviews, contact messages) and on sign-in calls, per address or per account.
import type { Context } from 'hono';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { CLIENT_IP_HEADER } from '../lib/api/headers.ts';
import { logServerError } from '../lib/error-log.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import { rateLimits } from './db/schema.ts';
import { ApiError } from './errors.ts';

export interface WriteLimit {
  /** Writes one address may make per window. */
  writes: number;
  windowSeconds: number;
}

/** The counts of one limiter: a point taken per call, one given back. */
interface Counter {
  consume(key: string): Promise<unknown>;
  reward(key: string): Promise<unknown>;
}

/**
 * Where limiters keep their counts. `name` keeps one limiter's keys apart from every other's (`login:address`).
 * In memory: one process (the embedded database). With DATABASE_URL: `sharedLimiterStore`, which every instance sees.
 */
export interface LimiterStore {
  counter(name: string, limit: WriteLimit): Counter;
}

/** Counts kept by this process alone: enough for one process on PGlite, and the tests' default. */
export const memoryLimiterStore: LimiterStore = {
  counter: (_name, limit) => new RateLimiterMemory({ points: limit.writes, duration: limit.windowSeconds }),
};

/**
 * Counts kept in PostgreSQL's `rate_limits` table (migration 0012), one row per limiter and key, so a limit holds
 * across every instance on that database instead of multiplying by their number (one atomic upsert per call).
 * If the table cannot be reached, the call is counted in this process instead and the error logged: the shop's
 * limits then hold per instance (as before this store) rather than vanish, and a hiccup of the limiter's query does
 * not refuse shoppers on its own; a database that is really down fails the route's own queries next anyway.
 */
export function sharedLimiterStore(db: Database, logError: (error: unknown) => void = (e) => logServerError('[rate-limit]', e)): LimiterStore {
  const names = new Set<string>();
  return {
    counter(name, limit) {
      // Two limiters under one name would add up each other's calls in the shared table.
      if (names.has(name)) throw new Error(`Two rate limiters are named '${name}'`);
      names.add(name);
      const options = { points: limit.writes, duration: limit.windowSeconds, keyPrefix: name };
      // One limiter of the store deletes the rows expired an hour ago (every 5 minutes); they all share the table.
      const shared = new RateLimiterDrizzle({ ...options, storeClient: db, schema: rateLimits, clearExpiredByTimeout: names.size === 1 });
      const local = new RateLimiterMemory(options);
      const orLocal = (shared: Promise<unknown>, local: () => Promise<unknown>) =>
        shared.catch((error: unknown) => {
          if (error instanceof RateLimiterRes) throw error;
          // Drizzle's error quotes the query's parameters (an address, an email): log the database's reason alone,
          // in words that stay the same, so the error log counts repeats instead of printing each one.
          const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
          logError(new Error(`the shared rate limits could not be read (table rate_limits); counting in this process`, { cause }));
          return local();
        });
      return {
        consume: (key) => orLocal(shared.consume(key), () => local.consume(key)),
        reward: (key) => orLocal(shared.reward(key, 1), () => local.reward(key, 1)),
      };
    },
  };
}

/** The store of a shop on this database: shared on a PostgreSQL server, this process's on the embedded one. */
export const limiterStoreFor = (handle: DatabaseHandle): LimiterStore =>
  handle.kind === 'postgres' ? sharedLimiterStore(handle.db) : memoryLimiterStore;

/** Where a limiter counts, and its name there (unique per store; `what` when left out). */
export interface LimiterPlace {
  store?: LimiterStore;
  name?: string;
}

/**
 * A limiter for one kind of write, per client address. Throws a 429 ApiError with Retry-After past the limit.
 */
export function writeLimiter(limit: WriteLimit, what: string, place: LimiterPlace = {}) {
  const byKey = keyedLimiter(limit, what, place);
  return (c: Context) => byKey(c, clientAddress(c));
}

export const clientAddress = (c: Context) => c.req.header(CLIENT_IP_HEADER) ?? 'unknown';

/**
 * Like writeLimiter, for any key (an account's email, a user id): `(c, key)` throws the 429 past the limit.
 * `refund(key)` gives a call's point back, for calls that should count only when they fail: taking first and
 * giving back on success leaves no gap for many calls at once to slip through.
 */
export function keyedLimiter(limit: WriteLimit, what: string, { store = memoryLimiterStore, name = what }: LimiterPlace = {}) {
  const limiter = store.counter(name, limit);
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
    await limiter.reward(key);
  };
  return Object.assign(consume, { refund });
}

/** A wait as a shopper reads it, never shorter than the real one: '45 seconds', '1 minute', '10 minutes'. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
