// Shoppers' accounts in the database: users, sign-in sessions (refresh token families) and reset links.
import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { UserDto } from '../account-schemas.ts';
import { normalizeIndianMobile } from '../../lib/form-limits.ts';
import { newOpaqueToken, REFRESH_TOKEN_DAYS, RESET_TOKEN_MINUTES, tokenHash } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { passwordResets, refreshTokens, users } from '../db/schema.ts';

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  phoneVerified: sql<boolean>`${users.phoneVerifiedAt} is not null`,
  smsNotices: users.smsNotices,
  pincode: users.pincode,
};

/** The user a sign-in names: an email (any letter case) or a mobile number (as typed, +91 and spaces forgiven). */
export async function findUserForLogin(db: Database, login: string) {
  const where = login.includes('@')
    ? sql`lower(${users.email}) = lower(${login})`
    : eq(users.phone, normalizeIndianMobile(login));
  const [row] = await db.select({ ...userColumns, passwordHash: users.passwordHash }).from(users).where(where).limit(1);
  return row;
}

export async function findUser(db: Database, id: number): Promise<UserDto | undefined> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserDto | undefined> {
  const [row] = await db.select(userColumns).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function passwordHashOf(db: Database, id: number): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row?.passwordHash;
}

/** The account a mobile number belongs to (one account per number: users_phone_key). */
export async function findUserByPhone(db: Database, phone: string): Promise<UserDto | undefined> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.phone, phone));
  return row;
}

/** A new account; its number is verified when it is made from a registration's one-time code. */
export async function createUser(
  db: Database,
  user: { name: string; email: string; phone: string; passwordHash: string; phoneVerified?: boolean },
): Promise<UserDto> {
  const { phoneVerified = false, ...fields } = user;
  const [row] = await db
    .insert(users)
    .values({ ...fields, phoneVerifiedAt: phoneVerified ? sql`now()` : null })
    .returning(userColumns);
  if (!row) throw new Error('User insert returned no row');
  return row;
}

/** The delivery PIN code the shopper gave (issue 25); null forgets it. Served or not: the header says which. */
export async function setPincode(db: Database, id: number, pincode: string | null): Promise<void> {
  await db.update(users).set({ pincode }).where(eq(users.id, id));
}

export async function updateName(db: Database, id: number, name: string, smsNotices?: boolean): Promise<UserDto | undefined> {
  const [row] = await db.update(users).set({ name, smsNotices }).where(eq(users.id, id)).returning(userColumns);
  return row;
}

/** A number the shopper proved is theirs becomes the account's, verified (a 23505 when another account has it). */
export async function setVerifiedPhone(db: Database, id: number, phone: string): Promise<UserDto | undefined> {
  const [row] = await db
    .update(users)
    .set({ phone, phoneVerifiedAt: sql`case when ${users.phone} = ${phone} then coalesce(${users.phoneVerifiedAt}, now()) else now() end` })
    .where(eq(users.id, id))
    .returning(userColumns);
  return row;
}

/** The shopper proved the number is theirs (a one-time code sent to it came back). */
export async function markPhoneVerified(db: Database, id: number, phone: string): Promise<UserDto | undefined> {
  const [row] = await db
    .update(users)
    .set({ phoneVerifiedAt: sql`coalesce(${users.phoneVerifiedAt}, now())` })
    .where(and(eq(users.id, id), eq(users.phone, phone)))
    .returning(userColumns);
  return row;
}

/**
 * The email's owner proved it (a reset link came back). The first time, the number given at registration stops being
 * verified: whoever registered typed both, and the email's owner must not share the account with that number's holder.
 */
export async function markEmailVerified(db: Database, id: number): Promise<void> {
  await db
    .update(users)
    .set({
      phoneVerifiedAt: sql`case when ${users.emailVerifiedAt} is null then null else ${users.phoneVerifiedAt} end`,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
    })
    .where(eq(users.id, id));
}

/**
 * Sets a password, and kills every reset link of the account still outstanding: a link mailed before the change
 * must not undo it (a change after a stolen mailbox, or through another link). Every path that sets one comes here.
 */
export async function setPasswordHash(db: Database, id: number, passwordHash: string) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, id), isNull(passwordResets.usedAt)));
  });
}

/** The name of the unique index a failed insert or update ran into, if that is why it failed. */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return undefined;
}

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);

/** Stores a new refresh token of a session (a new sign-in when familyId is not given) and returns it. */
export async function issueRefreshToken(db: Database, userId: number, familyId: string = randomUUID()) {
  const refreshToken = newOpaqueToken();
  await db.insert(refreshTokens).values({ userId, familyId, tokenHash: tokenHash(refreshToken), expiresAt: daysFromNow(REFRESH_TOKEN_DAYS) });
  return { refreshToken, familyId };
}

/**
 * No token of the token's family is revoked. A family is dead once any of its rows is: reuse detection revokes the
 * rows it sees, and a token the winning refresh inserts a moment later must die with them.
 */
const familyNotRevoked = sql`not exists (select 1 from ${refreshTokens} as revoked
  where revoked.family_id = ${refreshTokens.familyId} and revoked.revoked_at is not null)`;

export type RefreshOutcome = { ok: true; userId: number; familyId: string } | { ok: false; reused: boolean };

/**
 * Uses a refresh token once. The update is the check, so two requests with one token cannot both pass. A token
 * already used means it was copied: its whole family is revoked, the thief's and the shopper's later tokens alike.
 */
export async function useRefreshToken(db: Database, token: string): Promise<RefreshOutcome> {
  const hash = tokenHash(token);
  const [used] = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, hash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        familyNotRevoked,
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (used) return { ok: true, ...used };
  const [known] = await db
    .select({ familyId: refreshTokens.familyId, usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hash));
  if (known?.usedAt) await revokeFamily(db, known.familyId);
  return { ok: false, reused: Boolean(known?.usedAt) };
}

export async function revokeFamily(db: Database, familyId: string) {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Signs a user out everywhere: every refresh token, and with them every access token's session. */
export async function revokeAllSessions(db: Database, userId: number) {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Whether a sign-in is still on: signed out, reused or replaced by a password change, it is not. */
export async function sessionIsActive(db: Database, userId: number, familyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), eq(refreshTokens.userId, userId), familyNotRevoked))
    .limit(1);
  return Boolean(row);
}

export async function createPasswordReset(db: Database, userId: number): Promise<string> {
  const token = newOpaqueToken();
  await db.insert(passwordResets).values({ tokenHash: tokenHash(token), userId, expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000) });
  return token;
}

/**
 * Uses a reset link once; the user it was for, or undefined when it is unknown, used or expired. Using one uses up
 * every other outstanding link of the account in the same statement, so two links cannot both pass (a second
 * request waits on the rows the first one updates, then finds them used).
 */
export async function usePasswordReset(db: Database, token: string): Promise<number | undefined> {
  const hash = tokenHash(token);
  const owner = db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)));
  const rows = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(inArray(passwordResets.userId, owner), isNull(passwordResets.usedAt)))
    .returning({ userId: passwordResets.userId, tokenHash: passwordResets.tokenHash });
  return rows.find((row) => row.tokenHash === hash)?.userId;
}

/** The user and sign-in a refresh token was issued to, used or not. */
export async function refreshTokenOwner(db: Database, token: string) {
  const [row] = await db
    .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash(token)));
  return row;
}
