// The build's files (dist/client: pre-rendered pages, public files, hashed assets) sent with `send`, the library the
// node adapter itself uses for them. Which paths are files is read once at start (the build does not change while the
// shop runs), so a page's request goes to the renderer without a look at the disk.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import send from 'send';
import { HASHED_ASSETS_DIR, IMMUTABLE_CACHE_CONTROL, PRECOMPRESSED_TYPES, preCompressedPath, type Encoding } from './compression.ts';
import { filePolicy } from './security-headers.ts';

/** Every URL path the build has a file for: its files, and its folders (a pre-rendered page) with or without '/'. */
export function buildPaths(clientDir: string): Set<string> {
  const paths = new Set<string>(['/']);
  for (const entry of fs.readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    paths.add(`/${relative}`);
    if (entry.isDirectory()) paths.add(`/${relative}/`);
  }
  return paths;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface StaticFileOptions {
  /** The encoding the client takes best: a file the build compressed (src/integrations/precompress-assets.ts) is sent
   * as its .br or .gz twin, so no file is compressed at run time. */
  encodingOf?: (req: IncomingMessage) => Encoding | undefined;
  /** The CSP of each pre-rendered page (security-headers.ts); other files get theirs by type. */
  pagePolicies?: Map<string, string>;
}

/**
 * Sends a file of the build, or hands the request to `render` (pages, and the 404 page for a path that is neither).
 * A path with an escape, a dot segment or a doubled slash is looked up by `send` (which decodes and confines it to
 * the folder), never taken for a file by its spelling.
 */
export function staticFiles(clientDir: string, render: Handler, { encodingOf, pagePolicies = new Map() }: StaticFileOptions = {}): Handler {
  const files = buildPaths(clientDir);
  const assets = `/${HASHED_ASSETS_DIR}/`;
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query >= 0 ? url.slice(0, query) : url;
    const plain = pathname.startsWith('/') && !/%|#|\/\.|\/\/|\\/.test(pathname);
    if (plain && !files.has(pathname)) return render(req, res);
    // A pre-rendered page's folder without its '/' is its index.html, as the adapter served it.
    const file = plain && pathname !== '/' && !pathname.endsWith('/') && files.has(`${pathname}/`) ? `${pathname}/index.html` : pathname;
    // Its compressed twin, for a file reached by its plain path.
    const real = file.endsWith('/') ? `${file}index.html` : file;
    const encoding = plain && encodingOf && (req.method === 'GET' || req.method === 'HEAD') ? encodingOf(req) : undefined;
    const type = PRECOMPRESSED_TYPES[path.extname(real)];
    const twin = encoding && type && files.has(preCompressedPath(real, encoding)) ? preCompressedPath(real, encoding) : undefined;
    const stream = send(req, twin ?? file, { root: clientDir, dotfiles: file.startsWith('/.well-known/') ? 'allow' : 'deny' });
    let found = false;
    stream.on('file', () => (found = true));
    // A folder reached by an unusual spelling: `send` would redirect to that spelling plus '/', and a browser reads
    // `/\host/…` as another host. The shop's folders are its pre-rendered pages, reached by their plain paths above.
    stream.on('directory', () => render(req, res));
    const pagePolicy = type?.startsWith('text/html') ? pagePolicies.get(pathname) : undefined;
    stream.on('headers', () => {
      if (file.startsWith(assets)) res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
      if (type) {
        // Named here, as `send` would by the file's extension, since a twin's (.br, .gz) says nothing of its content.
        res.setHeader('Content-Type', type);
        res.setHeader('Vary', 'Accept-Encoding');
      }
      if (twin) res.setHeader('Content-Encoding', encoding!);
      // A pre-rendered page's policy goes on its 304 too: the browser keeps the headers it stored with the body, policy
      // included, unless the 304 names another.
      if (pagePolicy) res.setHeader('Content-Security-Policy', pagePolicy);
    });
    // Another file's policy only with its body (`send` emits this for a 200 or 206, not a 304 or HEAD): a 304 naming
    // 'none' would replace the policy the browser stored with it.
    stream.on('stream', () => {
      if (!pagePolicy) res.setHeader('Content-Security-Policy', filePolicy(pathname, type ?? String(res.getHeader('content-type') ?? '')));
    });
    stream.on('error', (error: { statusCode?: number }) => {
      if (!found) return render(req, res);
      const status = error.statusCode ?? 500;
      res.writeHead(status);
      res.end();
    });
    stream.pipe(res);
  };
}
