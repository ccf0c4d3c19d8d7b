// Who may call each /api/grocer route (issue 34), in one table, and the one door every such call passes: the grocer's
// token (scripts: `npm run orders`, `npm run import`, `npm run staff`; an owner's rights) or a staff member's session
// cookie, the role checked against the table on every call, and every write recorded in the audit log.
// A shopper's bearer token is refused here, and the shoppers' routes never read the staff cookie (they read only
// `Authorization: Bearer`): the two sign-ins stay apart both ways.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { matchedRoutes } from 'hono/route';
import type { Database } from '../db/client.ts';
import { STAFF_ROLES, type StaffRole } from '../db/schema.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { clientAddress } from '../rate-limit.ts';
import { recordAudit, staffLabel, staffOfSession, type AuditActor } from '../services/staff.ts';
import type { StaffDto } from '../staff-schemas.ts';

const EVERYONE: readonly StaffRole[] = STAFF_ROLES;
/** Orders, issues, stock: the staff's work, and the owner's. */
const SHOP_FLOOR: readonly StaffRole[] = ['owner', 'staff'];
const OWNER: readonly StaffRole[] = ['owner'];

/**
 * Which roles may call each /api/grocer route, by method and OpenAPI path. 'anyone': the staff sign-in itself. The
 * grocer's token counts as an owner. A route registered without a line here stops the API from starting
 * (`checkGrocerRules`), and tests/api/staff-roles.test.ts walks every one with every role.
 */
export const GROCER_ROUTE_ROLES: Readonly<Record<string, readonly StaffRole[] | 'anyone'>> = {
  'POST /grocer/Authenticate/RequestCode': 'anyone',
  'POST /grocer/Authenticate/VerifyCode': 'anyone',
  'POST /grocer/Authenticate/Logout': 'anyone',
  'GET /grocer/Staff/Me': EVERYONE,
  'GET /grocer/Orders': SHOP_FLOOR,
  'GET /grocer/Orders/{id}': SHOP_FLOOR,
  'GET /grocer/PickList': SHOP_FLOOR,
  'GET /grocer/Today': SHOP_FLOOR,
  'POST /grocer/Orders/{id}/Advance': SHOP_FLOOR,
  'POST /grocer/Orders/{id}/Cancel': SHOP_FLOOR,
  'POST /grocer/Orders/{id}/Paid': SHOP_FLOOR,
  'GET /grocer/StockAlerts': SHOP_FLOOR,
  'POST /grocer/BlockedPhones': SHOP_FLOOR,
  'DELETE /grocer/BlockedPhones/{phone}': SHOP_FLOOR,
  'GET /grocer/Issues': SHOP_FLOOR,
  'GET /grocer/IssuePhotos/{id}': SHOP_FLOOR,
  'GET /grocer/IssuePhotos/{id}/Thumbnail': SHOP_FLOOR,
  'POST /grocer/Issues/{id}/Settle': SHOP_FLOOR,
  'GET /grocer/Shoppers': SHOP_FLOOR,
  'GET /grocer/Products': SHOP_FLOOR,
  'GET /grocer/LowStock': SHOP_FLOOR,
  'GET /grocer/Products/{id}': SHOP_FLOOR,
  'PUT /grocer/Products/{id}/Stock': SHOP_FLOOR,
  // The catalogue's products and prices: money, so the owner's.
  'PUT /grocer/Products/{id}/Price': OWNER,
  'PUT /grocer/Products/{id}/Facts': OWNER,
  'POST /grocer/Pictures': OWNER,
  'POST /grocer/Import': OWNER,
  'GET /grocer/Staff': OWNER,
  'POST /grocer/Staff': OWNER,
  'PUT /grocer/Staff/{id}': OWNER,
  'DELETE /grocer/Staff/{id}': OWNER,
  'GET /grocer/Audit': OWNER,
};

/** Hono's `/api/grocer/Orders/:id` as the table and the OpenAPI document write it: `/grocer/Orders/{id}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/^\/api/, '').replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

/** Every /api/grocer route of the app, as `METHOD /grocer/...`. */
export function grocerRoutesOf(routes: readonly { method: string; path: string }[]): string[] {
  const keys = routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/grocer/')).map((r) => `${r.method} ${openApiPath(r.path)}`);
  return [...new Set(keys)];
}

/** Throws when a /api/grocer route has no line in GROCER_ROUTE_ROLES: nobody's rights are left to a default. */
export function checkGrocerRules(routes: readonly { method: string; path: string }[]) {
  const missing = grocerRoutesOf(routes).filter((key) => !(key in GROCER_ROUTE_ROLES));
  if (missing.length) throw new Error(`No role rule for ${missing.join(', ')}: add each to GROCER_ROUTE_ROLES (src/server/routes/grocer-access.ts)`);
}

/** Who is calling: the grocer's token (a script) or a signed-in staff member. */
export type GrocerPrincipal =
  | { kind: 'grocer_token'; role: 'owner'; actor: AuditActor }
  | { kind: 'staff'; role: StaffRole; member: StaffDto; sessionId: number; actor: AuditActor };

const principals = new WeakMap<Request, GrocerPrincipal>();

