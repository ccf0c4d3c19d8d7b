// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import interactionDirective from './src/lib/integrations/interaction-directive.ts';

const port = Number(process.env.PORT ?? 4321);

export default defineConfig({
  site: process.env.SITE_URL ?? `http://localhost:${port}`,
  output: 'server',
  // Pages are rendered whole before sending: they load their data first anyway, and a crash anywhere in a
  // page then shows the 500 page (SPEC §2) instead of a page cut off after a 200.
  adapter: node({ mode: 'standalone', experimentalDisableStreaming: true, bodySizeLimit: 64 * 1024 }),
  integrations: [react(), interactionDirective()],
  server: { port, host: process.env.HOST ?? 'localhost' },
  build: { inlineStylesheets: 'always' },
  // The shop uses no astro:assets transforms: its /_image endpoint answers nothing but 404 (see the file).
  image: { endpoint: { route: '/_image', entrypoint: './src/lib/server/image-endpoint-off.ts' } },
  // Astro's console log, with an error repeated on every request written once a minute with a count.
  logger: { entrypoint: './src/lib/server/astro-log.ts' },
  vite: {
    ssr: {
      // Loaded from node_modules at run time: PGlite finds its WebAssembly next to its own files.
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm'],
    },
  },
});
