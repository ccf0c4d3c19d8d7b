// The headers the shop's server sets on every answer, and the content security policies of answers Astro does not
// make (files, the API's JSON), in one place: the shop (shop-server.ts) and the API alone (api-server.ts) send the same.
import fs from 'node:fs';
import path from 'node:path';

export const NO_FRAMING = "frame-ancestors 'none';";
const META_CSP = /<meta http-equiv="content-security-policy" content="([^"]*)"/i;

/**
 * The CSP of each pre-rendered page (dist/client/**\/index.html), read once from its <meta>, to be sent as a header
 * too, with frame-ancestors: a <meta> policy cannot forbid framing.
 */
export function prerenderedPolicies(clientDir: string): Map<string, string> {
  const policies = new Map<string, string>();
  for (const file of fs.readdirSync(clientDir, { recursive: true }) as string[]) {
    if (path.basename(file) !== 'index.html') continue;
    const policy = META_CSP.exec(fs.readFileSync(path.join(clientDir, file), 'utf8'))?.[1];
    if (!policy) continue;
    const dir = path.dirname(file).split(path.sep).join('/');
    const withFraming = `${policy.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/;?\s*$/, ';')} ${NO_FRAMING}`;
    for (const pathname of dir === '.' ? ['/'] : [`/${dir}`, `/${dir}/`]) policies.set(pathname, withFraming);
  }
  return policies;
}

/** Features the shop never uses, turned off for it and anything it might embed (only features Chromium knows: an
 * unknown one is a console warning on every page). */
const PERMISSIONS_POLICY = [
  'accelerometer', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'hid', 'magnetometer',
  'microphone', 'midi', 'payment', 'serial', 'usb', 'xr-spatial-tracking', 'browsing-topics',
].map((feature) => `${feature}=()`).join(', ');

/** For answers that are not pages (API JSON, files): they load nothing and may not be framed. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";
/** An SVG opened by itself may use its own styles, nothing else. */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
/** The service worker (issue 26): its script's policy is the worker's own, and it fetches the shop's files to keep them. */
export const SERVICE_WORKER_PATH = '/sw.js';
export const SERVICE_WORKER_CSP = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

/** The policy of a file of the build that is not a pre-rendered page, by its path and type. */
export function filePolicy(pathname: string, contentType: string): string {
  if (contentType.startsWith('image/svg')) return SVG_CSP;
  return pathname === SERVICE_WORKER_PATH ? SERVICE_WORKER_CSP : NON_PAGE_CSP;
}

export function securityHeaders(siteUrl: string | undefined): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'X-Frame-Options': 'DENY',
    // Pictures come smallest on a 2G connection (issue 26): the browser says its effective type on the requests that
    // follow (the ECT client hint), which the picture route reads like Save-Data. Pages themselves do not vary by it.
    'Accept-CH': 'ECT',
    ...(siteUrl?.startsWith('https:') ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
