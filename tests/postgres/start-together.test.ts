// Several shop processes (storefront, standalone API, a second instance) may start together on one empty
// PostgreSQL database. Exactly one must migrate and seed it; the others wait and find it ready.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { migrationsFolder, type DatabaseHandle } from '../../src/server/db/client.ts';
import { createServerDatabase } from '../api/harness.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('shops starting together on one empty PostgreSQL database', () => {
  it('migrate and seed it once, and all of them open', async () => {
    const { url, drop } = await createServerDatabase(serverUrl);
    cleanups.push(drop);
    const settings = { ...readServerSettings({}), dataDir: '', databaseUrl: url, jwtSecret: 'a test secret of the PostgreSQL suite' };
    const messages: string[] = [];
    const opened = await Promise.allSettled(
      [1, 2, 3].map(() => openShopDatabase(settings, (m) => messages.push(m))),
    );
    const handles = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    cleanups.push(async () => {
      await Promise.all(handles.map((h: DatabaseHandle) => h.close()));
    });
    expect(opened.map((r) => (r.status === 'rejected' ? String(r.reason) : 'opened'))).toEqual(['opened', 'opened', 'opened']);
    expect(messages.filter((m) => m.startsWith('new database: seeding'))).toHaveLength(1);

    const count = async (table: string) => {
      const result = await handles[0]!.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
      return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
    };
    expect(await count('products')).toBe(400);
    expect(await count('brands')).toBe(48);
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(await count('drizzle.__drizzle_migrations')).toBe(journal.entries.length);
  });
});
