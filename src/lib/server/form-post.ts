// A form posted without JavaScript, sent on to the API by the page on the shopper's behalf.
import type { AstroGlobal } from 'astro';
import { isHTTPError } from 'ky';
import { CLIENT_IP_HEADER } from '../api/headers.ts';
import { serverApi } from '../api/server.ts';

/**
 * Posts `json` to the API as the shopper who sent the form: their address goes along, so each shopper has their own
 * rate limit (read by the embedded API, or by an API host with TRUST_PROXY). On the API's refusal (4xx) the page
 * answers with its status and Retry-After, and the message to show is returned; on success, undefined.
 */
export async function postForShopper(astro: AstroGlobal, path: string, json: unknown, failure: string): Promise<string | undefined> {
  try {
    await serverApi.post(path, {
      json,
      headers: { [CLIENT_IP_HEADER]: astro.clientAddress, 'x-forwarded-for': astro.clientAddress },
      retry: 0,
    });
    return undefined;
  } catch (error) {
    if (!isHTTPError(error) || error.response.status >= 500) throw error;
    astro.response.status = error.response.status;
    const retryAfter = error.response.headers.get('retry-after');
    if (retryAfter) astro.response.headers.set('Retry-After', retryAfter);
    // ky has already read the body into error.data.
    return (error.data as { error?: { message?: string } } | undefined)?.error?.message ?? failure;
  }
}
