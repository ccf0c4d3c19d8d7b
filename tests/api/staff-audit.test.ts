// The audit log (issue 34): every back-office action — sign-in and out, staff added, changed and removed, an order
// tool's write, a refusal — is listed for owners with who, what, when and from where; nobody can change or delete it,
// not even with the database's own SQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import type { AuditEntryDto, AuditPageDto, StaffDto } from '../../src/server/staff-schemas.ts';
import { startTestApi, type TestApi } from './harness.ts';
import { fromShop, signedIn, SHOP_ORIGIN, staffPhone, STAFF_COOKIE } from './staff-helpers.ts';

const TOKEN = 'staff-audit-test-grocer-token-0123456';
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 5, grocerToken: TOKEN });
});
afterAll(() => api.close());

/** A call from a browser at `address` with a staff cookie. */
const asStaff = (cookie: string, method: string, path: string, body?: unknown, address = '203.0.113.7') =>
  api.call(method, path, { body, headers: { origin: SHOP_ORIGIN, cookie: `${STAFF_COOKIE}=${cookie}`, [CLIENT_IP_HEADER]: address } });

async function everyEntry(cookie: string): Promise<AuditEntryDto[]> {
  const res = await asStaff(cookie, 'GET', '/api/grocer/Audit?limit=200');
  expect(res.status).toBe(200);
  return ((await res.json()) as AuditPageDto).entries;
}

it('lists each back-office action for owners: who, what, when, from where, and the answer', async () => {
  const started = Date.now();
  const { member: owner, cookie: ownerCookie } = await signedIn(api, 'owner');
  const { member: clerk, cookie: clerkCookie } = await signedIn(api, 'staff');

  const added = await asStaff(ownerCookie, 'POST', '/api/grocer/Staff', { name: 'Lata Shah', phone: staffPhone(), role: 'editor' });
  expect(added.status, await added.clone().text()).toBe(201);
  const lata = (await added.json()) as StaffDto;
  expect((await asStaff(ownerCookie, 'PUT', `/api/grocer/Staff/${lata.id}`, { role: 'staff' })).status).toBe(200);
  expect((await asStaff(ownerCookie, 'DELETE', `/api/grocer/Staff/${lata.id}`)).status).toBe(200);
  const newOwner = await asStaff(ownerCookie, 'POST', '/api/grocer/Staff', { name: 'Dev Rao', phone: staffPhone(), role: 'owner', password: 'jaggery-window-31' });
  expect(newOwner.status).toBe(201);
  expect((await asStaff(clerkCookie, 'POST', '/api/grocer/BlockedPhones', { phone: '9123456780', reason: 'fake orders' }, '198.51.100.4')).status).toBe(200);
  expect((await asStaff(clerkCookie, 'POST', '/api/grocer/Orders/999999/Advance')).status).toBe(404);
  expect((await asStaff(clerkCookie, 'GET', '/api/grocer/Audit')).status).toBe(403);
  expect((await api.grocer('DELETE', 'BlockedPhones/9123456780')).status).toBe(200);
  expect((await fromShop(api, 'POST', '/api/grocer/Authenticate/Logout', { cookie: clerkCookie })).status).toBe(204);

  const entries = await everyEntry(ownerCookie);
  const row = (action: string, actor: string, target?: string) =>
    entries.find((e) => e.action === action && e.actor === actor && (target === undefined || e.target === target));
  const ownerLabel = `${owner.name} (owner)`;
  const clerkLabel = `${clerk.name} (staff)`;
  expect(row('POST /grocer/Authenticate/VerifyCode', ownerLabel)).toMatchObject({ actorKind: 'staff', staffId: owner.id, status: 200 });
  expect(row('POST /grocer/Staff', ownerLabel, `staff ${lata.id}`)).toMatchObject({ status: 200, target: `staff ${lata.id}`, address: '203.0.113.7', detail: { name: 'Lata Shah', role: 'editor' } });
  expect(row('PUT /grocer/Staff/{id}', ownerLabel)).toMatchObject({ target: `staff ${lata.id}`, detail: { from: 'editor', role: 'staff' } });
  expect(row('DELETE /grocer/Staff/{id}', ownerLabel)).toMatchObject({ target: `staff ${lata.id}`, detail: { name: 'Lata Shah' } });
  expect(row('POST /grocer/BlockedPhones', clerkLabel)).toMatchObject({
    staffId: clerk.id,
    target: '/api/grocer/BlockedPhones',
    status: 200,
    address: '198.51.100.4',
    detail: { phone: '9123456780', reason: 'fake orders' },
  });
  expect(row('POST /grocer/Orders/{id}/Advance', clerkLabel)).toMatchObject({ target: '/api/grocer/Orders/999999/Advance', status: 404 });
  expect(row('GET /grocer/Audit', clerkLabel)).toMatchObject({ status: 403 });
  expect(row('DELETE /grocer/BlockedPhones/{phone}', 'grocer token')).toMatchObject({ actorKind: 'grocer_token', staffId: null, status: 200 });
  expect(row('POST /grocer/Authenticate/Logout', clerkLabel)).toMatchObject({ status: 204 });
  for (const entry of entries) {
    const at = Date.parse(entry.at);
    expect(at).toBeGreaterThanOrEqual(started - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
  }
  expect(row('POST /grocer/Staff', ownerLabel, `staff ${lata.id + 1}`)).toMatchObject({ detail: { name: 'Dev Rao', role: 'owner' } });
  // A password is never written down.
  expect(JSON.stringify(entries)).not.toContain('jaggery-window-31');
  // Newest first.
  expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
});

it('pages the log, newest first', async () => {
  const { cookie } = await signedIn(api, 'owner');
  const all = await everyEntry(cookie);
  const first = (await (await asStaff(cookie, 'GET', '/api/grocer/Audit?limit=2')).json()) as AuditPageDto;
  expect(first.entries.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
  const second = (await (await asStaff(cookie, 'GET', `/api/grocer/Audit?limit=2&before=${first.next}`)).json()) as AuditPageDto;
  expect(second.entries.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
  const last = (await (await asStaff(cookie, 'GET', `/api/grocer/Audit?before=${all.at(-1)!.id + 1}`)).json()) as AuditPageDto;
  expect(last).toEqual({ entries: [all.at(-1)], next: null });
});

it('cannot be changed or deleted: the API has no such route, and the database refuses UPDATE, DELETE and TRUNCATE', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as { paths: Record<string, object> };
  expect(Object.keys(doc.paths['/api/grocer/Audit']!)).toEqual(['get']);
  const { cookie } = await signedIn(api, 'owner');
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    expect((await asStaff(cookie, method, '/api/grocer/Audit')).status).toBe(404);
  }
  const count = async () => (await api.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
  const before = await count();
  await expect(api.db.execute(sql`update audit_log set actor = 'someone else'`)).rejects.toThrow();
  await expect(api.db.execute(sql`delete from audit_log`)).rejects.toThrow();
  await expect(api.db.execute(sql`truncate audit_log`)).rejects.toThrow();
  expect(await count()).toBe(before);
  expect(before).toBeGreaterThan(0);
});
