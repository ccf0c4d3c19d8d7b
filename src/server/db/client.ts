// One PostgreSQL-dialect database, embedded (PGlite) or a real server (pg), with the same schema.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { DataFolderError, inspectDataFolder, keepOpeningCopy, lockDataFolder, restrictModes } from './data-folder.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  // dataDir undefined keeps the database in memory (tests).
  | { kind: 'pglite'; dataDir?: string };

/** Finds the SQL migrations both from the sources and from the built server bundle. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'src/server/db/migrations');
    if (fs.existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
    if (fs.existsSync(path.join(dir, 'meta/_journal.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find src/server/db/migrations');
    dir = parent;
  }
}

/**
 * Word similarity at or above which `<%` lets a name match a search word (src/server/services/search.ts). pg_trgm's
 * default, 0.6, misses 'basmti' ~ 'basmati' (0.5); below 0.45 short words match too much. A session setting, so every
 * connection gets it.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.45;

/**
 * Session settings of every connection: the search's similarity threshold, and the price of a random page read for a
 * database that lives in memory (PGlite) or on SSD (1.1, not 4 as for a spinning disk), without which the planner
 * reads all 50,000 product names (90 ms) rather than use their trigram index (a few ms).
 */
const SESSION_SETTINGS = { 'pg_trgm.word_similarity_threshold': WORD_SIMILARITY_THRESHOLD, random_page_cost: 1.1 };

/** Key of the session-level advisory lock held while a PostgreSQL database is migrated and set up ("kirana"). */
const SETUP_LOCK_KEY = 0x6b6972616e61;

/**
 * Opens the target and applies the migrations, then runs `setUp` (e.g. seeding an empty catalogue), then vacuums an
 * embedded database unless told not to (a process that only prepares the folder for the server opening it next).
 * On PostgreSQL several processes may do this at once, so migrations and set-up run on one connection that
 * holds an advisory lock: the first process does the work, the others wait and then find nothing to do.
 */
export async function openDatabase(
  target: DatabaseTarget,
  setUp: (db: Database) => Promise<void> = async () => {},
  { vacuum = true }: { vacuum?: boolean } = {},
): Promise<DatabaseHandle> {
  const migrationsConfig = { migrationsFolder: migrationsFolder() };
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      // A server that is down fails a query within 2 s (a page then answers its 503 page in time), not after the
      // operating system's minutes-long TCP timeout. No timeout on queries themselves: a grocer's import may be long.
      connectionTimeoutMillis: 2_000,
      // A connection whose server vanished without a word (a network cut) is found out, not waited on.
      keepAlive: true,
      options: Object.entries(SESSION_SETTINGS)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    });
    // An idle connection the server closes (a restart, a dropped database) must not crash the shop: the pool
    // discards it and opens a new one for the next query.
    pool.on('error', (error) => console.error(`[kirana] an idle database connection was closed: ${error.message}`));
    // The pool listens only while a connection is idle in it: one checked out (a transaction between its queries) that
    // the server ends (57P01 on a fast shutdown) emitted 'error' with nobody listening, and the shop died (found by
    // `npm run load`, docs/reliability.md). Whatever used it fails with its own error and answers for it (503);
    // pg-pool drops the connection when it comes back broken.
    pool.on('connect', (client) => client.on('error', () => {}));
    try {
      const connection = await pool.connect();
      try {
        await connection.query('select pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
        const lockedDb = drizzle({ client: connection, schema });
        await migrate(lockedDb, migrationsConfig);
        await setUp(lockedDb as unknown as Database);
      } finally {
        // Unlocking is implicit when the session ends; a failed unlock must not hide the real error.
        await connection.query('select pg_advisory_unlock($1)', [SETUP_LOCK_KEY]).catch(() => {});
        connection.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    const db = drizzle({ client: pool, schema });
    return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dataDir = target.dataDir;
  let unlock = async () => {};
  if (dataDir) unlock = await lockDataFolder(dataDir);
  let client: InstanceType<typeof PGlite>;
  // An existing database that fails to open or migrate is put back as it was, modes included (restrictModes runs
  // only once it is open and migrated).
  let opening: Awaited<ReturnType<typeof keepOpeningCopy>> | undefined;
  try {
    if (dataDir) {
      const state = inspectDataFolder(dataDir);
      // Files the shop writes from now on are its own alone (PGlite sets some modes itself: fixed once open).
      process.umask(0o077);
      if (state === 'existing') opening = await keepOpeningCopy(dataDir);
      client = await PGlite.create(dataDir, { extensions: { pg_trgm } }).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new DataFolderError(
          state === 'new'
            ? `a new database could not be created in ${dataDir}: ${reason}`
            : `the database in ${dataDir} could not be opened (${reason}); it may be damaged. ` +
                'It was not migrated or seeded. Restore it from a backup, or set DATA_DIR to an empty or new folder.',
        );
      });
    } else {
      client = await PGlite.create(undefined, { extensions: { pg_trgm } });
    }
  } catch (error) {
    try {
      opening?.restore();
    } finally {
      await unlock();
    }
    throw error;
  }
  // A PGlite directory belongs to one process (the lock above), so there is nobody to wait for.
  const db = drizzle({ client, schema });
  const close = async (restore?: () => void) => {
    try {
      await client.close();
    } finally {
      try {
        restore?.();
      } finally {
        await unlock();
      }
    }
  };
  try {
    await migrate(db, migrationsConfig).catch((error: unknown) => {
      if (!dataDir) throw error;
      // Drizzle's message is the query (several lines); PostgreSQL's reason is its cause.
      const reason = ((error as Error)?.cause as Error | undefined)?.message ?? (error instanceof Error ? error.message : String(error));
      throw new DataFolderError(
        `the database in ${dataDir} could not be migrated (${reason.split('\n')[0]}); it may be damaged. It was put back ` +
          'as it was. Restore it from a backup, or set DATA_DIR to an empty or new folder.',
      );
    });
    for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.exec(`set ${name} = ${value}`);
    await setUp(db as unknown as Database);
    // PGlite runs PostgreSQL as a single user, where autovacuum never runs: without this the rows an update
    // leaves behind are never reclaimed, and the planner never learns the tables' sizes or which pages are all
    // visible (so a count reads the table, not its index). At 50,000 products it takes about half a second and
    // makes a first product page about 10 % and a first suggestion about 30 % cheaper (bench, read cache off).
    // Upkeep, not a condition of opening: a vacuum that fails (a full disk) is reported and the shop goes on.
    if (vacuum) {
      await client.exec('vacuum').catch((error: unknown) => {
        console.error(`[kirana] vacuuming the database failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    if (dataDir) restrictModes(dataDir);
    opening?.discard();
  } catch (error) {
    await close(opening?.restore);
    throw error;
  }
  return { db: db as unknown as Database, kind: 'pglite', close: () => close() };
}
