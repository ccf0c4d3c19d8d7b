// Accounts over HTTP: registration, sign-in, tokens (and attacks on them), refresh rotation, sign-out, profile.
import { eq, sql } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeSentDto, ProfileSavedDto, SessionDto, UserDto } from '../../src/server/account-schemas.ts';
import { phoneCodes, refreshTokens, users } from '../../src/server/db/schema.ts';
import { errorOf, newShopper, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 10 });
});
afterAll(async () => api?.close());

const me = (token: string) => api.call('GET', '/api/app/Users/Me', { token });
const login = (login: string, password: string) => api.call('POST', '/api/Authenticate/Login', { body: { login, password } });
const refresh = (refreshToken: string, expiredToken = '') =>
  api.call('POST', '/api/Authenticate/RefreshToken', { body: { expiredToken, refreshToken } });
const secretKey = () => new TextEncoder().encode(api.jwtSecret);

describe('POST /api/Authenticate/Register', () => {
  it('opens an account once the code texted to the phone comes back, and never answers the password or its hash', async () => {
    const shopper = newShopper({ email: 'Asha.Patel@Example.in', phone: '+91 98450-12345' });
    const res = await api.call('POST', '/api/Authenticate/Register', { body: shopper });
    expect(res.status).toBe(202);
    const sent = (await res.json()) as CodeSentDto;
    expect(sent).toEqual({
      challenge: expect.stringMatching(/^[\w-]{32}$/),
      message: 'We have sent a 6-digit code to +91 98•••••345. Enter it to finish.',
      phone: '+91 98•••••345',
      resendAfterSeconds: 30,
      codeMinutes: 5,
    });
    // No account until the code comes back.
    expect(await api.db.select().from(users).where(eq(users.phone, '9845012345'))).toEqual([]);
    const text = await api.textTo('9845012345');
    expect(text.text).toMatch(/^\d{6} is your Kirana code to finish opening your account/);
    const verified = await api.call('POST', '/api/Authenticate/VerifyCode', { body: { phone: shopper.phone, code: text.variables.otp, challenge: sent.challenge } });
    expect(verified.status).toBe(200);
    const session = (await verified.json()) as SessionDto;
    expect(session.user).toEqual({ id: expect.any(Number), name: shopper.name, email: 'Asha.Patel@Example.in', phone: '9845012345', phoneVerified: true, smsNotices: true, pincode: null });
    expect(JSON.stringify(session)).not.toContain(shopper.password);
    expect(decodeProtectedHeader(session.token).alg).toBe('HS256');
    const claims = decodeJwt(session.token);
    expect(claims.user_id).toBe(session.user.id);
    expect(claims.exp! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(15 * 60);
    expect(claims.exp! - Math.floor(Date.now() / 1000)).toBeGreaterThan(14 * 60);
    expect((await me(session.token)).status).toBe(200);
    const [row] = await api.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, session.user.id));
    expect(row!.hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row!.hash).not.toContain(shopper.password);
    // The password chosen at registration signs in.
    expect((await api.call('POST', '/api/Authenticate/Login', { body: { login: '9845012345', password: shopper.password } })).status).toBe(200);
  });

  it('never opens a second account with the same email in any letter case, or the same phone', async () => {
    const first = await api.register();
    const sameEmail = newShopper({ email: first.user.email.toUpperCase() });
    const registered = await api.call('POST', '/api/Authenticate/Register', { body: sameEmail });
    expect(registered.status).toBe(202);
    const { challenge } = (await registered.json()) as CodeSentDto;
    // The email's owner hears of it; the code for the new number cannot open a second account with that email.
    expect((await api.mailTo(first.user.email)).subject).toBe('Someone tried to open a Kirana account with your email');
    const code = await api.codeTo(sameEmail.phone);
    const refused = await api.call('POST', '/api/Authenticate/VerifyCode', { body: { phone: sameEmail.phone, code, challenge } });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toMatch(/^An account with this email already exists/);
    // The number's owner gets a sign-in code, which signs in the account that has the number (once the 30 s since
    // the registration's code have passed).
    await api.db.update(phoneCodes).set({ createdAt: sql`now() - interval '31 seconds'` }).where(eq(phoneCodes.phone, first.user.phone));
    const again = await api.call('POST', '/api/Authenticate/Register', { body: newShopper({ phone: `0${first.user.phone}` }) });
    expect(again.status).toBe(202);
    const signInChallenge = ((await again.json()) as CodeSentDto).challenge;
    const signIn = await api.textTo(first.user.phone);
    expect(signIn.text).toMatch(/you already have one/);
    const session = await api.call('POST', '/api/Authenticate/VerifyCode', { body: { phone: first.user.phone, code: signIn.variables.otp, challenge: signInChallenge } });
    expect(((await session.json()) as SessionDto).user).toEqual(first.user);
    expect(await api.db.select({ id: users.id }).from(users).where(eq(users.phone, first.user.phone))).toHaveLength(1);
  });

  it.each([
    [{ password: 'password1' }, /most common/],
    [{ password: 'Iloveyou' }, /most common/],
    [{ password: 'short' }, /^password must be at least 8 characters$/],
    [{ phone: '12345' }, /^phone must be a 10-digit Indian mobile number$/],
    [{ email: 'not-an-email' }, /^email must be a valid email address$/],
  ])('refuses %o with 400', async (overrides, message) => {
    const res = await api.call('POST', '/api/Authenticate/Register', { body: newShopper(overrides) });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(message);
  });
});

