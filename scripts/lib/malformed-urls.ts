// Requests whose address has a broken %-escape, answered before the Astro node adapter sees them: the adapter answers
// them with a bare text 'Bad request.', where the API promises its JSON error shape and a shopper deserves a page.
import type { NodeHandler } from './shop-handler.ts';
import { errorBody, isWellEncoded, MALFORMED_URL_MESSAGE } from '../../src/server/errors.ts';

/** The page (src/pages/400.astro) a shopper sees for such an address. */
export const BAD_REQUEST_PAGE = '/400';

export function withMalformedUrlAnswers(handler: NodeHandler): NodeHandler {
  return (req, res) => {
    const url = req.url ?? '/';
    if (isWellEncoded(url)) return handler(req, res);
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) {
      const body = JSON.stringify(errorBody('bad_request', MALFORMED_URL_MESSAGE));
      res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    // Astro renders the 400 page in place of the address it could not read.
    req.url = BAD_REQUEST_PAGE;
    handler(req, res);
  };
}
