// `node scripts/serve.ts`: serves the built shop (the build `dist` points to now) on HOST:PORT with the production
// stack (src/http/shop-server.ts). `npm start` checks, builds and locks first (scripts/start.ts).
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { shopSettings } from '../src/server/config.ts';
import { serveShop } from '../src/http/shop-server.ts';
import { currentBuild, useBuild } from './lib/builds.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let host: string, port: number;
try {
  ({ host, port } = shopSettings());
} catch (error) {
  console.error(`[kirana] could not start: ${(error as Error).message}`);
  process.exit(1);
}
// The build's real folder, resolved once, and named as in use so that it is not pruned while this process serves it.
const buildDir = currentBuild(root);
if (!buildDir) {
  console.error('[kirana] could not start: there is no build (dist/ is missing): run `npm run build` first');
  process.exit(1);
}
useBuild(root, buildDir);
const server = await serveShop({ host, port, buildDir });
console.log(`[kirana] serving http://${host}:${(server.address() as AddressInfo).port}`);
