// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { loadEnv } from 'vite';
import interactionDirective from './src/integrations/interaction-directive.ts';
import precompressAssets from './src/integrations/precompress-assets.ts';
import { cspHash, INLINE_SCRIPTS } from './src/lib/server/inline-scripts.ts';
import buildFolder from './src/integrations/build-folder.ts';
import { newBuildId } from './scripts/lib/builds.ts';
import installableApp from './src/integrations/installable-app.ts';
import devApi from './src/integrations/dev-api.ts';
import { buildSite } from './src/lib/server/site.ts';
import { readServerSettings } from './src/server/config.ts';

// Checked like every setting (src/server/config.ts): a typo stops the build with the setting's name.
const settings = readServerSettings();
// The origin pre-rendered pages carry; recorded in the build so that `npm start` with another one picks or makes another.
const site = buildSite(settings);
// PUBLIC_API_URL is read at build time (from the environment or .env files), as the browser bundle reads it.
const publicApiUrl = loadEnv('production', process.cwd(), 'PUBLIC_').PUBLIC_API_URL;
/** Browsers may call the API only where it lives: its own origin when PUBLIC_API_URL is absolute, else this one. */
const apiOrigin = publicApiUrl && /^https?:\/\//i.test(publicApiUrl) ? new URL(publicApiUrl).origin : "'self'";

/** The modules Header.astro's and Base.astro's scripts import on every page (those of Base.astro's <head> script apart). */
const PAGE_SHELL_MODULES =
  /[\\/]src[\\/](lib[\\/](auth-state|carried-notice|kept-add|delivery-area|money|saved-pages)|client[\\/](category-menu|deliver-to|menu-styles))\.ts$/;

export default defineConfig({
  site,
  // Each build in a folder of its own, `dist` pointed at it once complete (src/integrations/build-folder.ts).
  // `npm start` names the folder (KIRANA_BUILD_ID) so that it can say it uses it before the build begins.
  outDir: `./builds/${process.env.KIRANA_BUILD_ID || newBuildId()}`,
  output: 'server',
  // Pages are rendered whole before sending: they load their data first anyway, and a crash anywhere in a
  // page then shows the 500 page (SPEC §2) instead of a page cut off after a 200.
  // Pre-rendered pages carry their CSP in a <meta>; src/http/static-files.ts also sends it as a header, with
  // frame-ancestors (which a <meta> cannot carry). The adapter's staticHeaders would do that by matching every
  // static request against the routes, which cut a pre-rendered page's rate to a quarter (measured).
  // No body limit of the adapter's (0): Astro reads only pages' form posts, whose length the server checks once before
  // (src/http/shop-handler.ts); /api never reaches Astro, and the API checks its own (src/server/app.ts).
  // Middleware mode: src/http/shop-server.ts is the server, and hands every render the shop it made
  // (Astro.locals.shop) and its shaping of the answer (Astro.locals.answer, called by src/middleware.ts).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true, bodySizeLimit: 0 }),
  integrations: [react({ experimentalDisableStreaming: true }), interactionDirective(), installableApp(), precompressAssets(), buildFolder(site), devApi()],
  server: { port: settings.port, host: settings.host },
  build: { inlineStylesheets: 'always' },
  scopedStyleStrategy: 'class',
  // The shop uses no astro:assets transforms: its /_image endpoint answers nothing but 404 (see the file).
  image: { endpoint: { route: '/_image', entrypoint: './src/lib/server/image-endpoint-off.ts' } },
  // Astro's console log, with an error repeated on every request written once a minute with a count.
  logger: { entrypoint: './src/lib/server/astro-log.ts' },
  security: {
    // The same check is in src/middleware.ts (src/lib/server/cross-site-writes.ts), so /api refuses in JSON.
    checkOrigin: false,
    // Astro hashes every script and style it emits; nothing inline runs without its hash.
    csp: {
      directives: [
        "default-src 'self'",
        // blob: the shoppers' issue photos, fetched with their token and shown from memory (src/islands/LineIssue.tsx).
        "img-src 'self' data: blob:",
        `connect-src ${apiOrigin === "'self'" ? "'self'" : `'self' ${apiOrigin}`}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: { hashes: INLINE_SCRIPTS.map(cspHash) },
    },
  },
  vite: {
    // Page scripts as cached files, not inline in every page's HTML (issue 24: a product page's HTML under 15 KB on the
    // wire; about 1 KB of it was the same small scripts on every page).
    build: {
      assetsInlineLimit: 0,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              {
                // Issue 33: Base.astro's script in <head> (the cart controller and the first suggestions) and everything
                // they import, in the file that script loads. Apart, the modules other scripts share with it went to
                // chunks of their own, which the browser finds only once the first file has arrived: one round trip more
                // before a first tap is answered (measured). Together, the scripts that import them take them from this
                // file, loaded already, and use the same instances (one cart store, one controller).
                name: 'page-start',
                test: /[\\/]src[\\/](layouts[\\/]Base\.astro\?astro&type=script&index=0&|client[\\/](cart-controller|early-suggestions)\.ts$)/,
                priority: 20,
              },
              {
                // Issue 26: the scripts every page runs at load (Header.astro's, Base.astro's) as one file, not nine: on a
                // slow phone each small file took one of the browser's six connections for a round trip, in a chain,
                // and the first tap's post and the first suggestions queued behind them (measured: 0.3–0.75 s).
                name: 'page-shell',
                test: PAGE_SHELL_MODULES,
              },
            ],
          },
        },
      },
    },
    ssr: {
      // Loaded from node_modules at run time: PGlite finds its WebAssembly next to its own files.
      external: ['@electric-sql/pglite', 'pg', 'drizzle-orm'],
    },
  },
});
