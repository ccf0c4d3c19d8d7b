// Astro's image endpoint (/_image) in place of the one Astro injects into every server build. The shop transforms no
// images through astro:assets (its pictures come from the API), so that endpoint only answered crafted URLs, some
// with a 500 (an SVG turned into a PNG needs sharp). Every request to it gets the shop's 404 page.
import type { APIRoute } from 'astro';

export const prerender = false;

export const ALL: APIRoute = ({ rewrite }) => rewrite('/404');
