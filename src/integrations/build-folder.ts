// Every `astro build` (through `npm run build`, `npm start` or by hand) writes a folder of its own, builds/<id>/
// (astro.config.mjs's outDir), and only once it is complete points `dist` at it (scripts/lib/builds.ts): a build beside
// a running shop never touches the files that shop serves, and a failed one changes nothing. Last in the config's
// integrations, so its build:done runs after every other integration has written its files.
//
// It also records the origin the pre-rendered pages were built with (kirana-build.json, outside client/ so it is never
// served): `npm start` (scripts/start.ts) picks a build made for its own origin, or makes one. The record is written
// last, so a build with a record is a complete one.
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_RECORD, type BuildRecord } from '../../scripts/lib/build-record.ts';
import { BUILDS_FOLDER, pruneBuilds, switchCurrentBuild, useBuild } from '../../scripts/lib/builds.ts';

export default function buildFolder(site: string): AstroIntegration {
  let root = '';
  let outDir = '';
  return {
    name: 'kirana:build-folder',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:start': () => {
        // Named as this process's before anything is written, so no prune elsewhere removes it half-made.
        fs.mkdirSync(outDir, { recursive: true });
        useBuild(root, outDir);
      },
      'astro:build:done': ({ logger }) => {
        const record: BuildRecord = { site };
        fs.writeFileSync(path.join(outDir, BUILD_RECORD), `${JSON.stringify(record)}\n`);
        // An outDir set elsewhere (not under builds/) is left where it was asked for.
        if (path.dirname(outDir) !== path.join(root, BUILDS_FOLDER)) return;
        switchCurrentBuild(root, outDir);
        logger.info(`dist now points to ${path.relative(root, outDir)}`);
        const removed = pruneBuilds(root);
        if (removed.length > 0) logger.info(`removed ${removed.length} build(s) no running shop uses`);
      },
    },
  };
}
