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
  it('limits sign-in attempts per account, whatever the address', async () => {
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
    for (let i = 0; i < 4; i++) expect((await post('/api/Authenticate/Register', newShopper(), '10.4.0.1')).status).toBe(201);
    await expectLimited(await post('/api/Authenticate/Register', newShopper(), '10.4.0.1'), /^Too many registrations/);
  });

  it('limits password reset requests per email', async () => {
    const email = 'limited@example.in';
    expect((await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.1')).status).toBe(202);
    expect((await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.2')).status).toBe(202);
    await expectLimited(await post('/api/Authenticate/ForgotPassword', { email }, '10.5.0.3'), /^Too many password reset requests/);
  });

  it('limits token refreshes per address', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: `unknown-${i}` }, '10.6.0.1')).status).toBe(401);
    }
    await expectLimited(await post('/api/Authenticate/RefreshToken', { expiredToken: '', refreshToken: 'unknown-9' }, '10.6.0.1'), /^Too many token refreshes/);
  });
});
