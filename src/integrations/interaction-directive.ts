// A tiny Astro integration that registers the `client:interaction` directive
// (src/lib/directives/interaction.ts). Astro bundles the directive with esbuild and inlines it
// into every page that has an island using it: no extra request.
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

export default function interactionDirective(): AstroIntegration {
  return {
    name: 'kirana:client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          // An absolute file path: esbuild resolves it whatever the project root.
          entrypoint: fileURLToPath(new URL('../lib/directives/interaction.ts', import.meta.url)),
        });
      },
    },
  };
}
