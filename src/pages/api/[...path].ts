// Mounts the Hono API at /api inside the Astro server: one process by default.
import type { APIRoute } from 'astro';
import { errorBody } from '../../server/errors.ts';
import { CLIENT_IP_HEADER } from '../../server/routes/contact.ts';
import { fetchEmbedded } from '../../server/runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  if (process.env.API_URL) {
    return Response.json(errorBody('not_found', `This storefront uses the API at ${process.env.API_URL}`), { status: 404 });
  }
  // The client's address comes from the socket, never from what the client says.
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, clientAddress);
  return fetchEmbedded(new Request(request, { headers }));
};
