// The shopper's address, which the per-shopper rate limits count by (src/server/rate-limit.ts).
import { shopSettings } from '../../server/config.ts';

/**
 * The socket's peer; with TRUST_PROXY=true (the shop or `npm run api` behind a proxy of yours: nginx, a storefront),
 * the last X-Forwarded-For entry, the one that proxy added (an entry before it is whatever the client claimed).
 * Without it, every shopper behind nginx would share nginx's address, and one limit.
 */
export function shopperAddress(forwardedFor: string | null | undefined, socketAddress: string | undefined): string {
  const forwarded = shopSettings().trustProxy ? forwardedFor?.split(',').at(-1)?.trim() : undefined;
  return forwarded || socketAddress || 'unknown';
}
