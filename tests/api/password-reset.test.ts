// Forgotten passwords: the same answer for every email, a mailed link (outbox file 0600) on the configured
// origin whatever Host the request claims, single use, 30 minutes.
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../../src/server/db/schema.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 10, linkOrigin: 'https://shop.example.in' });
});
afterAll(async () => api?.close());

const forgot = (email: string) =>
  api.call('POST', '/api/Authenticate/ForgotPassword', { body: { email }, headers: { host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com' } });
const reset = (token: string, password: string) => api.call('POST', '/api/Authenticate/ResetPassword', { body: { token, password } });
const login = (login: string, password: string) => api.call('POST', '/api/Authenticate/Login', { body: { login, password } });

// The mail is sent after the answer, and a mail mailTo waited for stays in its list: skip the links already seen.
const seenTokens = new Set<string>();
async function resetLinkFor(email: string) {
  const res = await forgot(email);
  expect(res.status).toBe(202);
  for (;;) {
    const link = new URL((await api.mailTo(email)).link!);
    const token = link.searchParams.get('token')!;
    if (seenTokens.has(token)) continue;
    seenTokens.add(token);
    return { link, token };
  }
}

describe('POST /api/Authenticate/ForgotPassword', () => {
  it('answers the same for an unknown email as for a known one', async () => {
    const shopper = await api.register();
    const known = await forgot(shopper.user.email);
    const unknown = await forgot('nobody@example.in');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    const message = (email: string) => `If an account uses ${email}, we have sent it a link to choose a new password. The link works for 30 minutes.`;
    expect(await known.json()).toEqual({ message: message(shopper.user.email) });
    expect(await unknown.json()).toEqual({ message: message('nobody@example.in') });
  });

  it('writes the mail to the outbox, readable by the shop alone, with a link on the configured origin', async () => {
    const shopper = await api.register();
    const { link } = await resetLinkFor(shopper.user.email);
    expect(link.origin).toBe('https://shop.example.in');
    expect(link.pathname).toBe('/reset-password');
    expect(link.href).not.toContain('evil.example.com');
    expect(fs.statSync(api.outbox).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(api.outbox).filter((f) => f.includes(shopper.user.email));
    expect(files).toHaveLength(1);
    const file = path.join(api.outbox, files[0]!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(`To: ${shopper.user.email}`);
    expect(text).toContain(link.href);
  });
});

describe('POST /api/Authenticate/ResetPassword', () => {
  it('sets the new password once, and signs out every session', async () => {
    const shopper = await api.register();
    const { token } = await resetLinkFor(shopper.user.email);
    const common = await reset(token, 'password1');
    expect(common.status).toBe(400);
    // A refused password does not use up the link.
    const res = await reset(token, 'jaggery-and-ghee-7');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your password has been changed. Please sign in with it.' });
    expect((await api.call('GET', '/api/app/Users/Me', { token: shopper.token })).status).toBe(401);
    expect((await api.call('POST', '/api/Authenticate/RefreshToken', { body: { expiredToken: '', refreshToken: shopper.refreshToken } })).status).toBe(401);
    expect((await login(shopper.user.email, shopper.password)).status).toBe(401);
    expect((await login(shopper.user.email, 'jaggery-and-ghee-7')).status).toBe(200);
    const again = await reset(token, 'another-fine-pass-8');
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toBe('This link has expired or was already used. Please ask for a new one.');
  });

  it('refuses a link older than 30 minutes, and an unknown one', async () => {
    const shopper = await api.register();
    const { token } = await resetLinkFor(shopper.user.email);
    await api.db
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.userId, shopper.user.id));
    expect((await reset(token, 'jaggery-and-ghee-7')).status).toBe(400);
    expect((await reset('made-up', 'jaggery-and-ghee-7')).status).toBe(400);
    expect((await login(shopper.user.email, shopper.password)).status).toBe(200);
  });

  it('refuses a common password in any Unicode form, and a trivial one, without using up the link', async () => {
    const shopper = await api.register();
    const { token } = await resetLinkFor(shopper.user.email);
    for (const password of ['ｐａｓｓｗｏｒｄ１２３', 'aaaaaaaaaa', '          ', 'abcabcabcabc', '1234567890']) {
      const res = await reset(token, password);
      expect(res.status, password).toBe(400);
      expect((await errorOf(res)).message).toMatch(/easy to guess/);
    }
    expect((await reset(token, 'jaggery-and-ghee-7')).status).toBe(200);
    expect((await login(shopper.user.email, 'password123')).status).toBe(401);
  });

  it('kills every other outstanding link of the account when one is used', async () => {
    const shopper = await api.register();
    const first = await resetLinkFor(shopper.user.email);
    const second = await resetLinkFor(shopper.user.email);
    const third = await resetLinkFor(shopper.user.email);
    const other = await api.register();
    const othersLink = await resetLinkFor(other.user.email);
    expect((await reset(second.token, 'jaggery-and-ghee-7')).status).toBe(200);
    for (const { token } of [first, third]) {
      const res = await reset(token, 'another-fine-pass-8');
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('This link has expired or was already used. Please ask for a new one.');
    }
    expect((await login(shopper.user.email, 'jaggery-and-ghee-7')).status).toBe(200);
    // Another account's link is its own.
    expect((await reset(othersLink.token, 'another-fine-pass-8')).status).toBe(200);
  });

  it('lets only one of two links used at the same moment through', async () => {
    const shopper = await api.register();
    const first = await resetLinkFor(shopper.user.email);
    const second = await resetLinkFor(shopper.user.email);
    const answers = await Promise.all([reset(first.token, 'jaggery-and-ghee-7'), reset(second.token, 'another-fine-pass-8')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('kills a link mailed before the password was changed', async () => {
    const shopper = await api.register();
    const { token } = await resetLinkFor(shopper.user.email);
    const change = await api.call('POST', '/api/Authenticate/ChangePassword', {
      token: shopper.token,
      body: { currentPassword: shopper.password, newPassword: 'jaggery-and-ghee-7' },
    });
    expect(change.status).toBe(200);
    const res = await reset(token, 'another-fine-pass-8');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('This link has expired or was already used. Please ask for a new one.');
    expect((await login(shopper.user.email, 'jaggery-and-ghee-7')).status).toBe(200);
    // A link asked for after the change works.
    const after = await resetLinkFor(shopper.user.email);
    expect((await reset(after.token, 'another-fine-pass-8')).status).toBe(200);
  });

  it('keeps links expiring 30 minutes after they are asked for', async () => {
    const shopper = await api.register();
    await resetLinkFor(shopper.user.email);
    const [row] = await api.db
      .select({ minutes: sql<number>`extract(epoch from ${passwordResets.expiresAt} - ${passwordResets.createdAt}) / 60` })
      .from(passwordResets)
      .where(eq(passwordResets.userId, shopper.user.id));
    expect(Math.round(Number(row!.minutes))).toBe(30);
  });
});
