// Two processes' invalidation buses on one PostgreSQL database (src/server/cache/invalidation-bus.ts): what one
// publishes reaches the other's caches within a second, and a bus whose connection the server ends listens again and
// makes its caches forget everything, since what was sent meanwhile is lost to it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBus, type PostgresBus, type StaleTags } from '../../src/server/cache/invalidation-bus.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import { createServerDatabase } from '../api/harness.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');

/** What one bus's subscriber heard, and when; `next` waits for the first message matching, from `after` on. */
class Heard {
  readonly messages: { tags: StaleTags; at: number }[] = [];
  readonly #waiters: (() => void)[] = [];

  readonly listener = (tags: StaleTags) => {
    this.messages.push({ tags, at: performance.now() });
    for (const wake of this.#waiters.splice(0)) wake();
  };

  async next(match: (tags: StaleTags) => boolean, after = 0): Promise<{ tags: StaleTags; at: number }> {
    for (;;) {
      const found = this.messages.slice(after).find((m) => match(m.tags));
      if (found) return found;
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
  }
}

/** A log whose lines can be awaited. */
class Log {
  readonly lines: string[] = [];
  readonly #waiters: (() => void)[] = [];
  readonly write = (line: string) => {
    this.lines.push(line);
    for (const wake of this.#waiters.splice(0)) wake();
  };

  async next(pattern: RegExp, after: number): Promise<void> {
    while (!this.lines.slice(after).some((line) => pattern.test(line))) await new Promise<void>((wake) => this.#waiters.push(wake));
  }
}

const same = (expected: StaleTags) => (tags: StaleTags) => JSON.stringify(tags) === JSON.stringify(expected);

let database: Awaited<ReturnType<typeof createServerDatabase>>;
let admin: pg.Client;
let a: PostgresBus;
let b: PostgresBus;
const logA = new Log();
const logB = new Log();
const heardA = new Heard();
const heardB = new Heard();

/** Ends bus `bus`'s listening connection from the server's side, as a restart or a network cut would. */
async function terminate(bus: PostgresBus) {
  const { rows } = await admin.query<{ ended: boolean }>(
    'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1',
    [`kirana-stale-bus ${bus.id}`],
  );
  expect(rows).toEqual([{ ended: true }]);
}

beforeAll(async () => {
  database = await createServerDatabase(serverUrl);
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  a = postgresBus(database.url, logA.write);
  b = postgresBus(database.url, logB.write);
  await Promise.all([a.listening(), b.listening()]);
  a.subscribe(heardA.listener);
  b.subscribe(heardB.listener);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await admin?.end();
  await database?.drop();
});

// A bus that fails would leave a wait hanging: fail in seconds, not after the project's two minutes.
describe('postgresBus', { timeout: 15_000 }, () => {
  it("reaches the other process's subscribers within a second, and its own once, at once", async () => {
    const review = staleAfter.reviewAdded(5);
    const sent = performance.now();
    const publishing = a.publish(review);
    expect(heardA.messages.map((m) => m.tags), 'delivered before publish returned').toEqual([review]);
    await publishing;
    const received = await heardB.next(same(review));
    expect(received.at - sent).toBeLessThan(1000);

    // Notifications arrive in the order they were sent: once A hears B's, its own has come back, and was ignored.
    const shelf = staleAfter.shelfChanged([5, 6]);
    await b.publish(shelf);
    await heardA.next(same(shelf));
    expect(heardA.messages.map((m) => m.tags)).toEqual([review, shelf]);
    expect(heardB.messages.map((m) => m.tags)).toEqual([review, shelf]);
  });

  it('a long list of tags goes as "forget everything"', async () => {
    const from = heardB.messages.length;
    const many = staleAfter.shelfChanged(Array.from({ length: 2_000 }, (_, i) => i + 1));
    await a.publish(many);
    expect((await heardB.next(() => true, from)).tags).toBe('all');
    expect(heardA.messages.at(-1)?.tags, 'its own subscribers hear the tags themselves').toBe(many);
  });

  it('listens again after the server ends its connection, and its caches forget everything', async () => {
    const from = heardB.messages.length;
    await terminate(b);
    await heardB.next((tags) => tags === 'all', from);
    expect(logB.lines.some((line) => /lost its connection/.test(line))).toBe(true);

    const imported = staleAfter.catalogueImported();
    const again = heardB.messages.length;
    const sent = performance.now();
    await a.publish(imported);
    const received = await heardB.next(same(imported), again);
    expect(received.at - sent).toBeLessThan(1000);
  });

  it('a publish while its connection is down answers, and the others forget everything once it is back', async () => {
    const fromA = heardA.messages.length;
    const fromB = heardB.messages.length;
    const logged = logB.lines.length;
    await terminate(b);
    await logB.next(/lost its connection/, logged);

    const review = staleAfter.reviewAdded(7);
    await expect(b.publish(review)).resolves.toBeUndefined();
    expect(heardB.messages.slice(fromB).map((m) => m.tags)).toEqual([review]);
    expect(logB.lines.slice(logged).some((line) => /could not tell the other processes/.test(line))).toBe(true);

    await heardB.next((tags) => tags === 'all', fromB);
    expect((await heardA.next(() => true, fromA)).tags).toBe('all');
  });
});
