// The origin a browser can open for a listening address: shared by the settings (links in texts and mails, when
// SITE_URL is unset) and the pages (src/lib/server/site.ts), so both name the same shop.

/**
 * HOST and PORT as an origin: a wildcard listening address (0.0.0.0, ::) is not one a browser can open, so it reads
 * as localhost; an IPv6 address goes in brackets.
 */
export function openableOrigin(host: string, port: number | string): URL {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return new URL(`http://${name}:${port}`);
}
