// Serves the built shop (the build `dist` points to when it starts, or the one given) on HOST:PORT. One shop per
// process (src/server/runtime.ts: the database opened once, one API, one read cache, one invalidation bus) is handed
// to every page render as Astro.locals.shop, through the node adapter's middleware mode (its documented entry for a
// server of one's own). Around it, the shop's own layer (scripts/lib/shop-handler.ts: probes, Host check, security
// headers, body limits, compression, page cache) and the build's files (scripts/lib/static-files.ts). Used by
// `npm start`, the e2e tests, the bench and the cluster.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withMalformedUrlAnswers } from './lib/malformed-urls.ts';
import { installGracefulShutdown } from './lib/shutdown.ts';
import { listenOrigin } from '../src/lib/server/site.ts';
import { shopSettings } from '../src/server/config.ts';
import { shopFor } from '../src/server/runtime.ts';
import type { Storefront } from '../src/server/storefront.ts';
import { announceShop } from './lib/shop-file.ts';
import { currentBuild, useBuild } from './lib/builds.ts';
import { API_ANSWERS_TAG, PageCache } from './lib/page-cache.ts';
import { createShopHandler, isApiPath, refuseConnect } from './lib/shop-handler.ts';
import { staticFiles } from './lib/static-files.ts';
import { inArrivalOrder } from './lib/arrival-order.ts';
import { SERVER_TIMEOUTS } from './lib/server-timeouts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The adapter's middleware: renders a page with `locals`, or calls `next` when no route of the build matches. */
type AstroMiddleware = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: App.Locals) => Promise<void>;

/**
 * `openFirst`: open the database before listening, and throw (naming the reason) when it cannot be opened: `npm start`.
 * Without it the shop listens at once and opens the database on its first request or /readyz, trying again after a
 * failure, so an instance behind a balancer starts, and recovers, while its database is out of reach.
 */
export async function serveShop(options: { host: string; port: number; openFirst?: boolean; buildDir?: string }): Promise<http.Server> {
  // React (and other libraries) pick their production build from NODE_ENV when first imported: without it, every
  // server render ran React's development build (about an eighth of a product page's CPU under load).
  process.env.NODE_ENV ??= 'production';
  // The build's real folder, resolved once: a build switching `dist` later never changes what this process imports
  // (its chunks load on first use) or sends. Named as in use, so it is not pruned while this process serves it.
  const buildDir = options.buildDir ?? currentBuild(root);
  if (!buildDir) throw new Error('there is no build (dist/ is missing): run `npm run build` first');
  useBuild(root, buildDir);
  const { handler: astro } = (await import(pathToFileURL(path.join(buildDir, 'server/entry.mjs')).href)) as { handler: AstroMiddleware };
  const clientDir = path.join(buildDir, 'client');
  // Checked once for the whole process (src/server/config.ts): an invalid setting throws here, naming it.
  const settings = shopSettings();
  const log = (message: string) => console.log(`[kirana] ${message}`);

  // Where pages say the shop is when SITE_URL is not set; with port 0 it is known once listening.
  let listening = listenOrigin({ HOST: options.host, PORT: String(options.port) });
  const siteUrl = settings.siteUrl ? new URL(settings.siteUrl) : undefined;
  const shop = shopFor(settings, log, () => siteUrl ?? listening);
  if (options.openFirst) {
    try {
      await shop.open();
    } catch (error) {
      await shop.close();
      throw error;
    }
  }

  const server = http.createServer(SERVER_TIMEOUTS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  listening = listenOrigin({ HOST: options.host, PORT: String((server.address() as AddressInfo).port) });

  const pageCache = new PageCache({ maxSeconds: settings.pageCacheSeconds });
  // A write's stale tags, from this process or another (src/server/cache/invalidation-bus.ts). The API's answers in the
  // page cache carry no tags of their own (Hono renders them): any change forgets them all.
  shop.stale.subscribe((tags) => pageCache.invalidate(tags === 'all' ? 'all' : [...tags, API_ANSWERS_TAG]));

  /** The tags of what each page's render read, for the page cache to keep it under. */
  const readTags = new WeakMap<IncomingMessage, Set<string>>();
  const render = (req: IncomingMessage, res: ServerResponse) => {
    const tags = new Set<string>();
    // The API's answers (an Astro route too) are kept under API_ANSWERS_TAG instead.
    if (!isApiPath(req.url ?? '/')) readTags.set(req, tags);
    // No `next`: a path no route matches renders the 404 page.
    return astro(req, res, undefined, { shop: shop.storefront(tags) satisfies Storefront });
  };
  // On the embedded shop (the API in process, on PGlite) renders wait their turn in arrival order
  // (scripts/lib/arrival-order.ts); files and the page cache's answers do not.
  const embedded = !settings.apiUrl && !settings.databaseUrl;
  // /readyz: 503 from SIGTERM on; before, the shop's database open, migrated and answering (with API_URL, that host
  // answers for its own database).
  let draining = false;
  server.on(
    'request',
    createShopHandler(withMalformedUrlAnswers(staticFiles(clientDir, embedded ? inArrivalOrder(render) : render)), {
      clientDir,
      pageCache,
      siteUrl: settings.siteUrl,
      ready: async () => (draining ? 'draining' : shop.ready()),
      cacheTags: (req) => readTags.get(req) ?? [API_ANSWERS_TAG],
    }),
  );
  server.on('connect', refuseConnect);

  // `npm run orders` finds the shop through this (the API here is the embedded one, unless API_URL names another).
  const forgetShop = settings.apiUrl ? () => {} : announceShop(settings.dataDir, listening.origin);
  installGracefulShutdown(server, {
    announceMs: settings.shutdownGraceSeconds * 1000,
    onDraining: () => (draining = true),
    close: async () => {
      forgetShop();
      await shop.close();
    },
  });
  // The API opens its database on first use: now, so /readyz turns 200 without waiting for a shopper. A failure is
  // the API's to report (and to try again on the next request).
  void shop.ready();
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let host: string, port: number;
  try {
    ({ host, port } = shopSettings());
  } catch (error) {
    console.error(`[kirana] could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  const server = await serveShop({ host, port });
  console.log(`[kirana] serving http://${host}:${(server.address() as AddressInfo).port}`);
}
