// Each API test file gets its own freshly migrated and seeded database and a real HTTP server on a free port.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pg from 'pg';
import { createApp } from '../../src/server/app.ts';
import type { WriteLimit } from '../../src/server/rate-limit.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/server/db/client.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';

export interface TestApi {
  db: Database;
  baseUrl: string;
  get(path: string): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Creates an empty database on the PostgreSQL server at serverUrl; drop() removes it again. */
export async function createServerDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `kirana_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh database: in-memory PGlite, or a new database on the server named by TEST_DATABASE_URL. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { handle: await openDatabase({ kind: 'pglite' }), drop: async () => {} };
  const { url, drop } = await createServerDatabase(serverUrl);
  return { handle: await openDatabase({ kind: 'postgres', url }), drop };
}

export async function startTestApi(
  options: { products?: number; contactLimit?: WriteLimit; reviewLimit?: WriteLimit } = {},
): Promise<TestApi> {
  const { handle, drop } = await freshDatabase();
  await seedCatalogue(handle.db, { products: options.products ?? 60 });
  const errors: unknown[] = [];
  const app = createApp({ db: handle.db, logError: (e) => errors.push(e), contactLimit: options.contactLimit, reviewLimit: options.reviewLimit });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    db: handle.db,
    baseUrl,
    get: (path) => fetch(baseUrl + path),
    post: (path, body, headers = {}) =>
      fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
      await drop();
      if (errors.length) throw new Error(`The API logged unexpected errors: ${errors.map(String).join('; ')}`);
    },
  };
}

/** Reads an error response and checks it is the API's JSON error shape. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`Not an API error body: ${JSON.stringify(body)}`);
  }
  return { code: body.error.code, message: body.error.message };
}

