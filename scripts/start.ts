// `npm start`: checks the settings, builds when the build is missing, older than the sources or made for another
// origin, prepares the database (migrations, and the demo catalogue on a fresh data directory), then serves the shop.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildRecord } from './lib/build-record.ts';
import { buildSite } from '../src/lib/server/site.ts';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
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

/**
 * Why the build must be made again, or null when it is up to date. The pre-rendered pages (about, contact, policies)
 * name the shop's origin in canonical links, og:url and JSON-LD, fixed when they were built (SITE_URL, else HOST and
 * PORT): a start with another origin rebuilds them (issue 23). Rebuilding, rather than filling the origin in when they
 * are served, keeps them static files sent as they are (precompressed, no render or rewrite per request), and nothing
 * else in them depends on the request; a new origin is a deployment change, so the rebuild's time is spent rarely.
 */
function staleness(settings: ServerSettings): string | null {
  const built = fs.statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (!built) return '[kirana] first start: building the shop…';
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (built < sources) return '[kirana] sources changed: rebuilding…';
  const builtFor = readBuildRecord(path.join(root, 'dist'))?.site;
  const site = buildSite(settings);
  if (builtFor !== site) return `[kirana] the shop's origin is ${site}, the build's ${builtFor ?? 'unknown'}: rebuilding…`;
  return null;
}

function buildIfStale(settings: ServerSettings) {
  const why = staleness(settings);
  if (!why) return console.log('[kirana] build is up to date');
  console.log(why);
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[kirana] the build failed; see the messages above');
    process.exit(1);
  }
}

async function prepareDatabase(settings: ServerSettings) {
  if (settings.apiUrl) return console.log(`[kirana] using the API at ${settings.apiUrl}`);
  // Held until this process exits, so the server bundle opening the folder next finds it still ours.
  if (!settings.databaseUrl) await lockDataFolder(settings.dataDir);
  // The server vacuums the folder when it opens it next (src/server/db/client.ts): once per start is enough.
  const handle = await openShopDatabase(settings, (m) => console.log(`[kirana] ${m}`), { vacuum: false });
  // Refuse to start now, with a clear message, rather than on the first shopper's request.
  resolveJwtSecret(settings);
  await handle.close();
}

let settings: ServerSettings;
try {
  // Every setting is checked before anything else: a typo stops the start here, in one line naming it.
  settings = readServerSettings();
  buildIfStale(settings);
  await prepareDatabase(settings);
} catch (error) {
  console.error(`[kirana] could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const { host, port } = settings;
await serveShop({ host, port });
const base = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
// Open the database inside the server now rather than on the first shopper's request.
const warm = await fetch(`${base}/api/app/Brands/LoadBrandsByPriority?take=1`).catch(() => null);
console.log(warm?.ok ? `[kirana] the shop is open at ${base}` : `[kirana] serving at ${base} (the API did not answer yet)`);
