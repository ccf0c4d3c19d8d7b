// Staff members and their sign-ins for the back-office tests (issue 34): added as `npm run staff -- add` does, signed
// in as a browser on /manage does (the shop's Origin, the texted code, the cookie the answer sets).
import type { CodeSentDto } from '../../src/server/account-schemas.ts';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import type { StaffRole } from '../../src/server/db/schema.ts';
import { addStaff } from '../../src/server/services/staff.ts';
import type { StaffDto } from '../../src/server/staff-schemas.ts';
import { TEST_SCRYPT, type TestApi } from './harness.ts';

/** The harness's linkOrigin: the shop's own pages send it. */
export const SHOP_ORIGIN = 'https://shop.example.in';
export const OWNER_PASSWORD = 'cardamom-ledger-77';
/** The cookie's name on an https shop. */
export const STAFF_COOKIE = '__Host-kirana-staff';

let count = 0;
/** A fresh 10-digit number starting with 7, unique within the test file. */
export function staffPhone(): string {
  count += 1;
  return `7${`${process.pid}${count}`.slice(-9).padStart(9, '0')}`;
}

export async function newStaff(api: TestApi, role: StaffRole, name = `${role} ${count + 1}`): Promise<StaffDto> {
  const passwordHash = role === 'owner' ? await hashPassword(OWNER_PASSWORD, TEST_SCRYPT) : undefined;
  return addStaff(api.db, { name, phone: staffPhone(), role, passwordHash }, { actor: { kind: 'command_line', label: 'test', address: 'command line' }, action: 'staff add' });
}

/** A call from the shop's pages: the Origin, and the staff cookie when given. */
export function fromShop(api: TestApi, method: string, path: string, { cookie, body }: { cookie?: string; body?: unknown } = {}) {
  return api.call(method, path, { body, headers: { origin: SHOP_ORIGIN, ...(cookie ? { cookie: `${STAFF_COOKIE}=${cookie}` } : {}) } });
}

export async function requestCode(api: TestApi, phone: string): Promise<Response> {
  return fromShop(api, 'POST', '/api/grocer/Authenticate/RequestCode', { body: { phone } });
}

/** Signs a member in (an owner with `password`); the answer and the cookie's value (undefined when none was set). */
export async function signIn(api: TestApi, member: Pick<StaffDto, 'phone'>, password?: string) {
  const asked = await requestCode(api, member.phone);
  if (asked.status !== 202) throw new Error(`RequestCode answered ${asked.status}: ${await asked.text()}`);
  const { challenge } = (await asked.json()) as CodeSentDto;
  const code = await api.codeTo(member.phone);
  const res = await fromShop(api, 'POST', '/api/grocer/Authenticate/VerifyCode', { body: { phone: member.phone, code, challenge, password } });
  return { res, cookie: cookieOf(res) };
}

/** The staff cookie's value a response sets. */
export function cookieOf(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_COOKIE}=`));
  const value = set?.split(';')[0]!.slice(STAFF_COOKIE.length + 1);
  return value || undefined;
}

/** A signed-in member's cookie; throws when the sign-in fails. */
export async function signedIn(api: TestApi, role: StaffRole): Promise<{ member: StaffDto; cookie: string }> {
  const member = await newStaff(api, role);
  const { res, cookie } = await signIn(api, member, role === 'owner' ? OWNER_PASSWORD : undefined);
  if (res.status !== 200 || !cookie) throw new Error(`VerifyCode answered ${res.status}: ${await res.text()}`);
  return { member, cookie };
}
