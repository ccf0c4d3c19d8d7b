// Compresses the hashed build assets (/_astro/…) once, at the end of the build, so the server sends the
// .br or .gz file as it is (scripts/serve.ts) and never spends a request compressing them.
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HASHED_ASSETS_DIR, precompressDirectory } from '../../scripts/lib/compression.ts';

export default function precompressAssets(): AstroIntegration {
  return {
    name: 'kirana:precompress-assets',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const assets = path.join(fileURLToPath(dir), HASHED_ASSETS_DIR);
        if (!fs.existsSync(assets)) return;
        logger.info(`compressed ${precompressDirectory(assets)} assets (brotli and gzip)`);
      },
    },
  };
}
