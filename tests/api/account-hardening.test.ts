// A security review's findings on accounts (issue 10): NUL in a sign-in, refresh races, answers kept in caches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import * as accounts from '../../src/server/services/accounts.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 10 });
});
afterAll(async () => api?.close());

const me = (token: string) => api.call('GET', '/api/app/Users/Me', { token });
const refresh = (refreshToken: string) => api.call('POST', '/api/Authenticate/RefreshToken', { body: { expiredToken: '', refreshToken } });

describe('control characters', () => {
  it('refuses a NUL in the sign-in name with a 400, and takes any password or token without a 500', async () => {
    const shopper = await api.register();
    const nul = await api.call('POST', '/api/Authenticate/Login', { body: { login: `${shopper.user.email}\u0000`, password: shopper.password } });
    expect(nul.status).toBe(400);
    expect((await errorOf(nul)).message).toBe('email or phone must not contain control characters');
    // Passwords and tokens are only hashed before they meet SQL: a NUL there is just a wrong one.
    expect((await api.call('POST', '/api/Authenticate/Login', { body: { login: shopper.user.email, password: 'pass\u0000word-1' } })).status).toBe(401);
    expect((await refresh('token\u0000')).status).toBe(401);
    const reset = await api.call('POST', '/api/Authenticate/ResetPassword', { body: { token: 'link\u0000', password: 'jaggery-and-ghee-7' } });
    expect(reset.status).toBe(400);
    expect((await api.call('POST', '/api/Authenticate/Logout', { body: { refreshToken: 'token\u0000' } })).status).toBe(204);
    expect((await api.call('POST', '/api/Authenticate/ForgotPassword', { body: { email: 'a\u0000@example.in' } })).status).toBe(400);
  });
});

describe('refresh token families', () => {
  it('ends the whole sign-in when one token is refreshed several times at once', async () => {
    const shopper = await api.register();
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(shopper.refreshToken)));
    const won = await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.json() as Promise<SessionDto>));
    expect(answers.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const session of won) {
      expect((await me(session.token)).status).toBe(401);
      expect((await refresh(session.refreshToken)).status).toBe(401);
    }
    expect((await me(shopper.token)).status).toBe(401);
  });

  it('keeps a family dead when the winning refresh stores its new token after the reuse revoked the others', async () => {
    // The order a race can take: used, reused (the family revoked), and only then the winner's new token stored.
    const shopper = await api.register();
    const used = await accounts.useRefreshToken(api.db, shopper.refreshToken);
    if (!used.ok) throw new Error('the first use must pass');
    expect(await accounts.useRefreshToken(api.db, shopper.refreshToken)).toEqual({ ok: false, reused: true });
    const late = await accounts.issueRefreshToken(api.db, used.userId, used.familyId);
    expect(await accounts.sessionIsActive(api.db, used.userId, used.familyId)).toBe(false);
    expect((await accounts.useRefreshToken(api.db, late.refreshToken)).ok).toBe(false);
    expect((await refresh(late.refreshToken)).status).toBe(401);
  });
});

describe('Cache-Control', () => {
  it('is no-store on every answer that carries a token, a profile or a cart, errors too', async () => {
    const shopper = await api.register();
    const login = await api.call('POST', '/api/Authenticate/Login', { body: { login: shopper.user.email, password: shopper.password } });
    const session = (await login.clone().json()) as SessionDto;
    const answers = [
      await api.call('POST', '/api/Authenticate/Register', { body: { name: 'x' } }),
      login,
      await refresh(session.refreshToken),
      await api.call('PUT', '/api/app/Users/Me', { token: session.token, body: { name: 'Meera I', phone: shopper.user.phone } }),
      await api.call('GET', `/api/app/Carts/GetTotalCart/${shopper.user.id}`, { token: session.token }),
      await api.call('POST', '/api/Carts', { token: session.token, body: { productsId: 0 } }),
      await me('not-a-token'),
      await api.call('POST', '/api/Authenticate/ChangePassword', {
        token: shopper.token,
        body: { currentPassword: shopper.password, newPassword: 'jaggery-and-ghee-7' },
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 200, 200, 200, 200, 400, 401, 200]);
    for (const res of answers) expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
