// /api inside the Astro server: the shop's API of this process (Astro.locals.shop: src/server/runtime.ts), or, when
// API_URL names an API host, a pass-through to it, so browsers need no other address.
import type { APIRoute } from 'astro';
import { storefrontOf } from '../../lib/server/storefront.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  const shop = storefrontOf(context);
  // The socket's peer, or behind a proxy of ours (TRUST_PROXY) the address it forwards: never what the client says.
  const clientAddress = shop.shopperAddress(context.request.headers.get('x-forwarded-for'), context.clientAddress);
  return shop.handleApi(context.request, clientAddress);
};
