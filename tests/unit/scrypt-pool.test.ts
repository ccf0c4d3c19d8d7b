// The password hashing threads (issue 32): a bounded few hashes at once, a bounded queue, and a 503 at once beyond it.
import { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.ts';
import { BUSY_MESSAGE, ScryptPool } from '../../src/server/auth/scrypt-pool.ts';

// Dear enough that three are still running or waiting when the fourth arrives.
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 2 ** 26 };
const pools: ScryptPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

it('derives the key node:crypto does, off the main thread', async () => {
  const pool = new ScryptPool(1, 2);
  pools.push(pool);
  const salt = randomBytes(16);
  const key = await pool.derive('tamarind-rice-42', salt, 32, COST);
  expect(key.equals(scryptSync('tamarind-rice-42', salt, 32, COST))).toBe(true);
});

it('refuses at once with a 503 (busy, Retry-After) past its queue, and takes hashes again once it drains', async () => {
  const pool = new ScryptPool(1, 2);
  pools.push(pool);
  const salt = randomBytes(16);
  expect(() => pool.refuseWhenFull()).not.toThrow();
  // One running, two waiting: all three are answered.
  const accepted = [1, 2, 3].map((n) => pool.derive(`password-${n}`, salt, 32, COST));
  // Asked before a caller's own work (a sign-in's account lookup): the same refusal a hash would meet now.
  expect(() => pool.refuseWhenFull()).toThrow(BUSY_MESSAGE);
  const started = performance.now();
  const refused = await pool.derive('password-4', salt, 32, COST).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(performance.now() - started).toBeLessThan(50);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ status: 503, code: 'busy', message: BUSY_MESSAGE });
  expect((refused as ApiError).retryAfterSeconds).toBeGreaterThan(0);

  expect(await Promise.all(accepted)).toHaveLength(3);
  expect(await pool.derive('password-5', salt, 32, COST)).toHaveLength(32);
});

it('reports scrypt’s own error (a stored hash with impossible parameters) as a failure of that hash alone', async () => {
  const pool = new ScryptPool(1, 2);
  pools.push(pool);
  await expect(pool.derive('x', randomBytes(16), 32, { N: 3, r: 8, p: 1 })).rejects.toThrow(/N|cost|parameter/i);
  expect(await pool.derive('x', randomBytes(16), 32, COST)).toHaveLength(32);
});

it('closes its threads: what waits is refused, and a later hash starts a thread again', async () => {
  const pool = new ScryptPool(1, 2);
  pools.push(pool);
  const salt = randomBytes(16);
  const inFlight = [1, 2].map((n) => pool.derive(`password-${n}`, salt, 32, COST).then(() => 'hashed', () => 'refused'));
  await pool.close();
  expect(await Promise.all(inFlight)).toEqual(['refused', 'refused']);
  expect(await pool.derive('again', salt, 32, COST)).toHaveLength(32);
});
