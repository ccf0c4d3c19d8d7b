// `npm run api`: the API alone, for a storefront elsewhere that sets API_URL and PUBLIC_API_URL to it.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { cors } from 'hono/cors';
import { Hono } from 'hono';
import { listenOrigin } from '../src/lib/server/site.ts';
import { CLIENT_IP_HEADER } from '../src/lib/api/headers.ts';
import { openShopApi, readCacheFor, shopperAddress } from '../src/server/runtime.ts';
import { readServerSettings } from '../src/server/config.ts';
import { invalidationBusFor } from '../src/server/cache/invalidation-bus.ts';
import { installGracefulShutdown } from './lib/shutdown.ts';
import { announceShop } from './lib/shop-file.ts';
import { SERVER_TIMEOUTS } from './lib/server-timeouts.ts';
import type { Server as NodeServer } from 'node:http';

const log = (m: string) => console.log(`[kirana-api] ${m}`);
let opened: Awaited<ReturnType<typeof openShopApi>>;
let stale: ReturnType<typeof invalidationBusFor> | undefined;
try {
  // Checks every setting first (src/server/config.ts): a typo stops the start in one line naming it.
  const settings = readServerSettings();
  stale = invalidationBusFor(settings, log);
  opened = await openShopApi(log, { stale, readCache: readCacheFor(settings, stale) });
} catch (error) {
  console.error(`[kirana-api] could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stale?.close();
  process.exit(1);
}
const { api, handle, settings } = opened;
const { apiPort: port, host: hostname } = settings;

const server = new Hono();
// Browsers on the storefront's origin call this API directly.
if (settings.corsOrigins.length > 0) server.use('/api/*', cors({ origin: settings.corsOrigins }));
// The client's address comes from the socket, never from what the client says; behind a storefront or
// proxy of ours (TRUST_PROXY=true), from the X-Forwarded-For it adds.
server.use('/api/*', async (c, next) => {
  c.req.raw.headers.set(CLIENT_IP_HEADER, shopperAddress(settings, c.req.header('x-forwarded-for'), getConnInfo(c).remote.address));
  await next();
});
server.route('/', api);

// The port it got (API_PORT=0 lets the system choose one).
let forgetShop = () => {};
const http = serve({ fetch: server.fetch, hostname, port, serverOptions: SERVER_TIMEOUTS }, (address) => {
  // `npm run orders` finds this API through the data folder.
  forgetShop = announceShop(settings.dataDir, listenOrigin({ HOST: hostname, PORT: String(address.port) }).origin);
  console.log(`[kirana-api] listening on http://${hostname}:${address.port}/api (OpenAPI: /api/openapi.json)`);
});
installGracefulShutdown(http as NodeServer, {
  log,
  close: async () => {
    forgetShop();
    await stale.close();
    await handle.close();
  },
});
