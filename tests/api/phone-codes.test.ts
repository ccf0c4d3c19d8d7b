// One-time codes by text message (issue 22): registering, signing in without a password, answers that reveal nothing,
// and the code's life: 6 digits, 5 minutes, 5 tries per request, a request after 30 s, one live code per number, kept as
// an HMAC. Issue 32: what a patient attacker tried against them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import type { CodeSentDto, SessionDto } from '../../src/server/account-schemas.ts';
import { phoneCodes, users } from '../../src/server/db/schema.ts';
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
const verify = (phone: string, code: string, challenge: string, ip?: string) => post('/api/Authenticate/VerifyCode', { phone, code, challenge }, ip);
/** Asks for a sign-in code and gives back the answer's challenge. */
async function requestCode(phone: string, ip?: string): Promise<string> {
  const res = await post('/api/Authenticate/RequestCode', { phone }, ip);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as CodeSentDto).challenge;
}
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
    const mask = (body: unknown) => JSON.stringify(body).replace(/\+91 \d\d•••••\d{3}/g, 'PHONE').replace(/"challenge":"[\w-]+"/, '"challenge":"C"');
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
    const challenge = await requestCode(`+91 ${shopper.user.phone}`);
    const otp = await api.codeTo(shopper.user.phone);
    expect(otp).toMatch(/^\d{6}$/);
    const rows = await api.db.select({ codeHash: phoneCodes.codeHash }).from(phoneCodes).where(eq(phoneCodes.phone, shopper.user.phone));
    for (const row of rows) expect(row.codeHash).not.toContain(otp);
    const res = await verify(shopper.user.phone, `${otp.slice(0, 3)} ${otp.slice(3)}`, challenge);
    expect(res.status).toBe(200);
    expect(((await res.json()) as SessionDto).user.id).toBe(shopper.user.id);
    // Once only.
    expect((await verify(shopper.user.phone, otp, challenge)).status).toBe(400);
  });

  it('keeps the owner in while a third party guesses their password from network after network', async () => {
    const owner = await api.register();
    // Ten wrong passwords from one network lock that network out of this account, and no one else.
    for (let i = 0; i < 10; i++) {
      expect((await post('/api/Authenticate/Login', { login: owner.user.email, password: 'guess-guess-1' }, `10.60.0.${i}`)).status).toBe(401);
    }
    const locked = await post('/api/Authenticate/Login', { login: owner.user.email, password: 'guess-guess-1' }, '10.60.0.99');
    expect(locked.status).toBe(429);
    expect((await errorOf(locked)).message).toMatch(/Or sign in with a code sent to your mobile number\.$/);
    // Forty more from forty networks reach the account's ceiling of 50 failures; past it every network that failed is
    // refused, but the owner's own network, which never failed, signs in.
    for (let i = 1; i <= 40; i++) {
      expect((await post('/api/Authenticate/Login', { login: owner.user.email, password: 'guess-guess-1' }, `10.60.${i}.1`)).status).toBe(401);
    }
    expect((await post('/api/Authenticate/Login', { login: owner.user.email, password: owner.password }, '10.60.7.1')).status).toBe(429);
    expect((await post('/api/Authenticate/Login', { login: owner.user.email, password: owner.password }, '10.99.0.1')).status).toBe(200);
    // And so does a code sent to the owner's number.
    await age(owner.user.phone);
    const challenge = await requestCode(owner.user.phone, '10.99.0.1');
    const res = await verify(owner.user.phone, await api.codeTo(owner.user.phone), challenge, '10.99.0.1');
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
  async function freshCode(): Promise<{ phone: string; otp: string; challenge: string }> {
    const shopper = await api.register();
    await age(shopper.user.phone);
    // The registration's code is spent: this request gets a new one.
    const challenge = await requestCode(shopper.user.phone);
    return { phone: shopper.user.phone, otp: await api.codeTo(shopper.user.phone), challenge };
  }
  const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

  it('ends a code after five wrong tries, the right one included after', async () => {
    const { phone, otp, challenge } = await freshCode();
    for (let i = 0; i < 5; i++) {
      const res = await verify(phone, wrong(otp), challenge, `10.62.0.${i}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('That code is not right, or it has expired. Please check it, or ask for a new one.');
    }
    expect((await verify(phone, otp, challenge, '10.62.1.1')).status).toBe(400);
  });

  it('takes four wrong tries and then the right code', async () => {
    const { phone, otp, challenge } = await freshCode();
    for (let i = 0; i < 4; i++) expect((await verify(phone, wrong(otp), challenge, `10.63.0.${i}`)).status).toBe(400);
    expect((await verify(phone, otp, challenge, '10.63.1.1')).status).toBe(200);
  });

  it('ends a code after five minutes; a request while it lives gets the same code, and the first still works', async () => {
    const { phone, otp, challenge } = await freshCode();
    const [row] = await api.db.select({ life: sql<number>`extract(epoch from expires_at - created_at)::int` }).from(phoneCodes).where(eq(phoneCodes.phone, phone)).orderBy(sql`id desc`).limit(1);
    expect(row!.life).toBe(300);
    await api.db.update(phoneCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(phoneCodes.phone, phone));
    expect((await verify(phone, otp, challenge, '10.64.0.1')).status).toBe(400);

    const second = await freshCode();
    await age(second.phone);
    const again = await requestCode(second.phone, '10.64.0.9');
    expect(await api.codeTo(second.phone)).toBe(second.otp);
    // The first request's code was not voided by the second: its owner finishes with it.
    expect((await verify(second.phone, second.otp, second.challenge, '10.64.0.2')).status).toBe(200);
    // Used once, for every request it was sent to.
    expect((await verify(second.phone, second.otp, again, '10.64.0.3')).status).toBe(400);
  });

  it('refuses a code that is not six digits with a 400 naming the field', async () => {
    const res = await verify('9876500000', '12345', 'x'.repeat(32));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('code must be the 6 digits of the text message');
  });
});

describe('a patient attacker (issue 32)', () => {
  it('finishes only the registration a code was sent for: a second registration of the number takes nothing over', async () => {
    const victim = newShopper({ phone: '9123400001', email: 'victim.32@example.in' });
    const first = await post('/api/Authenticate/Register', victim, '10.70.0.1');
    const victimChallenge = ((await first.json()) as CodeSentDto).challenge;
    const code1 = await api.codeTo(victim.phone);
    await age(victim.phone);
    // The attacker registers the same number with their own email and password.
    const attacker = newShopper({ phone: victim.phone, email: 'attacker.32@example.in', password: 'mango-pickle-97' });
    const second = await post('/api/Authenticate/Register', attacker, '10.71.0.1');
    expect(second.status).toBe(202);
    const attackerChallenge = ((await second.json()) as CodeSentDto).challenge;
    // The victim's phone gets a second text, and it carries the same code: nothing to mix up.
    const code2 = await api.codeTo(victim.phone);
    expect(code2).toBe(code1);
    const res = await verify(victim.phone, code2, victimChallenge, '10.70.0.1');
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as SessionDto;
    expect(user).toMatchObject({ email: victim.email, name: victim.name, phone: victim.phone, phoneVerified: true });
    // The account holds only what the victim gave: the attacker's password signs nobody in, their email has no account,
    // and their registration cannot be finished with the code spent.
    expect((await post('/api/Authenticate/Login', { login: victim.phone, password: attacker.password }, '10.71.0.1')).status).toBe(401);
    expect((await post('/api/Authenticate/Login', { login: victim.phone, password: victim.password }, '10.70.0.1')).status).toBe(200);
    expect(await api.db.select({ id: users.id }).from(users).where(eq(users.email, attacker.email))).toEqual([]);
    expect((await verify(victim.phone, code2, attackerChallenge, '10.71.0.1')).status).toBe(400);
  });

  it('cannot burn the code its owner asked for, however often a third party asks and guesses', async () => {
    const owner = await api.register();
    await age(owner.user.phone);
    const ownerChallenge = await requestCode(owner.user.phone, '10.72.0.1');
    const otp = await api.codeTo(owner.user.phone);
    const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
    // Three rounds: the attacker asks for the owner's code again (30 s apart) and spends its five tries from five
    // addresses of other networks each time.
    for (let round = 0; round < 3; round++) {
      await age(owner.user.phone);
      const attackerChallenge = await requestCode(owner.user.phone, `10.73.${round}.1`);
      expect(await api.codeTo(owner.user.phone)).toBe(otp);
      // Refused each time: a wrong code (400), or, once the number's ceiling of wrong codes is reached, a network that
      // already failed on it (429).
      const refused = [400, 429];
      for (let i = 0; i < 5; i++) expect(refused).toContain((await verify(owner.user.phone, wrong, attackerChallenge, `10.74.${round * 5 + i}.1`)).status);
      expect(refused).toContain((await verify(owner.user.phone, otp, attackerChallenge, '10.74.99.1')).status);
      // Guessing the owner's request without its challenge is guessing nothing.
      expect(refused).toContain((await verify(owner.user.phone, otp, 'y'.repeat(32), '10.74.98.1')).status);
    }
    const res = await verify(owner.user.phone, otp, ownerChallenge, '10.72.0.1');
    expect(res.status).toBe(200);
    expect(((await res.json()) as SessionDto).user.id).toBe(owner.user.id);
  });

  it("counts wrong codes per number from each network, and past the number's ceiling refuses only networks that failed", async () => {
    const owner = await api.register();
    const guess = async (ip: string) => {
      await age(owner.user.phone);
      const challenge = await requestCode(owner.user.phone, ip);
      const otp = await api.codeTo(owner.user.phone);
      const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
      return (await verify(owner.user.phone, wrong, challenge, ip)).status;
    };
    // One network: 10 wrong codes for the number an hour (two requests' tries), then 429.
    const oneNetwork = [];
    for (let i = 0; i < 11; i++) oneNetwork.push(await verify(owner.user.phone, '000000', 'z'.repeat(32), `10.75.0.${i}`).then((r) => r.status));
    expect(oneNetwork).toEqual([...Array(10).fill(400), 429]);
    // Ten more networks take the number to its ceiling of 20 a day; a network that failed is refused from then on.
    for (let i = 1; i <= 10; i++) expect((await verify(owner.user.phone, '000000', 'z'.repeat(32), `10.76.${i}.1`)).status).toBe(400);
    expect((await verify(owner.user.phone, '000000', 'z'.repeat(32), '10.76.3.1')).status).toBe(429);
    // The owner, from a network that never guessed wrong, still signs in with the code.
    expect(await guess('10.77.0.1')).toBe(400); // one wrong try of the owner's own is still answered
    await age(owner.user.phone);
    const challenge = await requestCode(owner.user.phone, '10.78.0.1');
    expect((await verify(owner.user.phone, await api.codeTo(owner.user.phone), challenge, '10.78.0.1')).status).toBe(200);
  });

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const statuses = [];
    for (let i = 1; i <= 101; i++) {
      statuses.push((await post('/api/Authenticate/Login', { login: `nobody${i}@example.in`, password: 'guess-guess-1' }, `2001:db8:32:1::${i.toString(16)}`)).status);
    }
    // This file's limit per address is 100 failures.
    expect(statuses.slice(0, 100).every((s) => s === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
    // Another /64 is another subscriber.
    expect((await post('/api/Authenticate/Login', { login: 'nobody@example.in', password: 'guess-guess-1' }, '2001:db8:32:2::1')).status).toBe(401);
  });

  it('stops code sign-in for a number that an account opened with another\'s email kept, once the email\'s owner resets', async () => {
    // The attacker opens an account with the victim's email and the attacker's own number.
    const planted = await api.register({ email: 'planted.32@example.in', phone: '9123400077' });
    // The email's owner chooses a new password by the mailed link, and uses the account.
    await post('/api/Authenticate/ForgotPassword', { email: 'planted.32@example.in' }, '10.79.0.1');
    const { link } = await api.mailTo('planted.32@example.in');
    const token = new URL(link!).searchParams.get('token');
    expect((await post('/api/Authenticate/ResetPassword', { token, password: 'jasmine-tea-310' }, '10.79.0.1')).status).toBe(200);
    // The attacker's number no longer signs that account in: no code is texted, and none finishes a sign-in.
    await age(planted.user.phone);
    const challenge = await requestCode(planted.user.phone, '10.80.0.1');
    const [row] = await api.db.select({ userId: phoneCodes.userId }).from(phoneCodes).where(eq(phoneCodes.challengeHash, createHash('sha256').update(challenge).digest('hex')));
    expect(row!.userId).toBeNull();
    const [account] = await api.db.select({ verified: users.phoneVerifiedAt, emailVerified: users.emailVerifiedAt }).from(users).where(eq(users.id, planted.user.id));
    expect(account!.verified).toBeNull();
    expect(account!.emailVerified).not.toBeNull();
  });
});

describe('texts a third party can make the shop send (issue 32)', () => {
  let small: TestApi;
  beforeAll(async () => {
    small = await startTestApi({
      products: 5,
      authLimits: {
        perAddress: { writes: 1000, windowSeconds: 900 },
        perAccount: { writes: 1000, windowSeconds: 900 },
        textsPerAccount: { writes: 3, windowSeconds: 3600 },
        textsPerHour: 12,
      },
    });
  });
  afterAll(async () => small?.close());

  it('limits the codes one signed-in account may have texted to new numbers', async () => {
    const shopper = await small.register();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await small.call('PUT', '/api/app/Users/Me', { token: shopper.token, body: { name: shopper.user.name, phone: `700000010${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('stops texting past the shop-wide hourly limit, and raises an alarm in the log', async () => {
    const statuses = [];
    // Fresh numbers from fresh networks, as a pumping script would: each costs the shop a text.
    for (let i = 0; i < 12; i++) {
      const res = await small.call('POST', '/api/Authenticate/Register', { body: newShopper({ phone: `71000002${String(i).padStart(2, '0')}` }), headers: from(`10.81.${i}.1`) });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(12 - 4); // 4 texts went to the tests above
    const alarms = small.takeErrors().map(String);
    expect(alarms.some((e) => /ALARM: the shop has sent 12 code texts this hour/.test(e))).toBe(true);
  });
});
