// The grocer's side of the suite's shop, as `npm run orders` reaches it: the grocer's token from the shop's data folder.
import fs from 'node:fs';
import path from 'node:path';
import { e2eServerFile } from '../../scripts/lib/e2e-server-file.ts';

/** The grocer's token of the suite's shop (made in its data folder), as `npm run orders` reads it. */
export function grocerToken(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(e2eServerFile(process.env.E2E_PORT ?? '4399'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'grocer-token'), 'utf8').trim();
}

/** Headers of a grocer's call. Its writes carry a JSON body: a write with none is taken for another site's form. */
export const grocerHeaders = () => ({ Authorization: `Grocer ${grocerToken()}` });
