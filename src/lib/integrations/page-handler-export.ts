// The node adapter's handler first looks for a file of the request's path in dist/client (an lstat and a stat) and
// renders the page only when there is none: about 4 % of a product page's CPU under load (profiled). The server
// entry is made to export its page handler as well, so scripts/serve.ts can send a path that is no file of the build
// straight to it. If Astro's output changes shape, the pattern does not match, nothing is exported and the server
// keeps the adapter's handler for everything.
import type { AstroIntegration } from 'astro';
import { serverOutputEdit } from './server-output-edit.ts';

// Before minification the mode is still a comparison: `var handler = "standalone" === "middleware" ? … : createStandaloneHandler(…);`.
const STANDALONE_HANDLER = /^var handler = (?:.* : )?createStandaloneHandler\((\w+), (\w+), (\w+)\);$/m;
const EXPORTS = /^export \{ handler, /m;

export function exportPageHandler(code: string): string {
  if (!STANDALONE_HANDLER.test(code) || !EXPORTS.test(code) || !code.includes('function createAppHandler(')) return code;
  return code
    .replace(STANDALONE_HANDLER, (line, app: string, options: string) => `${line}\nvar pageHandler = createAppHandler(${app}, ${options});`)
    .replace(EXPORTS, 'export { handler, pageHandler, ');
}

export default function pageHandlerExport(): AstroIntegration {
  return serverOutputEdit('kirana:page-handler-export', 'createStandaloneHandler(', exportPageHandler);
}
