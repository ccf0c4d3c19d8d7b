// An edit of Astro's built server code, made as each chunk is written: the shape shared by the integrations that
// tune what Astro emits (page-imports-once.ts, csp-digests-once.ts, page-handler-export.ts). Each edit leaves code
// of another shape as it is, and tests/build/content-build.test.ts says when one no longer reaches its code.
import type { AstroIntegration } from 'astro';

/** Applies `edit` to every built chunk that contains `marker`. */
export function serverOutputEdit(name: string, marker: string, edit: (code: string) => string): AstroIntegration {
  return {
    name,
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name,
                apply: 'build',
                renderChunk(code) {
                  return code.includes(marker) ? { code: edit(code), map: null } : null;
                },
              },
            ],
          },
        });
      },
    },
  };
}
