// Shoppers for e2e tests: registered through the real API and signed in the way the sign-in page leaves the
// browser (SPEC §3's localStorage keys).
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { SessionDto } from '../../src/server/account-schemas.ts';

export const PASSWORD = 'green-mango-42';
let serial = 0;
export const newShopper = () => {
  serial++;
  const stamp = `${Date.now().toString(36)}${serial}`;
  return { name: `Asha ${serial}`, email: `asha.${stamp}@example.in`, phone: `98${String(Date.now() + serial).slice(-8)}`, password: PASSWORD };
};

export async function registerByApi(request: APIRequestContext) {
  const shopper = newShopper();
  const res = await request.post('/api/Authenticate/Register', { data: shopper });
  expect(res.status(), await res.text()).toBe(201);
  return { shopper, session: (await res.json()) as SessionDto };
}

/**
 * Signed in as the API's session, the way the sign-in page leaves the browser (SPEC §3 keys); on the suite's own
 * server unless `origin` names another shop.
 */
export async function useSession(page: Page, session: SessionDto, origin = '') {
  await page.goto(`${origin}/about`);
  await page.evaluate((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('refreshToken', s.refreshToken);
    localStorage.setItem('userid', String(s.user.id));
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
}

