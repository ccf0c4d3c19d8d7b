// Every /api/grocer route against every caller (issue 34): the grocer's token and an owner get in everywhere, staff
// to orders, issues and stock, an editor to nothing yet but who they are; no credentials is a 401, a shopper's token a
// 403. The routes come from the OpenAPI document, so a route added without a rule fails here (and the API refuses to
// start: checkGrocerRules).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '../../src/server/db/schema.ts';
import { checkGrocerRules, GROCER_ROUTE_ROLES } from '../../src/server/routes/grocer-access.ts';
import { startTestApi, type TestApi } from './harness.ts';
import { SHOP_ORIGIN, signedIn, STAFF_COOKIE } from './staff-helpers.ts';

const TOKEN = 'staff-roles-test-grocer-token-012345';
let api: TestApi;
let routes: { method: string; path: string; key: string }[];
const cookies = {} as Record<StaffRole, string>;
let shopperToken: string;

beforeAll(async () => {
  api = await startTestApi({ products: 5, grocerToken: TOKEN });
  const doc = (await (await api.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/grocer/'))
    .flatMap(([path, methods]) => Object.keys(methods).map((m) => ({ method: m.toUpperCase(), path, key: `${m.toUpperCase()} ${path.slice(4)}` })));
  for (const role of ['owner', 'staff', 'editor'] as const) cookies[role] = (await signedIn(api, role)).cookie;
  shopperToken = (await api.register()).token;
});
afterAll(() => api.close());

/** A route's path with made-up ids: every call is refused or finds nothing, so no call changes what another sees. */
const concrete = (path: string) => path.replace('{phone}', '9000000001').replace(/\{\w+\}/g, '999999');

type Caller = { name: string; role?: StaffRole; headers: () => Record<string, string> };
const callers: Caller[] = [
  { name: 'the grocer token', role: 'owner', headers: () => ({ authorization: `Grocer ${TOKEN}` }) },
  ...(['owner', 'staff', 'editor'] as const).map((role) => ({ name: `a signed-in ${role}`, role, headers: () => ({ cookie: `${STAFF_COOKIE}=${cookies[role]}` }) })),
];

it('has one rule for every /api/grocer route, and none for a route that is not there', () => {
  expect(routes.length).toBeGreaterThan(20);
  const keys = routes.map((r) => r.key);
  expect(keys.filter((k) => !(k in GROCER_ROUTE_ROLES))).toEqual([]);
  expect(Object.keys(GROCER_ROUTE_ROLES).filter((k) => !keys.includes(k))).toEqual([]);
  // The API itself refuses to start with a route it has no rule for.
  expect(() => checkGrocerRules([{ method: 'GET', path: '/api/grocer/Secrets' }])).toThrow(/No role rule for GET \/grocer\/Secrets/);
});

describe.each(callers)('$name', ({ role, headers }) => {
  it('gets in where its role is allowed, and a 403 everywhere else', async () => {
    const seen: string[] = [];
    for (const route of routes) {
      const rule = GROCER_ROUTE_ROLES[route.key]!;
      // Signing out would end the session the other calls use; the sign-in routes are walked below.
      if (rule === 'anyone') continue;
      const res = await api.call(route.method, concrete(route.path), { headers: { origin: SHOP_ORIGIN, ...headers() } });
      const allowed = rule.includes(role!);
      seen.push(`${route.key} ${allowed ? 'allowed' : 'refused'} ${res.status}`);
      if (allowed) expect([401, 403], `${route.key}: ${await res.clone().text()}`).not.toContain(res.status);
      else expect(res.status, route.key).toBe(403);
      expect(res.status, route.key).toBeLessThan(500);
    }
    expect(seen).toHaveLength(routes.filter((r) => GROCER_ROUTE_ROLES[r.key] !== 'anyone').length);
  });
});

describe('without a staff member', () => {
  it('is a 401 with no credentials, a 403 with a shopper’s token, on every route but the sign-in', async () => {
    for (const route of routes) {
      const path = concrete(route.path);
      const bare = await api.call(route.method, path, { headers: { origin: SHOP_ORIGIN } });
      if (GROCER_ROUTE_ROLES[route.key] === 'anyone') expect([401, 403], route.key).not.toContain(bare.status);
      else expect(bare.status, route.key).toBe(401);
      const shopper = await api.call(route.method, path, { token: shopperToken, headers: { origin: SHOP_ORIGIN } });
      expect(shopper.status, route.key).toBe(403);
    }
  });

  it('is a 401 with a wrong grocer token or an unknown cookie', async () => {
    expect((await api.call('GET', '/api/grocer/Orders', { headers: { authorization: 'Grocer not-the-token' } })).status).toBe(401);
    expect((await api.call('GET', '/api/grocer/Orders', { headers: { cookie: `${STAFF_COOKIE}=made-up` } })).status).toBe(401);
  });
});
