// `npm run api`: the API alone, for a storefront elsewhere that sets API_URL and PUBLIC_API_URL to it.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { cors } from 'hono/cors';
import { Hono } from 'hono';
import { listenOrigin } from '../src/lib/server/site.ts';
import { CLIENT_IP_HEADER } from '../src/lib/api/headers.ts';
import { openShopApi } from '../src/server/runtime.ts';
import { installGracefulShutdown } from './lib/shutdown.ts';
import { announceShop } from './lib/shop-file.ts';
import type { Server as NodeServer } from 'node:http';

const port = Number(process.env.API_PORT ?? 4322);
const hostname = process.env.HOST ?? 'localhost';
const { api, handle, settings } = await openShopApi((m) => console.log(`[kirana-api] ${m}`));

const server = new Hono();
// Browsers on the storefront's origin call this API directly.
if (process.env.CORS_ORIGIN) server.use('/api/*', cors({ origin: process.env.CORS_ORIGIN.split(',') }));
// The client's address comes from the socket, never from what the client says; behind a storefront or
// proxy of ours (TRUST_PROXY=true), from the X-Forwarded-For it adds.
const trustProxy = process.env.TRUST_PROXY === 'true';
server.use('/api/*', async (c, next) => {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
  c.req.raw.headers.set(CLIENT_IP_HEADER, forwarded || (getConnInfo(c).remote.address ?? 'unknown'));
  await next();
});
server.route('/', api);

// The port it got (API_PORT=0 lets the system choose one).
const http = serve({ fetch: server.fetch, hostname, port }, (address) => {
  // `npm run orders` finds this API through the data folder.
  announceShop(settings.dataDir, listenOrigin({ HOST: hostname, PORT: String(address.port) }).origin);
  console.log(`[kirana-api] listening on http://${hostname}:${address.port}/api (OpenAPI: /api/openapi.json)`);
});
installGracefulShutdown(http as NodeServer, { log: (m) => console.log(`[kirana-api] ${m}`), close: handle.close });
