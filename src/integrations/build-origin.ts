// Records, beside the build (dist/kirana-build.json, outside dist/client so it is never served), the origin the
// pre-rendered pages were built with. `npm start` (scripts/start.ts) rebuilds when the shop's origin is another one;
// the record's name and shape are the server side's (scripts/lib/build-record.ts), which reads it.
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_RECORD, type BuildRecord } from '../../scripts/lib/build-record.ts';

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
