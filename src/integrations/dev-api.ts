// /api in `astro dev`: there is no server of ours in front of Astro there, so the API is an Astro route
// (src/http/dev-api-route.ts). The build has none: its server reaches the API before Astro (src/http/api-door.ts).
import type { AstroIntegration } from 'astro';

export default function devApi(): AstroIntegration {
  return {
    name: 'kirana:dev-api',
    hooks: {
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command === 'dev') injectRoute({ pattern: '/api/[...path]', entrypoint: './src/http/dev-api-route.ts', prerender: false });
      },
    },
  };
}
