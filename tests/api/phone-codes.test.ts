// One-time codes by text message (issue 22): registering, signing in without a password, answers that reveal nothing,
// and the code's life: 6 digits, 5 minutes, 5 tries, a new one after 30 s, kept as an HMAC.
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import { phoneCodes } from '../../src/server/db/schema.ts';
import { errorOf, newShopper, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    products: 10,
    authLimits: { perAddress: { writes: 100, windowSeconds: 600 }, perAccount: { writes: 10, windowSeconds: 600 } },
  });
});
afterAll(async () => api?.close());

const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip });
const post = (path: string, body: unknown, ip = '10.50.0.1') => api.call('POST', path, { body, headers: from(ip) });
const verify = (phone: string, code: string, ip?: string) => post('/api/Authenticate/VerifyCode', { phone, code }, ip);
/** Lets the number ask for a new code at once, as 30 s later. */
const age = (phone: string) => api.db.update(phoneCodes).set({ createdAt: sql`now() - interval '31 seconds'` }).where(eq(phoneCodes.phone, phone));

describe('answers that reveal nothing', () => {
  it('answers Register alike for a new shopper, a taken email and a taken number', async () => {
    const existing = await api.register();
    await age(existing.user.phone);
    const answers: Array<{ status: number; body: { message: string }; phone: string }> = [];
    for (const shopper of [
      newShopper({ phone: '9000000001' }),
      newShopper({ phone: '9000000002', email: existing.user.email }),
      newShopper({ phone: existing.user.phone }),
    ]) {
      const res = await post('/api/Authenticate/Register', shopper);
      answers.push({ status: res.status, body: (await res.json()) as { message: string }, phone: shopper.phone });
    }
    const strip = ({ status, body }: (typeof answers)[number]) => ({ status, message: body.message.replace(/\+91 \d\d•••••\d{3}/, 'PHONE') });
    expect(answers.map(strip)).toEqual(Array(3).fill({ status: 202, message: 'We have sent a 6-digit code to PHONE. Enter it to finish.' }));
  });

  it('answers RequestCode alike for a number with an account and one without, and texts only the account', async () => {
    const shopper = await api.register();
    await age(shopper.user.phone);
    const unknown = await post('/api/Authenticate/RequestCode', { phone: '9111100000' });
    const known = await post('/api/Authenticate/RequestCode', { phone: shopper.user.phone });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    const mask = (body: unknown) => JSON.stringify(body).replace(/\+91 \d\d•••••\d{3}/g, 'PHONE');
    expect(mask(await known.json())).toBe(mask(await unknown.json()));
    // The unknown number was asked for first: had it been texted, its file would be in the outbox before the known's.
    await api.codeTo(shopper.user.phone);
    expect(fs.readdirSync(api.smsOutbox).filter((f) => f.endsWith('-9111100000.txt'))).toEqual([]);
    // The 30 s wait is the number's, account or not: it tells nothing either.
    const again = await post('/api/Authenticate/RequestCode', { phone: '9111100000' });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(25);
  });
});

describe('signing in with a code', () => {
  it('signs in with the code texted to the number, and keeps it as an HMAC, never the code', async () => {
    const shopper = await api.register();
    await age(shopper.user.phone);
    expect((await post('/api/Authenticate/RequestCode', { phone: `+91 ${shopper.user.phone}` })).status).toBe(202);
    const otp = await api.codeTo(shopper.user.phone);
    expect(otp).toMatch(/^\d{6}$/);
    const rows = await api.db.select({ codeHash: phoneCodes.codeHash }).from(phoneCodes).where(eq(phoneCodes.phone, shopper.user.phone));
    for (const row of rows) expect(row.codeHash).not.toContain(otp);
    const res = await verify(shopper.user.phone, `${otp.slice(0, 3)} ${otp.slice(3)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as SessionDto).user.id).toBe(shopper.user.id);
    // Once only.
    expect((await verify(shopper.user.phone, otp)).status).toBe(400);
  });

  it('signs the owner in by code while someone guessing their password has locked password sign-in', async () => {
    const owner = await api.register();
    // Ten wrong passwords, each from another address.
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/Authenticate/Login', { login: owner.user.email, password: 'guess-guess-1' }, `10.60.0.${i}`)).status).toBe(401);
    }
    const locked = await post('/api/Authenticate/Login', { login: owner.user.email, password: owner.password }, '10.60.9.9');
    expect(locked.status).toBe(429);
    expect((await errorOf(locked)).message).toMatch(/Or sign in with a code sent to your mobile number\.$/);
    await age(owner.user.phone);
    expect((await post('/api/Authenticate/RequestCode', { phone: owner.user.phone }, '10.60.9.9')).status).toBe(202);
    const otp = await api.codeTo(owner.user.phone);
    const res = await verify(owner.user.phone, otp, '10.60.9.9');
    expect(res.status).toBe(200);
    expect(((await res.json()) as SessionDto).user.id).toBe(owner.user.id);
  });

  it('counts successful password sign-ins of an account too', async () => {
    const shopper = await api.register();
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/Authenticate/Login', { login: shopper.user.email, password: shopper.password }, `10.61.0.${i}`)).status).toBe(200);
    }
    expect((await post('/api/Authenticate/Login', { login: shopper.user.email, password: shopper.password }, '10.61.0.9')).status).toBe(429);
  });
});

describe("a code's life", () => {
  async function freshCode(): Promise<{ phone: string; otp: string }> {
    const shopper = await api.register();
    await age(shopper.user.phone);
    await post('/api/Authenticate/RequestCode', { phone: shopper.user.phone });
    return { phone: shopper.user.phone, otp: await api.codeTo(shopper.user.phone) };
  }
  const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

  it('ends a code after five wrong tries, the right one included after', async () => {
    const { phone, otp } = await freshCode();
    for (let i = 0; i < 5; i++) {
      const res = await verify(phone, wrong(otp), `10.62.0.${i}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('That code is not right, or it has expired. Please check it, or ask for a new one.');
    }
    expect((await verify(phone, otp, '10.62.1.1')).status).toBe(400);
  });

  it('takes four wrong tries and then the right code', async () => {
    const { phone, otp } = await freshCode();
    for (let i = 0; i < 4; i++) expect((await verify(phone, wrong(otp), `10.63.0.${i}`)).status).toBe(400);
    expect((await verify(phone, otp, '10.63.1.1')).status).toBe(200);
  });

  it('ends a code after five minutes, and an older code when a new one is sent', async () => {
    const { phone, otp } = await freshCode();
    const [row] = await api.db.select({ life: sql<number>`extract(epoch from expires_at - created_at)::int` }).from(phoneCodes).where(eq(phoneCodes.phone, phone)).orderBy(sql`id desc`).limit(1);
    expect(row!.life).toBe(300);
    await api.db.update(phoneCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(phoneCodes.phone, phone));
    expect((await verify(phone, otp, '10.64.0.1')).status).toBe(400);

    const second = await freshCode();
    await age(second.phone);
    await post('/api/Authenticate/RequestCode', { phone: second.phone });
    const newer = await api.codeTo(second.phone);
    if (newer !== second.otp) expect((await verify(second.phone, second.otp, '10.64.0.2')).status).toBe(400);
    expect((await verify(second.phone, newer, '10.64.0.3')).status).toBe(200);
  });

  it('refuses a code that is not six digits with a 400 naming the field', async () => {
    const res = await verify('9876500000', '12345');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('code must be the 6 digits of the text message');
  });
});
