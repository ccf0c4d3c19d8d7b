// Shoppers for e2e tests: registered through the real API and signed in the way the sign-in page leaves the
// browser (SPEC §3's localStorage keys).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { SessionDto } from '../../src/server/account-schemas.ts';
import { e2eServerFile } from '../../scripts/lib/e2e-server-file.ts';

export const PASSWORD = 'green-mango-42';
let serial = 0;
export const newShopper = () => {
  serial++;
  const stamp = `${Date.now().toString(36)}${serial}`;
  return { name: `Asha ${serial}`, email: `asha.${stamp}@example.in`, phone: `98${String(Date.now() + serial).slice(-8)}`, password: PASSWORD };
};

/** A shop's outbox of text messages (it writes one-time codes there: no SMS_PROVIDER); the suite's shop's by default. */
export function smsOutbox(dataDir?: string): string {
  const folder = dataDir ?? (JSON.parse(fs.readFileSync(e2eServerFile(process.env.E2E_PORT ?? '4399'), 'utf8')) as { dataDir: string }).dataDir;
  return path.join(folder, 'sms-outbox');
}

const codesRead = new Set<string>();

/** The code of the newest text to this 10-digit number not read before, as the shopper reads it on their phone. */
export async function codeSentTo(phone: string, folder = smsOutbox()): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith(`-${phone}.txt`) && !codesRead.has(f)) : [];
      const newest = files.sort().at(-1);
      if (!newest) return undefined;
      // The shop may still be writing it: it counts as read once its code is there.
      code = /\b(\d{6}) is your Kirana/.exec(fs.readFileSync(path.join(folder, newest), 'utf8'))?.[1];
      if (code) codesRead.add(newest);
      return code;
    }, { message: `a text message with a code to ${phone}` })
    .toMatch(/^\d{6}$/);
  return code!;
}

/**
 * A new shopper, registered as the register page does it: the code texted to the number opens the account. On the
 * suite's shop unless `dataDir` names another shop's data folder.
 */
export async function registerByApi(request: APIRequestContext, dataDir?: string) {
  const shopper = newShopper();
  const res = await request.post('/api/Authenticate/Register', { data: shopper });
  expect(res.status(), await res.text()).toBe(202);
  const { challenge } = (await res.json()) as { challenge: string };
  const verified = await request.post('/api/Authenticate/VerifyCode', { data: { phone: shopper.phone, code: await codeSentTo(shopper.phone, smsOutbox(dataDir)), challenge } });
  expect(verified.status(), await verified.text()).toBe(200);
  return { shopper, session: (await verified.json()) as SessionDto };
}

/** Fills the register page's form and sends it, as a new shopper does; the code step comes next. */
export async function sendRegistration(page: Page, shopper: ReturnType<typeof newShopper>) {
  await page.goto('/register');
  await page.getByLabel('Full name').fill(shopper.name);
  await page.getByLabel('Email').fill(shopper.email);
  await page.getByLabel('Mobile number').fill(shopper.phone);
  await page.getByLabel('Password').fill(shopper.password);
  await page.getByRole('button', { name: 'Create account' }).click();
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

