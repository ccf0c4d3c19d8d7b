// Astro's server entry loads a page's module with `() => import(...)` on every request. Node answers a repeated
// dynamic import from its module cache, but only after resolving the specifier again (package.json scope lookups,
// stat calls): about 8 % of a product page's CPU under load (profiled). The entry's page loaders are made to keep
// their first promise instead. If Astro's output changes shape, the pattern does not match and nothing changes.
import type { AstroIntegration } from 'astro';
import { serverOutputEdit } from './server-output-edit.ts';

const PAGE_LOADER = /^var (_page\d+) = \(\) => import\(("[^"\n]+")\);$/gm;

export function importPagesOnce(code: string): string {
  return code.replace(PAGE_LOADER, (_line, name: string, specifier: string) => {
    return `var ${name} = (() => { let loaded; return () => (loaded ??= import(${specifier})); })();`;
  });
}

export default function pageImportsOnce(): AstroIntegration {
  return serverOutputEdit('kirana:page-imports-once', 'var pageMap = ', importPagesOnce);
}
