// Serves the built shop (dist/) on HOST:PORT: the Astro node handler (static files and pages) behind a
// short-lived page cache. Used by `npm start`, the e2e tests and the bench.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withMalformedUrlAnswers } from './lib/malformed-urls.ts';
import { withPageCache, type NodeHandler } from './lib/page-cache.ts';
import { installGracefulShutdown } from './lib/shutdown.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A review (through the API, or the product page's form without JavaScript) changes a product page. */
const WRITES_THAT_CHANGE_PAGES = /^\/(api\/Reviews|product-detail|product)(\?|\/|$)/;

export async function serveShop(options: { host: string; port: number }): Promise<http.Server> {
  // The adapter starts its own server unless told not to; this one wraps its handler instead.
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry = (await import(pathToFileURL(path.join(root, 'dist/server/entry.mjs')).href)) as { handler: NodeHandler };
  const server = http.createServer(
    withPageCache(withMalformedUrlAnswers(entry.handler), {
      maxSeconds: Number(process.env.PAGE_CACHE_SECONDS ?? 60),
      changesPages: (req) => WRITES_THAT_CHANGE_PAGES.test(req.url ?? ''),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  installGracefulShutdown(server);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const host = process.env.HOST ?? 'localhost';
  const port = Number(process.env.PORT ?? 4321);
  await serveShop({ host, port });
  console.log(`[kirana] serving http://${host}:${port}`);
}
