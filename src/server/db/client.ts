// One PostgreSQL-dialect database, embedded (PGlite) or a real server (pg), with the same schema.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

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

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const migrationsConfig = { migrationsFolder: migrationsFolder() };
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    const db = drizzle({ client: pool, schema });
    await migrate(db, migrationsConfig);
    return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (target.dataDir) fs.mkdirSync(target.dataDir, { recursive: true });
  const client = await PGlite.create(target.dataDir, { extensions: { pg_trgm } });
  const db = drizzle({ client, schema });
  await migrate(db, migrationsConfig);
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}