describe('POST /api/Authenticate/Login', () => {
  it('signs in with the email in any case or with the phone as typed', async () => {
    const shopper = await api.register();
    for (const name of [shopper.user.email.toUpperCase(), shopper.user.phone, `+91 ${shopper.user.phone}`]) {
      const res = await login(name, shopper.password);
      expect(res.status).toBe(200);
      expect(((await res.json()) as SessionDto).user).toEqual(shopper.user);
    }
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const shopper = await api.register();
    const wrong = await login(shopper.user.email, 'not-the-password');
    const unknown = await login('nobody@example.in', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });
});

describe('access tokens', () => {
  let session: SessionDto & { password: string };
  beforeAll(async () => {
    session = await api.register();
  });

  const refused = async (token: string) => {
    const res = await me(token);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  };

  it('refuses no token and a malformed one', async () => {
    expect((await api.call('GET', '/api/app/Users/Me')).status).toBe(401);
    await refused('not.a.jwt');
    await refused('abc');
  });

  it("refuses alg none carrying the user's own claims", async () => {
    const claims = decodeJwt(session.token);
    await refused(new UnsecuredJWT({ ...claims }).setExpirationTime('10m').encode());
  });

  it('refuses a token signed with another algorithm, even with our secret (HS512)', async () => {
    const claims = decodeJwt(session.token);
    const hs512 = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS512' }).sign(secretKey());
    await refused(hs512);
    // An RS256 header over an HMAC of our secret: the "public key as HMAC secret" confusion.
    const [, payload, signature] = session.token.split('.');
    const rsHeader = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
    await refused(`${rsHeader}.${payload}.${signature}`);
  });

  it('refuses a tampered payload and a token signed with another secret', async () => {
    const [header, payload, signature] = session.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, user_id: 1 })).toString('base64url');
    await refused(`${header}.${forged}.${signature}`);
    const other = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40)));
    await refused(other);
  });

  it('refuses a token past its exp', async () => {
    const claims = decodeJwt(session.token);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }).setProtectedHeader({ alg: 'HS256' }).sign(secretKey());
    await refused(expired);
  });
});

describe('POST /api/Authenticate/RefreshToken', () => {
  it('trades a refresh token once for a new pair, in the same sign-in', async () => {
    const first = await api.register();
    const res = await refresh(first.refreshToken, first.token);
    expect(res.status).toBe(200);
    const second = (await res.json()) as SessionDto;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.user).toEqual(first.user);
    expect((await me(second.token)).status).toBe(200);
    // Stored hashed: the token itself is nowhere in the table.
    const stored = await api.db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens).where(eq(refreshTokens.userId, first.user.id));
    expect(stored.map((r) => r.hash)).not.toContain(second.refreshToken);
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
  });

  it('ends the whole sign-in when a used refresh token comes back', async () => {
    const stolen = await api.register();
    const shopper = (await (await refresh(stolen.refreshToken)).json()) as SessionDto;
    const reuse = await refresh(stolen.refreshToken);
    expect(reuse.status).toBe(401);
    expect((await errorOf(reuse)).code).toBe('unauthorized');
    // The shopper's newer tokens of that sign-in stop working too.
    expect((await refresh(shopper.refreshToken)).status).toBe(401);
    expect((await me(shopper.token)).status).toBe(401);
  });

  it('keeps other sign-ins of the same shopper', async () => {
    const phone = await api.register();
    const laptop = (await (await login(phone.user.email, phone.password)).json()) as SessionDto;
    await refresh(phone.refreshToken);
    expect((await refresh(phone.refreshToken)).status).toBe(401);
    expect((await me(laptop.token)).status).toBe(200);
    expect((await refresh(laptop.refreshToken)).status).toBe(200);
  });

  it("refuses an unknown or expired refresh token, and another shopper's expired token beside it", async () => {
    expect((await refresh('made-up-token')).status).toBe(401);
    const a = await api.register();
    const b = await api.register();
    expect((await refresh(a.refreshToken, b.token)).status).toBe(401);
    await api.db.update(refreshTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(refreshTokens.userId, a.user.id));
    expect((await refresh(a.refreshToken, a.token)).status).toBe(401);
  });
});

