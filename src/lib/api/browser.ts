// The API client of islands (browser only). One shared ky instance: a later change adds the bearer
// header and the refresh-on-401 retry here, and every island gets them.
import ky from 'ky';
import { resolveApiBaseUrl } from './base-url.ts';
import { catalogue } from './catalogue.ts';

// Islands are also rendered on the server, where there is no `location`; they never call the API
// there, so a placeholder origin keeps the module loadable.
const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;

export const browserApi = ky.create({
  baseUrl: resolveApiBaseUrl(import.meta.env.PUBLIC_API_URL, origin),
  timeout: 10_000,
  retry: { limit: 2, methods: ['get'] },
});

export const browserCatalogue = catalogue(browserApi);
