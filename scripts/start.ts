// `npm start`: checks the settings, takes the data folder's lock, picks a build made for the shop's origin from the
// sources as they are (or makes one, beside the others), then serves it, opening its database once first (migrations,
// and the demo catalogue on a fresh data directory): a database that cannot be opened stops the start in one line.
// A start that is refused (the folder is in use, a setting is wrong) has built and changed nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildRecord } from './lib/build-record.ts';
import { allBuilds, buildFolder, currentBuild, isComplete, newBuildId, pruneBuilds, useBuild } from './lib/builds.ts';
import { buildSite } from '../src/lib/server/site.ts';
import { readServerSettings, type ServerSettings } from '../src/server/config.ts';
import { lockDataFolder } from '../src/server/db/data-folder.ts';
import { serveShop } from '../src/http/shop-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['src', 'public', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

function newestMtime(p: string): number {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const builtAt = (buildDir: string) => fs.statSync(path.join(buildDir, 'server/entry.mjs'), { throwIfNoEntry: false })?.mtimeMs ?? 0;

/**
 * The build this start serves: the current one (`dist`) when it is complete, newer than the sources and made for the
 * shop's origin, else another such build (a shop on another origin made it), else a new one. The pre-rendered pages
 * (about, contact, policies) name the shop's origin in canonical links, og:url and JSON-LD, fixed when they were built
 * (SITE_URL, else HOST and PORT), so a build is made for one origin (issue 23). Building, rather than filling the
 * origin in when they are served, keeps them static files sent as they are (precompressed, no render or rewrite per
 * request); each build has a folder of its own, so shops on two origins each keep theirs (docs/architecture.md).
 */
function chooseBuild(settings: ServerSettings): string {
  const site = buildSite(settings);
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  const fits = (buildDir: string) => isComplete(buildDir) && builtAt(buildDir) >= sources && readBuildRecord(buildDir)?.site === site;
  // Named as ours before it is taken, then looked at again: a prune elsewhere may have removed it in between.
  const usable = (buildDir: string) => {
    if (!fits(buildDir)) return false;
    useBuild(root, buildDir);
    return fits(buildDir);
  };
  const current = currentBuild(root);
  if (current && usable(current)) {
    console.log('[kirana] build is up to date');
    return current;
  }
  const another = allBuilds(root).find(usable);
  if (another) {
    console.log(`[kirana] using the build made for ${site} (builds/${path.basename(another)})`);
    return another;
  }
  if (!current || !isComplete(current)) console.log('[kirana] first start: building the shop…');
  else if (builtAt(current) < sources) console.log('[kirana] sources changed: rebuilding…');
  else console.log(`[kirana] the shop's origin is ${site}, the build's ${readBuildRecord(current)?.site ?? 'unknown'}: rebuilding…`);
  const id = newBuildId();
  const buildDir = buildFolder(root, id);
  // Ours before it exists: a build or start elsewhere prunes only what no live process names.
  useBuild(root, buildDir);
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, KIRANA_BUILD_ID: id } });
  if (result.status !== 0 || !isComplete(buildDir)) {
    console.error('[kirana] the build failed; see the messages above');
    process.exit(1);
  }
  return buildDir;
}

let settings: ServerSettings;
try {
  // Every setting is checked before anything else: a typo stops the start here, in one line naming it.
  settings = readServerSettings();
  // The embedded database's folder is locked before anything is built: a start refused by a running shop changes
  // nothing. Held for this process's life; the database's open later shares it (lockDataFolder counts within a process).
  if (!settings.apiUrl && !settings.databaseUrl) await lockDataFolder(settings.dataDir);
  const buildDir = chooseBuild(settings);
  if (settings.apiUrl) console.log(`[kirana] using the API at ${settings.apiUrl}`);
  const { host, port } = settings;
  await serveShop({ host, port, openFirst: true, buildDir });
  console.log(`[kirana] the shop is open at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`);
  pruneBuilds(root);
} catch (error) {
  console.error(`[kirana] could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
