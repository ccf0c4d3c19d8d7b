// The back office's test helpers (issue 34), shared by the /manage specs: a staff member added through the grocer's
// API (as `npm run staff -- add` does while the shop runs), signed in on /manage/sign-in as a person does, the private
// headers every /manage answer carries, and screenshots for a person to look at (not committed).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { grocerHeaders } from './grocer.ts';
import { codeSentTo } from './session.ts';

export const SHOTS = '/tmp/manage-shots';
export const OWNER_PASSWORD = 'tamarind-ledger-58';

let serial = 0;
type Role = 'owner' | 'staff';
/** A member added through POST /api/grocer/Staff with the grocer's token, as `npm run staff -- add` does. */
export async function addMember(request: APIRequestContext, role: Role = 'owner') {
  serial++;
  const names = { owner: 'Meera Owner', staff: 'Ravi Staff' };
  // A number of its own: the time, this worker and a count, so specs in parallel never share one.
  const phone = `7${String(Date.now() * 10 + serial + process.pid * 7).slice(-9)}`;
  const member = { name: `${names[role]} ${serial}`, phone, role, ...(role === 'owner' ? { password: OWNER_PASSWORD } : {}) };
  const res = await request.post('/api/grocer/Staff', { headers: grocerHeaders(), data: member });
  expect(res.status(), await res.text()).toBe(201);
  return member;
}

/** An owner, as `npm run staff -- add --role owner` adds one. */
export const addOwner = (request: APIRequestContext) => addMember(request, 'owner');

/** Signs a member in on /manage/sign-in (the texted code, and an owner's password); the board is open after. */
export async function signInToManage(page: Page, member: { phone: string; password?: string }) {
  await page.goto('/manage/sign-in');
  await page.getByLabel('Mobile number').fill(member.phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await expect(page.getByRole('status')).toContainText('a code is on its way');
  await page.getByLabel('Code from the text message').fill(await codeSentTo(member.phone));
  if (member.password) await page.getByLabel(/^Password/).fill(member.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/manage$/);
}

export function expectPrivate(response: Response | null) {
  expect(response, 'a response').not.toBeNull();
  const headers = response!.headers();
  expect(headers['x-robots-tag']).toBe('noindex');
  expect(headers['cache-control']).toBe('private, no-store');
}

export async function shot(page: Page, name: string, width: number) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

/** Photographs the page as it is at 390 and again at 1366 wide, then goes back to the phone. */
export async function shots(page: Page, name: string) {
  await shot(page, name, 390);
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, name, 1366);
  await page.setViewportSize({ width: 390, height: 844 });
}
