// Staff sign-in to the back office (issue 34): a texted code (an owner adds a password) into an HttpOnly,
// SameSite=Strict, Secure cookie; a number that is nobody's answers alike and gets no text; sessions end after 12 h
// idle, on Logout, on a role change and on removal; the cookie and the shoppers' tokens never stand in for each other.
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeSentDto } from '../../src/server/account-schemas.ts';
import { staffSessions } from '../../src/server/db/schema.ts';
import type { StaffDto } from '../../src/server/staff-schemas.ts';
import { WRONG_CODE } from '../../src/server/routes/auth.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';
import { cookieOf, fromShop, newStaff, OWNER_PASSWORD, requestCode, signedIn, signIn, staffPhone, STAFF_COOKIE } from './staff-helpers.ts';

const TOKEN = 'staff-signin-test-grocer-token-0123';
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 5, grocerToken: TOKEN });
});
afterAll(() => api.close());

const me = (cookie: string) => fromShop(api, 'GET', '/api/grocer/Staff/Me', { cookie });

describe('signing in', () => {
  it('signs a staff member in with the texted code, into an HttpOnly, Secure, SameSite=Strict cookie on Path=/', async () => {
    const member = await newStaff(api, 'staff', 'Ravi Kumar');
    const { res, cookie } = await signIn(api, member);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ staff: { id: member.id, name: 'Ravi Kumar', role: 'staff' }, idleMinutes: 720 });
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`))!;
    const attributes = set.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/']));
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
    // The token is in the cookie alone: the answer's body carries none, and the database keeps only its hash.
    expect(JSON.stringify(await (await signIn(api, await newStaff(api, 'editor'))).res.json())).not.toContain(cookie!);
    const rows = await api.db.select({ hash: staffSessions.tokenHash }).from(staffSessions).where(eq(staffSessions.staffId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).not.toContain(cookie!);
    const who = await me(cookie!);
    expect(who.status).toBe(200);
    expect(((await who.json()) as StaffDto).phone).toBe(member.phone);
    expect(who.headers.get('cache-control')).toBe('no-store');
  });

  it('asks an owner for their password too: no password or a wrong one is refused, and the right one signs in', async () => {
    const owner = await newStaff(api, 'owner');
    for (const password of [undefined, 'not-the-password-1']) {
      const { res, cookie } = await signIn(api, owner, password);
      expect(res.status).toBe(400);
      expect(cookie).toBeUndefined();
      // The next code may be asked for 30 s after the last unless the last came back right: this one did.
      await api.db.execute(sql`update phone_codes set created_at = created_at - interval '1 minute' where phone = ${owner.phone}`);
    }
    const { res, cookie } = await signIn(api, owner, OWNER_PASSWORD);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await (await me(cookie!)).json()) as StaffDto).toMatchObject({ id: owner.id, role: 'owner' });
  });

  it('refuses a wrong code, with the shoppers’ answer for it, and sets no cookie', async () => {
    const member = await newStaff(api, 'staff');
    const { challenge } = (await (await requestCode(api, member.phone)).json()) as CodeSentDto;
    const code = await api.codeTo(member.phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const res = await fromShop(api, 'POST', '/api/grocer/Authenticate/VerifyCode', { body: { phone: member.phone, code: wrong, challenge } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(WRONG_CODE);
    expect(cookieOf(res)).toBeUndefined();
  });

  it('answers a number that is nobody’s exactly as a staff member’s, and texts nothing to it', async () => {
    const member = await newStaff(api, 'staff');
    const nobody = staffPhone();
    const unknown = await requestCode(api, nobody);
    const known = await requestCode(api, member.phone);
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    const [a, b] = [(await unknown.json()) as CodeSentDto, (await known.json()) as CodeSentDto];
    const same = (d: CodeSentDto, phone: string) => ({ ...d, challenge: typeof d.challenge, message: d.message.replace(`${phone.slice(0, 2)}•••••${phone.slice(-3)}`, 'X'), phone: d.phone.length });
    expect(same(a, nobody)).toEqual(same(b, member.phone));
    await api.codeTo(member.phone);
    expect(fs.readdirSync(api.smsOutbox).filter((f) => f.endsWith(`-${nobody}.txt`))).toEqual([]);
    // A shopper's sign-in code for the same number is no back-office code: the purposes are apart.
    const shopperAsk = (await (await api.post('/api/Authenticate/RequestCode', { phone: nobody })).json()) as CodeSentDto;
    expect(shopperAsk.challenge).not.toBe(a.challenge);
  });

  it('refuses a sign-in or a sign-out posted from another site (Origin)', async () => {
    const member = await newStaff(api, 'staff');
    const res = await api.call('POST', '/api/grocer/Authenticate/RequestCode', { body: { phone: member.phone }, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    const { cookie } = await signedIn(api, 'staff');
    const write = await api.call('POST', '/api/grocer/BlockedPhones', { body: { phone: '9123456780' }, headers: { cookie: `${STAFF_COOKIE}=${cookie}` } });
    expect(write.status).toBe(403);
    expect((await me(cookie)).status).toBe(200);
  });
});

describe('the session', () => {
  it('ends after 12 h without a call, and each call keeps it alive', async () => {
    const { member, cookie } = await signedIn(api, 'staff');
    const idleFor = (hours: number) =>
      api.db.update(staffSessions).set({ lastSeenAt: sql`now() - make_interval(mins => ${Math.round(hours * 60)})` }).where(eq(staffSessions.staffId, member.id));
    await idleFor(11.9);
    expect((await me(cookie)).status).toBe(200);
    // The call moved its idle clock: 11.9 h more are not 12 h since it.
    const [row] = await api.db.select({ idle: sql<number>`extract(epoch from now() - ${staffSessions.lastSeenAt})` }).from(staffSessions).where(eq(staffSessions.staffId, member.id));
    expect(Number(row!.idle)).toBeLessThan(60);
    await idleFor(12.1);
    const ended = await me(cookie);
    expect(ended.status).toBe(401);
    expect((await errorOf(ended)).message).toMatch(/ended/);
  });

  it('ends on Logout: the cookie is cleared and no longer works', async () => {
    const { cookie } = await signedIn(api, 'editor');
    const out = await fromShop(api, 'POST', '/api/grocer/Authenticate/Logout', { cookie });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`))).toMatch(/Max-Age=0/i);
    expect((await me(cookie)).status).toBe(401);
  });

  it('ends everywhere when the member’s role changes, and when the member is removed', async () => {
    const member = await newStaff(api, 'staff');
    const phoneA = (await signIn(api, member)).cookie!;
    await api.db.execute(sql`update phone_codes set created_at = created_at - interval '1 minute' where phone = ${member.phone}`);
    const phoneB = (await signIn(api, member)).cookie!;
    expect((await me(phoneA)).status).toBe(200);
    expect((await me(phoneB)).status).toBe(200);
    const changed = await api.grocer('PUT', `Staff/${member.id}`, { role: 'editor' });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect((await me(phoneA)).status).toBe(401);
    expect((await me(phoneB)).status).toBe(401);

    await api.db.execute(sql`update phone_codes set created_at = created_at - interval '1 minute' where phone = ${member.phone}`);
    const again = (await signIn(api, member)).cookie!;
    expect((await (await me(again)).json()) as StaffDto).toMatchObject({ role: 'editor' });
    expect((await api.grocer('DELETE', `Staff/${member.id}`)).status).toBe(200);
    expect((await me(again)).status).toBe(401);
    // A removed member's number is nobody's: the same answer as any other.
    expect((await requestCode(api, member.phone)).status).toBe(202);
  });
});

