// Sends a request whose path is no file or folder of the build (dist/client) straight to the page renderer, past
// the node adapter's look for a file of that name (an lstat and a stat on every page request, about 4 % of a
// product page's CPU under load). The build does not change while the server runs, so its paths are read once.
import fs from 'node:fs';
import path from 'node:path';
import type { NodeHandler } from './shop-handler.ts';

/** Every URL path the adapter could answer from dist/client: its files, and its folders with or without '/'. */
export function buildPaths(clientDir: string): Set<string> {
  const paths = new Set<string>(['/']);
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    paths.add(`/${relative}`);
    if (entry.isDirectory()) paths.add(`/${relative}/`);
  }
  return paths;
}

/**
 * `adapter` answers the build's files (and anything whose path it would read differently: escapes, a fragment, dot
 * segments, doubled slashes); every other path goes to `pages`, which renders it.
 */
export function withPagesStraightToRenderer(adapter: NodeHandler, pages: NodeHandler | undefined, clientDir: string): NodeHandler {
  if (!pages) return adapter;
  const files = buildPaths(clientDir);
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query >= 0 ? url.slice(0, query) : url;
    const plain = pathname.startsWith('/') && !/%|#|\/\.|\/\/|\\/.test(pathname);
    return plain && !files.has(pathname) ? pages(req, res) : adapter(req, res);
  };
}
