// /api in `astro dev` alone (src/integrations/dev-api.ts injects it there): the dev shop's API (Astro.locals.shop:
// src/dev-shop.ts), or the API host's pass-through. The built shop's server hands /api to the API before Astro
// (api-door.ts), so the build has no such route.
import type { APIRoute } from 'astro';
import { storefrontOf } from '../lib/server/storefront.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  const shop = storefrontOf(context);
  // The socket's peer, or behind a proxy of ours (TRUST_PROXY) the address it forwards: never what the client says.
  const clientAddress = shop.shopperAddress(context.request.headers.get('x-forwarded-for'), context.clientAddress);
  return shop.handleApi(context.request, clientAddress);
};