describe('POST /api/Authenticate/Logout', () => {
  it('revokes the refresh token and its access token, and answers 204 for an unknown one', async () => {
    const session = await api.register();
    const res = await api.call('POST', '/api/Authenticate/Logout', { body: { refreshToken: session.refreshToken } });
    expect(res.status).toBe(204);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await me(session.token)).status).toBe(401);
    expect((await api.call('POST', '/api/Authenticate/Logout', { body: { refreshToken: 'unknown' } })).status).toBe(204);
  });
});

describe('POST /api/Authenticate/ChangePassword', () => {
  it('needs the current password, signs out every other session and signs this one in anew', async () => {
    const here = await api.register();
    const elsewhere = (await (await login(here.user.email, here.password)).json()) as SessionDto;
    const change = (currentPassword: string, newPassword: string) =>
      api.call('POST', '/api/Authenticate/ChangePassword', { token: here.token, body: { currentPassword, newPassword } });
    const wrong = await change('not-it-at-all', 'curry-leaves-2024');
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toBe('The current password is not right');
    expect((await change(here.password, 'password123')).status).toBe(400);
    const res = await change(here.password, 'curry-leaves-2024');
    expect(res.status).toBe(200);
    const renewed = (await res.json()) as SessionDto;
    expect((await me(renewed.token)).status).toBe(200);
    expect((await me(elsewhere.token)).status).toBe(401);
    expect((await refresh(elsewhere.refreshToken)).status).toBe(401);
    expect((await login(here.user.email, here.password)).status).toBe(401);
    expect((await login(here.user.email, 'curry-leaves-2024')).status).toBe(200);
  });
});

describe('/api/app/Users/Me', () => {
  it('changes the name at once, and the number only when the code texted to the new number comes back', async () => {
    const session = await api.register();
    expect(await (await me(session.token)).json()).toEqual(session.user);
    const res = await api.call('PUT', '/api/app/Users/Me', { token: session.token, body: { name: 'Meera K. Iyer', phone: '7012345678' } });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as ProfileSavedDto;
    expect(saved).toEqual({ ...session.user, name: 'Meera K. Iyer', codeSent: expect.objectContaining({ phone: '+91 70•••••678' }) });
    // Not the account's number yet: a number nobody proved cannot be claimed.
    expect(await (await me(session.token)).json()).toEqual({ ...session.user, name: 'Meera K. Iyer' });
    const verified = await api.call('POST', '/api/app/Users/Me/VerifyPhone', { token: session.token, body: { code: await api.codeTo('7012345678') } });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ ...session.user, name: 'Meera K. Iyer', phone: '7012345678', phoneVerified: true });
  });

  it("answers alike for another account's number, texts it nothing, and never moves it", async () => {
    const a = await api.register();
    const b = await api.register();
    const taken = await api.call('PUT', '/api/app/Users/Me', { token: b.token, body: { name: b.user.name, phone: a.user.phone } });
    const free = await api.call('PUT', '/api/app/Users/Me', { token: b.token, body: { name: b.user.name, phone: '7012340000' } });
    const mask = async (r: Response) =>
      JSON.stringify(await r.json()).replace(/\+91 \d\d•••••\d{3}/g, 'PHONE').replace(/"challenge":"[\w-]+"/, '"challenge":"C"');
    expect([taken.status, await mask(taken)]).toEqual([free.status, await mask(free)]);
    await api.codeTo('7012340000');
    // The newest code of b's is the free number's; no code to a's number was made for b that could be guessed either.
    const rows = await api.db.select({ phone: phoneCodes.phone }).from(phoneCodes).where(eq(phoneCodes.userId, b.user.id));
    expect(rows.map((r) => r.phone)).toContain(a.user.phone);
    expect(((await (await me(b.token)).json()) as UserDto).phone).toBe(b.user.phone);
  });

  it('keeps a number verified when only the name changes', async () => {
    const session = await api.register();
    const res = await api.call('PUT', '/api/app/Users/Me', { token: session.token, body: { name: 'Meera K. Iyer', phone: session.user.phone } });
    expect(((await res.json()) as UserDto).phoneVerified).toBe(true);
  });
});

it('documents the account calls with a bearer scheme in /api/openapi.json', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security?: unknown }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const path of ['/api/Authenticate/Register', '/api/Authenticate/Login', '/api/Authenticate/RefreshToken', '/api/Authenticate/ResetPassword']) {
    expect(doc.paths[path]?.post).toBeDefined();
  }
  expect(doc.paths['/api/app/Users/Me']?.get?.security).toEqual([{ bearer: [] }]);
  expect(doc.paths['/api/app/Carts/GetCartsByUser/{userId}']?.get?.security).toEqual([{ bearer: [] }]);
});
