// The shop's public origin for canonical links, Open Graph, structured data, the sitemap and robots.txt.
// Never taken from the request's Host header: anyone can send any Host, and a CDN keyed on the path would then
// serve their origin to every shopper. In order: SITE_URL at run time (the build cannot know where the shop is
// deployed); the build-time `site` for pre-rendered pages (`npm start` rebuilds them when the origin changes: see
// scripts/start.ts); the address this server listens on (HOST, PORT), which the server gives pages with the shop
// (Astro.locals.shop.origin).
// Astro's `security.allowedDomains` stays empty on purpose: a Host it allows makes Astro trust X-Forwarded-For
// for `clientAddress`, which the per-shopper rate limits read, and then anyone could pick their own address.

import type { ServerSettings } from '../../server/config.ts';
import { openableOrigin } from '../listen-origin.ts';

export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 4321;

/** Where the server listens: HOST and PORT, or their defaults. */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const port = Number(env.PORT ?? DEFAULT_PORT);
  return { host: env.HOST || DEFAULT_HOST, port: Number.isInteger(port) && port >= 0 ? port : DEFAULT_PORT };
}

/** The listening address as an origin a browser on this machine can open (a wildcard address reads as localhost). */
export function listenOrigin(env: NodeJS.ProcessEnv = process.env): URL {
  const { host, port } = listenAddress(env);
  return openableOrigin(host, port);
}

/**
 * The `site` pre-rendered pages are built with (astro.config.mjs): SITE_URL, else the address the shop will listen on.
 * scripts/start.ts rebuilds when the shop starts with another one, so those pages always name the running shop.
 */
export function buildSite(settings: Pick<ServerSettings, 'siteUrl' | 'host' | 'port'>): string {
  return new URL(settings.siteUrl ?? listenOrigin({ HOST: settings.host, PORT: String(settings.port) })).href;
}

/** The origin a page names: the running shop's; while pre-rendering (no shop yet), the `site` of the build. */
export function siteOrigin(astro: { site: URL | undefined; locals: App.Locals }): URL {
  return astro.locals.shop?.origin ?? astro.site ?? listenOrigin();
}
