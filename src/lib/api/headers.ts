// Headers shared by the API and whatever embeds it.

/** The shopper's address, set by the embedding server (the Astro route, the standalone API) from the socket,
 * never taken from the client. Used for rate limits. */
export const CLIENT_IP_HEADER = 'x-kirana-client-ip';
