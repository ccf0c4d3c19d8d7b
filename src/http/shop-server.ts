// The built shop on HOST:PORT (the build `dist` points to when it starts, or the one given). One shop per process
// (src/server/runtime.ts: the database opened once, one API, one read cache, one invalidation bus): /api goes straight
// to its API, and every page render gets it as Astro.locals.shop through the node adapter's middleware mode (its
// documented entry for a server of one's own), with Astro.locals.answer, the server's shaping of the page's Response
// (answers.ts). Around both, the stack (shop-handler.ts). Used by `npm start`, `scripts/serve.ts`, the e2e tests, the
// bench and the cluster.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installGracefulShutdown } from './shutdown.ts';
import { listenOrigin } from '../lib/server/site.ts';
import { shopSettings } from '../server/config.ts';
import { shopFor, shopperAddress } from '../server/runtime.ts';
import type { Storefront } from '../server/storefront.ts';
import { announceShop } from './shop-file.ts';
import { PageCache, API_ANSWERS_TAG } from './page-cache.ts';
import { createShopHandler, refuseConnect } from './shop-handler.ts';
import { inArrivalOrder } from './arrival-order.ts';
import { SERVER_TIMEOUTS } from './server-timeouts.ts';

/** The page (src/pages/404.astro) of a path no route matches. */
const NOT_FOUND_PAGE = '/404';

/** The adapter's middleware: renders a page with `locals`, or calls `next` when no route of the build matches. */
type AstroMiddleware = (req: IncomingMessage, res: ServerResponse, next: (() => void) | undefined, locals: App.Locals) => Promise<void>;

/**
 * Serves the build in `buildDir` (a build's real folder, resolved once by the caller: a build switching `dist` later
 * never changes what this process imports or sends).
 * `openFirst`: open the database before listening, and throw (naming the reason) when it cannot be opened: `npm start`.
 * Without it the shop listens at once and opens the database on its first request or /readyz, trying again after a
 * failure, so an instance behind a balancer starts, and recovers, while its database is out of reach.
 */
export async function serveShop(options: { host: string; port: number; openFirst?: boolean; buildDir: string }): Promise<http.Server> {
  // React (and other libraries) pick their production build from NODE_ENV when first imported: without it, every
  // server render ran React's development build (about an eighth of a product page's CPU under load).
  process.env.NODE_ENV ??= 'production';
  const { buildDir } = options;
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

  /** What each render gets in Astro.locals: the shop, with the tags of what the page reads, and the answer's shaping. */
  const locals = new WeakMap<IncomingMessage, App.Locals>();
  // A path no route matches renders the 404 page (src/pages/404.astro answers 404), with the same locals: the adapter's
  // own not-found answer passes none, so it would miss the server's shaping (its CSP framing, its compression).
  const astroRender = async (req: IncomingMessage, res: ServerResponse) => {
    const pageLocals = locals.get(req)!;
    let notFound = false;
    await astro(req, res, () => void (notFound = true), pageLocals);
    if (!notFound) return;
    req.url = NOT_FOUND_PAGE;
    await astro(req, res, undefined, pageLocals);
  };
  // On the embedded shop (the API in process, on PGlite) renders wait their turn in arrival order (arrival-order.ts);
  // files and the page cache's answers do not.
  const embedded = !settings.apiUrl && !settings.databaseUrl;
  const render = embedded ? inArrivalOrder(astroRender) : astroRender;
  // The same API the pages read in process (one per process), or the API host's pass-through (API_URL).
  const { handleApi } = shop.storefront();
  // /readyz: 503 from SIGTERM on; before, the shop's database open, migrated and answering (with API_URL, that host
  // answers for its own database).
  let draining = false;
  server.on(
    'request',
    createShopHandler({
      pageCache,
      siteUrl: settings.siteUrl,
      ready: async () => (draining ? 'draining' : shop.ready()),
      api: {
        api: handleApi,
        clientAddress: (req) => shopperAddress(settings, req.headers['x-forwarded-for'] as string | undefined, req.socket.remoteAddress),
        refuseCrossSiteWrites: true,
      },
      site: {
        clientDir,
        render: (req, res, answer) => {
          const tags = new Set<string>();
          locals.set(req, { shop: shop.storefront(tags) satisfies Storefront, answer: (response) => answer(response, tags) });
          void render(req, res);
        },
      },
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
