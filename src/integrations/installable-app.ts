// The installable app (issue 26), made at the end of the build: the manifest's icons drawn from one SVG
// (src/integrations/app-icon.svg) at every size Chrome asks for, and the service worker (src/service-worker/sw.ts)
// bundled with esbuild and given its precache list by workbox-build's injectManifest.
//
// Why not @vite-pwa/astro: its releases allow Astro up to 5, and its Vite plugin builds the worker from Vite's own
// client build, which Astro 7's server output does not hand it. injectManifest is Workbox's own tool for a worker
// written with Workbox modules; run from this hook it sees the finished dist/client, hashed names included.
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { injectManifest } from 'workbox-build';
import { ACCOUNT_PATHS, OFFLINE_PATH } from '../lib/saved-pages.ts';

/** Where the icons go in the build, and their sizes: Chrome's install needs 192 and 512, Lighthouse a maskable one. */
export const APP_ICONS_DIR = 'icons/app';
const ICON_SIZES = [48, 72, 96, 128, 144, 192, 256, 384, 512];
const MASKABLE_SIZES = [192, 512];
const APPLE_TOUCH_SIZE = 180;

/** The drawing fills its square (maskable: the bag sits inside the middle 80%); the plain icon rounds its corners. */
function roundedCorners(svg: string): string {
  return svg.replace('id="tile" rx="0"', 'id="tile" rx="96"');
}

async function drawIcons(svgFile: string, outDir: string): Promise<number> {
  const svg = fs.readFileSync(svgFile, 'utf8');
  fs.mkdirSync(outDir, { recursive: true });
  const draw = (source: string, size: number, name: string) =>
    sharp(Buffer.from(source), { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(outDir, name));
  await Promise.all([
    ...ICON_SIZES.map((size) => draw(roundedCorners(svg), size, `icon-${size}.png`)),
    ...MASKABLE_SIZES.map((size) => draw(svg, size, `maskable-${size}.png`)),
    draw(svg, APPLE_TOUCH_SIZE, 'apple-touch-icon.png'),
  ]);
  return ICON_SIZES.length + MASKABLE_SIZES.length + 1;
}

/** The pre-rendered content pages (a folder with an index.html), without the account pages (the offline page among them). */
function contentPaths(clientDir: string): string[] {
  return fs
    .readdirSync(clientDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(clientDir, entry.name, 'index.html')))
    .map((entry) => `/${entry.name}`)
    .filter((page) => !ACCOUNT_PATHS.includes(page));
}

export default function installableApp(): AstroIntegration {
  let root = '';
  return {
    name: 'kirana:installable-app',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const clientDir = fileURLToPath(dir);
        const icons = await drawIcons(path.join(root, 'src/integrations/app-icon.svg'), path.join(clientDir, APP_ICONS_DIR));
        // Bundled beside dist/client, never served; injectManifest writes the served sw.js from it.
        const bundled = path.join(clientDir, '..', 'sw-source.js');
        await build({
          entryPoints: [path.join(root, 'src/service-worker/sw.ts')],
          outfile: bundled,
          bundle: true,
          format: 'iife',
          minify: true,
          target: 'es2020',
          logLevel: 'warning',
          define: {
            __KIRANA_CONTENT_PATHS__: JSON.stringify(contentPaths(clientDir)),
            // Workbox's modules log only in development builds.
            'process.env.NODE_ENV': '"production"',
          },
        });
        const { count, size, warnings } = await injectManifest({
          swSrc: bundled,
          swDest: path.join(clientDir, 'sw.js'),
          globDirectory: clientDir,
          // The hashed assets (not their .br and .gz twins), the offline page, what the manifest and header show, and
          // the icons the CSS draws (the wishlist hearts): a page saved on the first visit, before the worker ran,
          // never told the worker about a CSS image, so offline it would show a blank button.
          globPatterns: [
            '_astro/**/*.{js,css,svg,png,webp,woff2}',
            'offline/index.html',
            `${APP_ICONS_DIR}/icon-192.png`,
            'icons/*.svg',
            'favicon.svg',
            'images/default-grocery.svg',
            'manifest.webmanifest',
          ],
          // A hashed name changes with its content, so it needs no revision of its own.
          dontCacheBustURLsMatching: /^_astro\//,
          // The offline page is asked for as /offline, the path its links and the worker use.
          manifestTransforms: [
            async (entries) => ({
              manifest: entries.map((entry) => (entry.url === 'offline/index.html' ? { ...entry, url: OFFLINE_PATH } : entry)),
              warnings: [],
            }),
          ],
        });
        fs.rmSync(bundled, { force: true });
        for (const warning of warnings) logger.warn(warning);
        logger.info(`drew ${icons} app icons; the service worker precaches ${count} files (${Math.round(size / 1024)} KB)`);
      },
    },
  };
}
