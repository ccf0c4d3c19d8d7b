// One-time codes sent by text message (issue 22): 6 digits, 5 minutes, 5 tries, a new one after 30 seconds, kept as an
// HMAC. They verify a new shopper's number, sign a shopper in without a password, and verify a changed number.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { phoneCodes, type PhoneCodePurpose } from '../db/schema.ts';

export const CODE_DIGITS = 6;
export const CODE_MINUTES = 5;
export const CODE_TRIES = 5;
export const RESEND_SECONDS = 30;

/**
 * The HMAC of a code for a number. A plain hash of six digits is undone by trying all million; keyed with the shop's
 * secret, a copied table gives nothing away.
 */
export function codeHash(secret: string, phone: string, code: string): string {
  return createHmac('sha256', `phone-code:${secret}`).update(`${phone}:${code}`).digest('hex');
}

const newCode = () => String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');

export type IssuedCode = { ok: true; code: string } | { ok: false; retryAfterSeconds: number };

/**
 * Makes a new code for a number, unless one of the same purpose was made for it less than RESEND_SECONDS ago (account
 * or none: the wait is the same for every number). The number's earlier codes of the same purpose stop working.
 */
export async function issueCode(
  db: Database,
  secret: string,
  request: { phone: string; purpose: PhoneCodePurpose; userId?: number; registration?: { name: string; email: string; passwordHash: string } },
): Promise<IssuedCode> {
  const code = newCode();
  return db.transaction(async (tx) => {
    // One request per number at a time: two racing requests would both see no recent code.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-code:${request.phone}`}))`);
    const [recent] = await tx
      .select({ age: sql<number>`extract(epoch from now() - ${phoneCodes.createdAt})::float` })
      .from(phoneCodes)
      .where(
        and(
          eq(phoneCodes.phone, request.phone),
          eq(phoneCodes.purpose, request.purpose),
          gt(phoneCodes.createdAt, sql`now() - make_interval(secs => ${RESEND_SECONDS})`),
        ),
      )
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    if (recent) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(RESEND_SECONDS - Number(recent.age))) };
    await tx
      .update(phoneCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(phoneCodes.phone, request.phone), eq(phoneCodes.purpose, request.purpose), isNull(phoneCodes.usedAt)));
    await tx.insert(phoneCodes).values({
      phone: request.phone,
      purpose: request.purpose,
      codeHash: codeHash(secret, request.phone, code),
      userId: request.userId ?? null,
      registration: request.registration ?? null,
      expiresAt: sql`now() + make_interval(mins => ${CODE_MINUTES})`,
    });
    return { ok: true, code } as const;
  });
}

export interface UsedCode {
  /** The number the code was sent to. */
  phone: string;
  purpose: PhoneCodePurpose;
  userId: number | null;
  registration: { name: string; email: string; passwordHash: string } | null;
}

/**
 * Uses the newest live code of these purposes (the number's, or the account's when no number is given) once, if `code`
 * is it. A wrong code spends one of its tries; the
 * fifth wrong one ends it. Undefined for any failure, so a guesser learns nothing of why.
 */
export async function useCode(
  db: Database,
  secret: string,
  { phone, code, purposes, userId }: { phone?: string; code: string; purposes: PhoneCodePurpose[]; userId?: number },
): Promise<UsedCode | undefined> {
  // Never "any number's code": a code is looked up by its number or by its account.
  if (phone === undefined && userId === undefined) throw new Error('useCode needs a phone or a userId');
  return db.transaction(async (tx) => {
    const [live] = await tx
      .select({
        id: phoneCodes.id,
        phone: phoneCodes.phone,
        purpose: phoneCodes.purpose,
        codeHash: phoneCodes.codeHash,
        userId: phoneCodes.userId,
        registration: phoneCodes.registration,
        attempts: phoneCodes.attempts,
      })
      .from(phoneCodes)
      .where(
        and(
          phone === undefined ? undefined : eq(phoneCodes.phone, phone),
          inArray(phoneCodes.purpose, purposes),
          userId === undefined ? undefined : eq(phoneCodes.userId, userId),
          isNull(phoneCodes.usedAt),
          gt(phoneCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(phoneCodes.createdAt), desc(phoneCodes.id))
      .limit(1)
      .for('update');
    if (!live || live.attempts >= CODE_TRIES) return undefined;
    const expected = Buffer.from(live.codeHash, 'hex');
    const given = Buffer.from(codeHash(secret, live.phone, code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const attempts = live.attempts + 1;
      await tx
        .update(phoneCodes)
        .set({ attempts, ...(attempts >= CODE_TRIES ? { usedAt: sql`now()` } : {}) })
        .where(eq(phoneCodes.id, live.id));
      return undefined;
    }
    await tx.update(phoneCodes).set({ usedAt: sql`now()` }).where(eq(phoneCodes.id, live.id));
    return { phone: live.phone, purpose: live.purpose, userId: live.userId, registration: live.registration };
  });
}

/** "+91 98•••••210": enough for the shopper to recognise their number, not a whole number in a screenshot. */
export function maskedPhone(phone: string): string {
  return `+91 ${phone.slice(0, 2)}•••••${phone.slice(-3)}`;
}
