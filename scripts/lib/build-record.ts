// The record a build leaves beside its output (builds/<id>/kirana-build.json, outside client/ so it is never served):
// the origin the pre-rendered pages were built with. The build writes it last (src/integrations/build-folder.ts);
// `npm start` (scripts/start.ts) reads it to pick a build made for the shop's origin, or to make one.
import fs from 'node:fs';
import path from 'node:path';

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
