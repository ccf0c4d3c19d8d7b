// The API alone on HOST:API_PORT (`npm run api`), for a storefront elsewhere that sets API_URL and PUBLIC_API_URL to it:
// the same stack as the shop's (shop-handler.ts: /healthz, /readyz, the Host check, security headers, allowed methods,
// the page cache of shared answers, compression; the drain on SIGTERM), without the site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cors } from 'hono/cors';
import { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import { listenOrigin } from '../lib/server/site.ts';
import { CLIENT_IP_HEADER } from '../lib/api/headers.ts';
import { openShopApi, readCacheFor, shopperAddress } from '../server/runtime.ts';
import type { ServerSettings } from '../server/config.ts';
import { invalidationBusFor } from '../server/cache/invalidation-bus.ts';
import { installGracefulShutdown } from './shutdown.ts';
import { announceShop } from './shop-file.ts';
import { SERVER_TIMEOUTS } from './server-timeouts.ts';
import { API_ANSWERS_TAG, PageCache } from './page-cache.ts';
import { createShopHandler, refuseConnect } from './shop-handler.ts';

const log = (m: string) => console.log(`[kirana-api] ${m}`);

/** Opens the API's database, then listens; throws (the database closed again) when it cannot start. */
export async function serveApi(settings: ServerSettings): Promise<http.Server> {
  const stale = invalidationBusFor(settings, log);
  let opened: Awaited<ReturnType<typeof openShopApi>>;
  try {
    opened = await openShopApi(log, { stale, readCache: readCacheFor(settings, stale) });
  } catch (error) {
    await stale.close();
    throw error;
  }
  const { api, handle } = opened;
  const { apiPort: port, host } = settings;

  const app = new Hono();
  // Browsers on the storefront's origin call this API directly.
  if (settings.corsOrigins.length > 0) app.use('/api/*', cors({ origin: settings.corsOrigins }));
  app.route('/', api);

  // Shared answers (the catalogue's) kept as the shop keeps them, forgotten on any write (page-cache.ts).
  const pageCache = new PageCache({ maxSeconds: settings.pageCacheSeconds });
  stale.subscribe((tags) => pageCache.invalidate(tags === 'all' ? 'all' : [...tags, API_ANSWERS_TAG]));

  let draining = false;
  const server = http.createServer(SERVER_TIMEOUTS);
  server.on(
    'request',
    createShopHandler({
      pageCache,
      siteUrl: settings.siteUrl,
      ready: async () => {
        if (draining) return 'draining';
        try {
          await handle.db.execute(sql`select 1`);
          return true;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      },
      api: {
        // The client's address comes from the socket, never from what the client says; behind a storefront or proxy of
        // ours (TRUST_PROXY=true), from the X-Forwarded-For it adds.
        api: async (request, clientAddress) => {
          request.headers.set(CLIENT_IP_HEADER, clientAddress);
          return app.fetch(request);
        },
        clientAddress: (req) => shopperAddress(settings, req.headers['x-forwarded-for'] as string | undefined, req.socket.remoteAddress),
        // Browsers of the storefront's origin call it by CORS.
        refuseCrossSiteWrites: false,
      },
    }),
  );
  server.on('connect', refuseConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  // `npm run orders` finds this API through the data folder.
  const forgetShop = announceShop(settings.dataDir, listenOrigin({ HOST: host, PORT: String(address.port) }).origin);
  log(`listening on http://${host}:${address.port}/api (OpenAPI: /api/openapi.json)`);
  installGracefulShutdown(server, {
    log,
    announceMs: settings.shutdownGraceSeconds * 1000,
    onDraining: () => (draining = true),
    close: async () => {
      forgetShop();
      await stale.close();
      await handle.close();
    },
  });
  return server;
}
