// `npm start`: checks the settings, builds when the build is missing, older than the sources or made for another
// origin, then serves the shop, opening its database once first (migrations, and the demo catalogue on a fresh data
// directory): a database that cannot be opened stops the start in one line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildRecord } from './lib/build-record.ts';
import { buildSite } from '../src/lib/server/site.ts';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
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

let settings: ServerSettings;
try {
  // Every setting is checked before anything else: a typo stops the start here, in one line naming it.
  settings = readServerSettings();
  buildIfStale(settings);
  if (settings.apiUrl) console.log(`[kirana] using the API at ${settings.apiUrl}`);
  const { host, port } = settings;
  await serveShop({ host, port, openFirst: true });
  console.log(`[kirana] the shop is open at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`);
} catch (error) {
  console.error(`[kirana] could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
