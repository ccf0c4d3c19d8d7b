// A form posted without JavaScript, sent on to the API by the page on the shopper's behalf.
import type { AstroGlobal } from 'astro';
import { isHTTPError, type Options } from 'ky';
import { apiErrorMessage } from '../api/errors.ts';
import { CLIENT_IP_HEADER } from '../api/headers.ts';
import { storefrontOf } from './storefront.ts';

/**
 * Sends a form to the API as the shopper who sent it (`send` makes the typed call with the options given): their address goes along, so each shopper has their own
 * rate limit (read by the embedded API, or by an API host with TRUST_PROXY). On the API's refusal (4xx) the page
 * answers with its status and Retry-After, and the message to show is returned; on success, undefined.
 */
export async function postForShopper(
  astro: AstroGlobal,
  send: (options: Options) => Promise<unknown>,
  failure: string,
): Promise<string | undefined> {
  try {
    const address = storefrontOf(astro).shopperAddress(astro.request.headers.get('x-forwarded-for'), astro.clientAddress);
    await send({ headers: { [CLIENT_IP_HEADER]: address, 'x-forwarded-for': address }, retry: 0 });
    return undefined;
  } catch (error) {
    if (!isHTTPError(error) || error.response.status >= 500) throw error;
    astro.response.status = error.response.status;
    const retryAfter = error.response.headers.get('retry-after');
    if (retryAfter) astro.response.headers.set('Retry-After', retryAfter);
    return apiErrorMessage(error, failure);
  }
}
