// Mounts the Hono API at /api inside the Astro server: one process by default.
import type { APIRoute } from 'astro';
import { errorBody } from '../../server/errors.ts';
import { embeddedApi } from '../../server/runtime.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => {
  if (process.env.API_URL) {
    return Response.json(errorBody('not_found', `This storefront uses the API at ${process.env.API_URL}`), { status: 404 });
  }
  try {
    const api = await embeddedApi();
    return await api.fetch(request);
  } catch (error) {
    console.error('[kirana] the API could not start', error);
    return Response.json(errorBody('unavailable', 'The shop is starting or unavailable. Please try again shortly.'), {
      status: 503,
      headers: { 'Retry-After': '5' },
    });
  }
};
