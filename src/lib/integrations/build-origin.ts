// Records, beside the build (dist/kirana-build.json, outside dist/client so it is never served), the origin the
// pre-rendered pages were built with. `npm start` (scripts/start.ts) rebuilds when the shop's origin is another one.
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The record's name inside the build's output folder. */
export const BUILD_RECORD = 'kirana-build.json';

export interface BuildRecord {
  /** The `site` the pre-rendered pages name in canonical links, og:url and JSON-LD. */
  site: string;
}

/** What a build in `outDir` recorded; undefined for a build made before the record existed. */
export function readBuildRecord(outDir: string): BuildRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, BUILD_RECORD), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

export default function recordBuildOrigin(site: string): AstroIntegration {
  let outDir = '';
  return {
    name: 'kirana:build-origin',
    hooks: {
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': () => {
        const record: BuildRecord = { site };
        fs.writeFileSync(path.join(outDir, BUILD_RECORD), `${JSON.stringify(record)}\n`);
      },
    },
  };
}