/** The caller of a grocer route (set by the door below; absent on the sign-in routes). */
export const principalOf = (c: Context): GrocerPrincipal | undefined => principals.get(c.req.raw);

/** A route that writes its own audit row (in its transaction) says so; the door then writes none. */
const selfAudited = new WeakSet<Request>();
export const auditedByRoute = (c: Context) => void selfAudited.add(c.req.raw);

/** The staff cookie: `__Host-` on https (Secure, Path=/, no Domain: no subdomain can set or read it). */
export const staffCookieName = (secure: boolean) => (secure ? '__Host-kirana-staff' : 'kirana-staff');

/** Body fields never written to the audit log, and large ones written as their length. */
const SECRET_FIELDS = new Set(['password', 'code', 'challenge', 'currentPassword', 'newPassword']);
const LARGE_FIELDS = new Set(['csv', 'images']);
const AUDIT_BODY_BYTES = 4096;

async function auditDetail(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  const length = Number(c.req.header('content-length') ?? '0');
  if (!type.includes('application/json')) return length ? { bytes: length } : null;
  if (length > AUDIT_BODY_BYTES) {
    // The import's CSV: its size, not its lines.
    return { bytes: length };
  }
  try {
    const body = (await c.req.json()) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? '(left out)' : LARGE_FIELDS.has(key) ? `(${JSON.stringify(value).length} characters)` : value]),
    );
  } catch {
    return null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const digest = (text: string) => createHash('sha256').update(text).digest();

export interface GrocerDoorOptions {
  db: Database;
  /** The grocer's token; none: only staff sessions get in. */
  token: string | undefined;
  /** The shop's origin (settings): the staff cookie's writes must come from it; https makes the cookie Secure. */
  siteOrigin: string;
  idleSeconds: number;
}

/**
 * The middleware of /grocer/*: the caller, the role rule of the matched route, the cookie's writes from the shop's own
 * pages only (Origin), and the audit row of every write (refusals of a known caller included).
 */
export function grocerDoor({ db, token, siteOrigin, idleSeconds }: GrocerDoorOptions): MiddlewareHandler {
  const expected = token ? digest(token) : undefined;
  const cookieName = staffCookieName(new URL(siteOrigin).protocol === 'https:');
  return async (c, next) => {
    const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL');
    const key = route ? `${route.method} ${openApiPath(route.path)}` : undefined;
    const rule = key ? GROCER_ROUTE_ROLES[key] : undefined;
    const write = WRITES.has(c.req.method);
    const [scheme, given] = (c.req.header('authorization') ?? '').split(' ');
    const byToken = scheme?.toLowerCase() === 'grocer';
    if (scheme?.toLowerCase() === 'bearer') throw forbidden('A shopper’s sign-in is not accepted in the back office: sign in there with your staff number.');
    // A browser's write (the sign-in, or with the cookie) must come from the shop's own pages; SameSite=Strict says the
    // same for the cookie, this for browsers that do not keep it. Scripts send the grocer's token, which no form can.
    const fromOurPages = () => {
      const origin = c.req.header('origin');
      if (write && origin !== siteOrigin && origin !== new URL(c.req.url).origin) {
        throw forbidden(`A ${c.req.method} to the back office must come from the shop’s own pages (Origin ${siteOrigin}).`);
      }
    };
    if (rule === 'anyone') {
      fromOurPages();
      return next();
    }

    let principal: GrocerPrincipal;
    if (byToken) {
      // Equal-length digests, compared in constant time: the answer's timing says nothing about the token.
      if (!expected || !given || !timingSafeEqual(digest(given), expected)) {
        c.header('WWW-Authenticate', 'Grocer');
        throw unauthorized('The grocer routes need `Authorization: Grocer <token>` with the token from the data folder, or a staff sign-in.');
      }
      principal = { kind: 'grocer_token', role: 'owner', actor: { kind: 'grocer_token', label: 'grocer token', address: clientAddress(c) } };
    } else {
      const session = getCookie(c, cookieName);
      const live = session ? await staffOfSession(db, session, idleSeconds) : undefined;
      if (!live) {
        c.header('WWW-Authenticate', 'Grocer');
        throw unauthorized(session ? 'Your back-office session has ended. Please sign in again.' : 'Please sign in to the back office, or send `Authorization: Grocer <token>`.');
      }
      fromOurPages();
      principal = {
        kind: 'staff',
        role: live.member.role,
        member: live.member,
        sessionId: live.sessionId,
        actor: { kind: 'staff', staffId: live.member.id, label: staffLabel(live.member), address: clientAddress(c) },
      };
    }
    // No matched route: an unknown path, answered 404 by the app.
    if (!rule) return next();
    principals.set(c.req.raw, principal);
    if (!rule.includes(principal.role)) {
      const refusal = forbidden(`A ${principal.role} may not do this: ${key} is for ${rule.join(', ')}.`);
      await recordAudit(db, { actor: principal.actor, action: key!, target: c.req.path, status: refusal.status, detail: null });
      throw refusal;
    }
    await next();
    if (write && !selfAudited.has(c.req.raw)) {
      await recordAudit(db, { actor: principal.actor, action: key!, target: c.req.path, status: c.res.status, detail: await auditDetail(c) });
    }
  };
}
