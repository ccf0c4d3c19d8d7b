// Compresses the build's text files (hashed assets, pre-rendered pages, the service worker, the manifest) once, at the
// end of the build, so the server sends the .br or .gz file as it is (src/http/static-files.ts) and never spends
// a request compressing them. Runs after the integrations that write files (astro.config.mjs).
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { precompressDirectory } from '../http/compression.ts';

export default function precompressAssets(): AstroIntegration {
  return {
    name: 'kirana:precompress-assets',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        if (!fs.existsSync(client)) return;
        logger.info(`compressed ${precompressDirectory(client)} files (brotli and gzip)`);
      },
    },
  };
}
