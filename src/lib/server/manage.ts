// The back office's pages (issue 34) call the same /api/grocer routes as `npm run orders` and `npm run staff`, in
// process (the shop's ky client: the app's `fetch`, no network), as the staff member whose request it is: their cookie
// and the browser's Origin go along, so the API's door checks the role, CSRF and writes the audit row exactly as for
// any other caller. Pages never read the staff tables themselves.
import { CLIENT_IP_HEADER } from '../api/headers.ts';
import { manageUrls } from '../urls.ts';
import { storefrontOf } from './storefront.ts';
import type { StaffDto } from '../../server/staff-schemas.ts';

/** What every /manage answer says: private to this staff member's browser, never kept, never indexed. */
export const MANAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex',
};

/** What a page or endpoint of /manage has: Astro's page global and an endpoint's context both fit. */
export interface ManageContext {
  request: Request;
  url: URL;
  locals: App.Locals;
  clientAddress: string;
}

/** Sets the back office's headers on a page's response. */
export function privateAnswer(astro: { response: { headers: Headers } }) {
  for (const [name, value] of Object.entries(MANAGE_HEADERS)) astro.response.headers.set(name, value);
}

/** A redirect after a post (303: the browser follows with GET), with the back office's headers and any cookies. */
export function seeOther(location: string, setCookies: readonly string[] = []): Response {
  const headers = new Headers({ Location: location, ...MANAGE_HEADERS });
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * One /api/grocer call (`path` under /api/, e.g. 'grocer/Orders/12') as this request's staff member. Answers the API's
 * response whatever its status; the page decides what a refusal means to the person in front of it.
 */
export async function grocerCall(ctx: ManageContext, method: string, path: string, body?: unknown): Promise<Response> {
  const shop = storefrontOf(ctx);
  const address = shop.shopperAddress(ctx.request.headers.get('x-forwarded-for'), ctx.clientAddress);
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: address, 'x-forwarded-for': address };
  const cookie = ctx.request.headers.get('cookie');
  if (cookie) headers.cookie = cookie;
  // A write's Origin is the browser's (src/middleware.ts has checked it is this site's); the API checks it again.
  const origin = ctx.request.headers.get('origin');
  if (origin) headers.origin = origin;
  return shop.api(path, { method, headers, json: body, throwHttpErrors: false, retry: 0 });
}

/** The API's error message of a refusal, or `fallback`. */
export async function refusalMessage(res: Response, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    return body.error?.message ?? fallback;
  } catch {
    return fallback;
  }
}

/** The page's path and query, as the sign-in's `next`. */
const here = (url: URL) => `${url.pathname}${url.search}`;

/**
 * The signed-in staff member, or the answer to send instead: to the sign-in page when there is no live session
 * (`?next=` brings them back), or the API's own 503 while it cannot answer. Every back-office page begins with it, so
 * it also sets the back office's headers on the page (privateAnswer).
 */
export async function signedInStaff(astro: ManageContext & { response: { headers: Headers } }): Promise<StaffDto | Response> {
  privateAnswer(astro);
  const res = await grocerCall(astro, 'GET', 'grocer/Staff/Me');
  if (res.status === 200) return (await res.json()) as StaffDto;
  if (res.status === 401 || res.status === 404) return seeOther(manageUrls.signIn(here(astro.url)));
  return new Response(await refusalMessage(res, 'The back office cannot answer right now. Please try again shortly.'), {
    status: res.status >= 500 ? 503 : res.status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5', ...MANAGE_HEADERS },
  });
}

/** A role as the back office names it, and what it may do (the API's GROCER_ROUTE_ROLES decides). */
export const STAFF_ROLE_LABELS: Record<StaffDto['role'], { label: string; may: string }> = {
  owner: { label: 'Owner', may: 'everything, and the staff (signs in with a code and a password)' },
  staff: { label: 'Staff', may: 'orders, issues, shoppers and stock' },
  editor: { label: 'Editor', may: 'the shop’s content pages' },
};

/** The roles in the order the back office offers them (not db/schema.ts's list: a page must not bundle the database's code). */
export const STAFF_ROLE_CHOICES = Object.keys(STAFF_ROLE_LABELS) as StaffDto['role'][];

/** The roles that work the shop floor (orders, pick lists): GROCER_ROUTE_ROLES' staff and owners. */
export const SHOP_FLOOR_ROLES: readonly StaffDto['role'][] = ['owner', 'staff'];
