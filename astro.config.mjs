// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig, memoryCache } from 'astro/config';
import interactionDirective from './src/lib/integrations/interaction-directive.ts';

const port = Number(process.env.PORT ?? 4321);

export default defineConfig({
  site: process.env.SITE_URL ?? `http://localhost:${port}`,
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [react(), interactionDirective()],
  server: { port, host: process.env.HOST ?? 'localhost' },
  // Catalogue pages are the same for every visitor: a short in-process cache keeps SSR cheap.
  cache: { provider: memoryCache() },
  build: { inlineStylesheets: 'always' },
  vite: {
    ssr: {
      // Loaded from node_modules at run time: PGlite finds its WebAssembly next to its own files.
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm'],
    },
  },
});
