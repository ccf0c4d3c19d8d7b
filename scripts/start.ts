// `npm start`: builds when the build is missing or older than the sources, prepares the database
// (migrations, and the demo catalogue on a fresh data directory), then serves the shop.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServerSettings } from '../src/server/config.ts';
import { lockDataFolder } from '../src/server/db/data-folder.ts';
import { openShopDatabase } from '../src/server/db/prepare.ts';
import { resolveJwtSecret } from '../src/server/auth/secret.ts';
import { serveShop } from './serve.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist/server/entry.mjs');
const SOURCES = ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

function newestMtime(p: string): number {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

function buildIfStale() {
  const built = fs.statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (built >= sources) return console.log('[kirana] build is up to date');
  console.log(built ? '[kirana] sources changed: rebuilding…' : '[kirana] first start: building the shop…');
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[kirana] the build failed; see the messages above');
    process.exit(1);
  }
}

async function prepareDatabase() {
  if (process.env.API_URL) return console.log(`[kirana] using the API at ${process.env.API_URL}`);
  const settings = readServerSettings();
  // Held until this process exits, so the server bundle opening the folder next finds it still ours.
  if (!settings.databaseUrl) await lockDataFolder(settings.dataDir);
  // The server vacuums the folder when it opens it next (src/server/db/client.ts): once per start is enough.
  const handle = await openShopDatabase(settings, (m) => console.log(`[kirana] ${m}`), { vacuum: false });
  // Refuse to start now, with a clear message, rather than on the first shopper's request.
  resolveJwtSecret(settings);
  await handle.close();
}

try {
  buildIfStale();
  await prepareDatabase();
} catch (error) {
  console.error(`[kirana] could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 4321);
await serveShop({ host, port });
const base = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
// Open the database inside the server now rather than on the first shopper's request.
const warm = await fetch(`${base}/api/app/Brands/LoadBrandsByPriority?take=1`).catch(() => null);
console.log(warm?.ok ? `[kirana] the shop is open at ${base}` : `[kirana] serving at ${base} (the API did not answer yet)`);
