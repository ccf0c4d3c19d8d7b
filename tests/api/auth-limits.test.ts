// Register, Login, RefreshToken and ForgotPassword: limited per address and per account, 429 with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER } from '../../src/lib/api/headers.ts';
import { errorOf, newShopper, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    products: 10,
    authLimits: { perAddress: { writes: 4, windowSeconds: 600 }, perAccount: { writes: 2, windowSeconds: 600 } },
  });
});
afterAll(async () => api?.close());

const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip });
const post = (path: string, body: unknown, ip: string) => api.call('POST', path, { body, headers: from(ip) });

async function expectLimited(res: Response, what: RegExp) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  const error = await errorOf(res);
  expect(error.code).toBe('too_many_requests');
  expect(error.message).toMatch(what);
}

describe('rate limits of the account calls', () => {
  it('limits sign-in attempts per account from one network, whatever the address', async () => {
    const shopper = await api.register();
    const attempt = (ip: string) => post('/api/Authenticate/Login', { login: shopper.user.email, password: 'guess-guess-1' }, ip);
    expect((await attempt('10.2.0.1')).status).toBe(401);
    expect((await attempt('10.2.0.2')).status).toBe(401);
    await expectLimited(await attempt('10.2.0.3'), /^Too many sign-in attempts/);
    // The same email in other letters is the same account.
    await expectLimited(await post('/api/Authenticate/Login', { login: shopper.user.email.toUpperCase(), password: 'x' }, '10.2.0.4'), /sign-in/);
  });

  it('limits sign-in attempts per address, whatever the account', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/Authenticate/Login', { login: `someone${i}@example.in`, password: 'guess-guess-1' }, '10.3.0.1')).status).toBe(401);
    }
    await expectLimited(await post('/api/Authenticate/Login', { login: 'someone9@example.in', password: 'guess-guess-1' }, '10.3.0.1'), /sign-in/);
    expect((await post('/api/Authenticate/Login', { login: 'someone9@example.in', password: 'guess-guess-1' }, '10.3.0.2')).status).toBe(401);
  });

  it('limits registrations per address', async () => {
    for (let i = 0; i < 4; i++) expect((await post('/api/Authenticate/Register', newShopper(), '10.4.0.1')).status).toBe(202);
    await expectLimited(await post('/api/Authenticate/Register', newShopper(), '10.4.0.1'), /^Too many registrations/);
  });

  it('limits password reset requests per email', async () => {
    const email = 'limited@example.in';
    expect((await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.1')).status).toBe(202);
    expect((await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.2')).status).toBe(202);
    await expectLimited(await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.3'), /^Too many password reset requests/);
    // Issue 32: counted per email from each network, so the email's owner elsewhere still gets a link.
    expect((await post('/api/Authenticate/ForgotPassword', { email }, '10.15.0.1')).status).toBe(202);
  });

  it("keeps an account's own network in when another network has used up its sign-in attempts", async () => {
    const shopper = await api.register();
    for (const ip of ['10.12.0.1', '10.12.0.2']) expect((await post('/api/Authenticate/Login', { login: shopper.user.email, password: 'guess-guess-1' }, ip)).status).toBe(401);
    await expectLimited(await post('/api/Authenticate/Login', { login: shopper.user.email, password: shopper.password }, '10.12.0.3'), /sign-in/);
    expect((await post('/api/Authenticate/Login', { login: shopper.user.email, password: shopper.password }, '10.13.0.1')).status).toBe(200);
  });

  it('counts an IPv4 /24 as a softer bucket: four addresses\' worth of failures', async () => {
    const statuses = [];
    for (let i = 0; i < 17; i++) {
      statuses.push((await post('/api/Authenticate/Login', { login: `net${i}@example.in`, password: 'guess-guess-1' }, `10.14.0.${Math.floor(i / 4) + 1}`)).status);
    }
    expect(statuses.slice(0, 16).every((s) => s === 401)).toBe(true);
    expect(statuses[16]).toBe(429);
  });

  it('limits token refreshes per address', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: `unknown-${i}` }, '10.6.0.1')).status).toBe(401);
    }
    await expectLimited(await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: 'unknown-9' }, '10.6.0.1'), /^Too many token refreshes/);
  });
});

describe('what the limits count', () => {
  it('keys sign-in attempts on the account, whether named by email or phone', async () => {
    const shopper = await api.register();
    expect((await post('/api/Authenticate/Login', { login: shopper.user.email, password: 'guess-guess-1' }, '10.7.0.1')).status).toBe(401);
    expect((await post('/api/Authenticate/Login', { login: shopper.user.phone, password: 'guess-guess-1' }, '10.7.0.2')).status).toBe(401);
    await expectLimited(await post('/api/Authenticate/Login', { login: `+91 ${shopper.user.phone}`, password: 'guess-guess-1' }, '10.7.0.3'), /sign-in/);
  });

  it('counts only failed sign-ins and refreshes against an address, so shoppers behind one address stay in', async () => {
    const shoppers = [];
    for (let i = 0; i < 6; i++) shoppers.push(await api.register({}, from(`10.8.1.${i}`)));
    for (const shopper of shoppers) {
      const res = await post('/api/Authenticate/Login', { login: shopper.user.email, password: shopper.password }, '10.8.0.1');
      expect(res.status).toBe(200);
      // Signed in many times over: still fine.
      expect((await post('/api/Authenticate/Login', { login: shopper.user.phone, password: shopper.password }, '10.8.0.1')).status).toBe(200);
      const { refreshToken } = (await res.json()) as { refreshToken: string };
      expect((await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken }, '10.8.0.1')).status).toBe(200);
    }
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/Authenticate/Login', { login: `nobody${i}@example.in`, password: 'guess-guess-1' }, '10.8.0.1')).status).toBe(401);
    }
    await expectLimited(await post('/api/Authenticate/Login', { login: shoppers[0]!.user.email, password: shoppers[0]!.password }, '10.8.0.1'), /sign-in/);
  });

  it('counts a refused refresh of a known token once per request', async () => {
    // Four shoppers, each with a used (then reused) refresh token: each reuse is one failure of the address.
    for (let i = 0; i < 4; i++) {
      const shopper = await api.register({}, from(`10.9.1.${i}`));
      expect((await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: shopper.refreshToken }, `10.9.2.${i}`)).status).toBe(200);
      expect((await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: shopper.refreshToken }, '10.9.0.1')).status).toBe(401);
    }
    await expectLimited(await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: 'unknown' }, '10.9.0.1'), /refreshes/);
  });

  it('limits password resets per address and password changes per account, before any hashing', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await post('/api/Authenticate/ResetPassword', { token: `unknown-${i}`, password: 'jaggery-and-ghee-7' }, '10.10.0.1');
      expect(res.status).toBe(400);
    }
    await expectLimited(await post('/api/Authenticate/ResetPassword', { token: 'unknown', password: 'jaggery-and-ghee-7' }, '10.10.0.1'), /password changes/);
    const shopper = await api.register({}, from('10.10.1.1'));
    const change = (ip: string) =>
      api.call('POST', '/api/Authenticate/ChangePassword', {
        token: shopper.token,
        body: { currentPassword: 'not-my-password-1', newPassword: 'jaggery-and-ghee-7' },
        headers: from(ip),
      });
    expect((await change('10.10.2.1')).status).toBe(400);
    expect((await change('10.10.2.2')).status).toBe(400);
    await expectLimited(await change('10.10.2.3'), /password changes/);
  });
});
