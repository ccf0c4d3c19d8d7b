// Limits on anonymous writes (reviews, contact messages) and on sign-in calls, per address or per account.
import { isIPv6 } from 'node:net';
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
  /** Points taken from `key` in its current window (0: none, or the window is over). */
  taken(key: string): Promise<number>;
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
  counter: (_name, limit) => {
    const limiter = new RateLimiterMemory({ points: limit.writes, duration: limit.windowSeconds });
    return {
      consume: (key) => limiter.consume(key),
      reward: (key) => limiter.reward(key, 1),
      taken: async (key) => (await limiter.get(key))?.consumedPoints ?? 0,
    };
  },
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
        taken: async (key) =>
          ((await orLocal(shared.get(key), () => local.get(key))) as RateLimiterRes | null)?.consumedPoints ?? 0,
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
  return (c: Context) => byKey(c, addressKey(c));
}

export const clientAddress = (c: Context) => c.req.header(CLIENT_IP_HEADER) ?? 'unknown';

/**
 * The network an address belongs to, as limits count it: an IPv6 /64 (what one subscriber is given, so a limit per
 * address alone is endless there) or an IPv4 /24 (a softer bucket: a carrier's shoppers share those). An IPv4 address
 * written as IPv6 (`::ffff:1.2.3.4`) is IPv4.
 */
export function networkOf(address: string): { kind: 'v4' | 'v6' | 'other'; key: string } {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return { kind: 'v4', key: `${v4[1]}.${v4[2]}.${v4[3]}.0/24` };
  if (isIPv6(address)) return { kind: 'v6', key: `${expandIPv6(address).slice(0, 4).join(':')}::/64` };
  return { kind: 'other', key: address };
}

function expandIPv6(address: string): string[] {
  const [head, tail = ''] = address.split('%')[0]!.toLowerCase().split('::');
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const [left, right] = address.includes('::') ? [part(head), part(tail)] : [part(head), []];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}

export const clientNetwork = (c: Context) => networkOf(clientAddress(c)).key;

/**
 * What a limit "per address" counts: the address itself, but for IPv6 its /64, since one subscriber holds a whole /64
 * and a limit per address would give them endless budgets.
 */
export function addressKey(c: Context): string {
  const address = clientAddress(c);
  const network = networkOf(address);
  return network.kind === 'v6' ? network.key : address;
}

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

/**
 * A limit on what is done to one target (an account, a mobile number, an email) that a third party cannot spend for
 * its owner. Each source (a network: `clientNetwork`) has its own budget per target; the target's own ceiling counts
 * every source's failures, and once reached it refuses only the sources that have failed on this target in the window.
 * An attacker spread over many networks gets the ceiling plus one failure per fresh network; the owner, from a network
 * that has not failed on their target, is never refused by someone else's failures.
 */
export function targetLimiter(
  limits: { perSource: WriteLimit; ceiling: WriteLimit },
  what: string,
  { store = memoryLimiterStore, name = what }: LimiterPlace = {},
) {
  const bySource = keyedLimiter(limits.perSource, what, { store, name: `${name}:source` });
  const failuresBySource = store.counter(`${name}:source-failures`, { writes: Number.MAX_SAFE_INTEGER, windowSeconds: limits.ceiling.windowSeconds });
  const failures = store.counter(`${name}:failures`, { writes: Number.MAX_SAFE_INTEGER, windowSeconds: limits.ceiling.windowSeconds });
  const pair = (source: string, target: string) => `${source} ${target}`;
  return {
    /** Takes a point of this source's budget for the target; a 429 past it, or past the ceiling for a source that failed. */
    async attempt(c: Context, source: string, target: string) {
      const [targetFailures, sourceFailures] = await Promise.all([failures.taken(target), failuresBySource.taken(pair(source, target))]);
      if (targetFailures >= limits.ceiling.writes && sourceFailures > 0) {
        c.header('Retry-After', String(limits.ceiling.windowSeconds));
        throw new ApiError(429, 'too_many_requests', `Too many ${what}. Please try again in ${waitText(limits.ceiling.windowSeconds)}.`);
      }
      await bySource(c, pair(source, target));
    },
    /** Counts a failed attempt against the target's ceiling. */
    async failed(source: string, target: string) {
      await Promise.all([failures.consume(target), failuresBySource.consume(pair(source, target))]);
    },
    /** Gives an attempt's point back (for calls that count only when they fail). */
    refund: (source: string, target: string) => bySource.refund(pair(source, target)),
  };
}

/** A wait as a shopper reads it, never shorter than the real one: '45 seconds', '1 minute', '10 minutes'. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
