// Serves the built shop (dist/) on HOST:PORT: the Astro node handler (static files and pages) behind the
// shop's own layer (scripts/lib/shop-handler.ts: Host check, security headers, compression, page cache).
// Used by `npm start`, the e2e tests and the bench.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withMalformedUrlAnswers } from './lib/malformed-urls.ts';
import { installGracefulShutdown } from './lib/shutdown.ts';
import { listenOrigin } from '../src/lib/server/site.ts';
import { shopSettings } from '../src/server/config.ts';
import { announceShop } from './lib/shop-file.ts';
import { PageCache } from './lib/page-cache.ts';
import { createShopHandler, refuseConnect, type NodeHandler } from './lib/shop-handler.ts';
import { withPagesStraightToRenderer } from './lib/build-paths.ts';
import { inArrivalOrder } from './lib/arrival-order.ts';
import { checkReadiness } from '../src/server/readiness.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function serveShop(options: { host: string; port: number }): Promise<http.Server> {
  // The adapter starts its own server unless told not to; this one wraps its handler instead.
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  // React (and other libraries) pick their production build from NODE_ENV when first imported: without it, every
  // server render ran React's development build (about an eighth of a product page's CPU under load).
  process.env.NODE_ENV ??= 'production';
  // pageHandler: exported by src/lib/integrations/page-handler-export.ts (absent if Astro's output changed shape).
  const entry = (await import(pathToFileURL(path.join(root, 'dist/server/entry.mjs')).href)) as { handler: NodeHandler; pageHandler?: NodeHandler };
  const clientDir = path.join(root, 'dist/client');
  // Checked once for the whole process (src/server/config.ts): an invalid setting throws here, naming it.
  const settings = shopSettings();
  // On the embedded shop (the API in process, on PGlite) renders wait their turn in arrival order
  // (scripts/lib/arrival-order.ts); files and the page cache's answers do not.
  const embedded = !settings.apiUrl && !settings.databaseUrl;
  const pages = entry.pageHandler && embedded ? inArrivalOrder(entry.pageHandler) : entry.pageHandler;
  // /readyz: 503 from SIGTERM on; before, with the API in this process, its database open, migrated and answering
  // (src/server/readiness.ts); with API_URL, that host answers for its own database.
  let draining = false;
  const ready = async () => (draining ? 'draining' : settings.apiUrl ? true : checkReadiness());
  const server = http.createServer(
    createShopHandler(withMalformedUrlAnswers(withPagesStraightToRenderer(entry.handler, pages, clientDir)), {
      clientDir,
      pageCache: new PageCache({ maxSeconds: settings.pageCacheSeconds }),
      siteUrl: settings.siteUrl,
      ready,
    }),
  );
  server.on('connect', refuseConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  // The pages name this address as the shop's origin when SITE_URL is not set (src/lib/server/site.ts); with
  // port 0 it is known only now.
  process.env.HOST = options.host;
  process.env.PORT = String((server.address() as AddressInfo).port);
  installGracefulShutdown(server, { announceMs: settings.shutdownGraceSeconds * 1000, onDraining: () => (draining = true) });
  // The embedded API opens its database on its first request: one now, so /readyz has its check and turns 200 without
  // waiting for a shopper. A failure is the API's to report (and to try again on the next request).
  if (!settings.apiUrl) warmUp(server.address() as AddressInfo);
  // `npm run orders` finds the shop through this (the API here is the embedded one, unless API_URL names another).
  const dataDir = settings.apiUrl ? undefined : settings.dataDir;
  if (dataDir) announceShop(dataDir, listenOrigin().origin);
  return server;
}

function warmUp({ address, port }: AddressInfo) {
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  http.get({ host, port, path: '/api/', headers: { host: `127.0.0.1:${port}` } }, (res) => res.resume()).on('error', () => {});
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let host: string, port: number;
  try {
    ({ host, port } = shopSettings());
  } catch (error) {
    console.error(`[kirana] could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  await serveShop({ host, port });
  console.log(`[kirana] serving http://${host}:${process.env.PORT}`);
}
