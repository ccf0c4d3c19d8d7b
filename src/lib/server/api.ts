// The API client of server-rendered pages. Embedded (no API_URL): requests go straight to the in-process
// Hono app, no socket. With API_URL: a plain HTTP client of that host.
import ky from 'ky';
import { shopSettings } from '../../server/config.ts';
import { fetchEmbedded } from '../../server/runtime.ts';
import { catalogue } from '../api/catalogue.ts';
import { feedback } from '../api/feedback.ts';

const EMBEDDED_ORIGIN = 'http://kirana.embedded/api/';

const apiUrl = shopSettings().apiUrl;

export const serverApi = ky.create({
  baseUrl: apiUrl ? apiUrl.replace(/\/?$/, '/') : EMBEDDED_ORIGIN,
  timeout: 10_000,
  // ky's default codes but 503: the API says its database is out of reach, and waiting its Retry-After would hold the
  // shopper past the 3 s in which the 503 page is due (SPEC's friendly 503: src/middleware.ts).
  retry: { limit: 1, methods: ['get'], statusCodes: [408, 413, 429, 500, 502, 504] },
  fetch: apiUrl ? fetch : (input, init) => fetchEmbedded(asRequest(input, init)),
});

/**
 * ky hands fetch the Request it has made, with `init` holding only options no Request knows (none, for these calls):
 * it goes to the app as it is, rather than copied once more for every call a page makes.
 */
function asRequest(input: RequestInfo | URL, init: RequestInit | undefined): Request {
  return input instanceof Request && (!init || Object.keys(init).length === 0) ? input : new Request(input, init);
}

export const serverCatalogue = catalogue(serverApi);
export const serverFeedback = feedback(serverApi);