describe('the staff cookie and the shoppers’ tokens stay apart', () => {
  it('never accepts a staff cookie on a shopper’s call', async () => {
    const { cookie } = await signedIn(api, 'owner');
    const headers = { origin: 'https://shop.example.in', cookie: `${STAFF_COOKIE}=${cookie}` };
    for (const [method, path, body] of [
      ['GET', '/api/app/Users/Me', undefined],
      ['GET', '/api/app/Carts/GetTotalCart/0', undefined],
      ['GET', '/api/app/Orders/GetOrdersByUser/0', undefined],
      ['POST', '/api/app/Carts', { productsId: 1, productVariantsId: 0, qty: 1 }],
      ['GET', '/api/app/Wishlists/GetWishlistByUser/0', undefined],
    ] as const) {
      const res = await api.call(method, path, { body, headers });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    // With a shopper's token too, the shopper is who the call is for.
    const shopper = await api.register();
    const mine = await api.call('GET', '/api/app/Users/Me', { token: shopper.token, headers });
    expect(((await mine.json()) as { id: number }).id).toBe(shopper.user.id);
  });

  it('refuses a shopper’s token on the back office, even beside a staff cookie', async () => {
    const shopper = await api.register();
    const { cookie } = await signedIn(api, 'owner');
    for (const headers of [{}, { cookie: `${STAFF_COOKIE}=${cookie}` }] as Record<string, string>[]) {
      const res = await api.call('GET', '/api/grocer/Orders', { token: shopper.token, headers });
      expect(res.status).toBe(403);
    }
  });
});
