// One-time codes sent by text message (issue 22): 6 digits, 5 minutes, 5 tries per request, one live code per number
// (issue 32), kept as an HMAC. They verify a new shopper's number, sign a shopper in without a password, and verify a changed number.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
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

/**
 * The code of a seed: an HMAC with the shop's secret, so the database holds no code and a copied table without the key
 * gives none away, yet a number's live code can be sent again to each new request.
 */
function codeOfSeed(secret: string, phone: string, seed: string): string {
  const mac = createHmac('sha256', `phone-code-seed:${secret}`).update(`${phone}:${seed}`).digest();
  return String(mac.readUIntBE(0, 6) % 10 ** CODE_DIGITS).padStart(CODE_DIGITS, '0');
}

const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

export type IssuedCode =
  | { ok: true; code: string; challenge: string }
  | { ok: false; retryAfterSeconds: number };

/**
 * Sends a number's code to a new request, unless a request for the number came less than RESEND_SECONDS ago and its
 * code is not spent (account or none, any purpose: the wait is the same for every number). A number has one live code: while it lives, each new
 * request gets the same code again (a second text that reads the same), never a new one that would void the code its
 * owner is typing. Each request gets its own challenge, and the code finishes only the request whose challenge comes
 * back with it: a registration is never finished with another request's name, email or password.
 */
export async function issueCode(
  db: Database,
  secret: string,
  request: { phone: string; purpose: PhoneCodePurpose; userId?: number; staffId?: number; registration?: { name: string; email: string; passwordHash: string } },
): Promise<IssuedCode> {
  const challenge = randomBytes(24).toString('base64url');
  return db.transaction(async (tx) => {
    // One request per number at a time: two racing requests would both see no recent code.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-code:${request.phone}`}))`);
    const [recent] = await tx
      .select({ age: sql<number>`extract(epoch from now() - ${phoneCodes.createdAt})::float` })
      .from(phoneCodes)
      .where(
        and(
          eq(phoneCodes.phone, request.phone),
          gt(phoneCodes.createdAt, sql`now() - make_interval(secs => ${RESEND_SECONDS})`),
          // A code that came back right is finished with: its number may be asked for again at once.
          sql`not (${phoneCodes.usedAt} is not null and ${phoneCodes.attempts} < ${CODE_TRIES})`,
        ),
      )
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    if (recent) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(RESEND_SECONDS - Number(recent.age))) };
    const [live] = await tx
      .select({ seed: phoneCodes.seed, expiresAt: phoneCodes.expiresAt })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phone, request.phone), isNull(phoneCodes.usedAt), gt(phoneCodes.expiresAt, sql`now()`), isNotNull(phoneCodes.seed)))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    const seed = live?.seed ?? randomBytes(16).toString('base64url');
    const code = codeOfSeed(secret, request.phone, seed);
    await tx.insert(phoneCodes).values({
      phone: request.phone,
      purpose: request.purpose,
      codeHash: codeHash(secret, request.phone, code),
      seed,
      challengeHash: challengeHash(challenge),
      userId: request.userId ?? null,
      staffId: request.staffId ?? null,
      registration: request.registration ?? null,
      // The same code lives no longer for being sent again.
      expiresAt: live ? live.expiresAt : sql`now() + make_interval(mins => ${CODE_MINUTES})`,
    });
    return { ok: true, code, challenge } as const;
  });
}

export interface UsedCode {
  /** The number the code was sent to. */
  phone: string;
  purpose: PhoneCodePurpose;
  userId: number | null;
  /** The staff member a back-office sign-in code is for (purpose 'staff'). */
  staffId: number | null;
  registration: { name: string; email: string; passwordHash: string } | null;
}

/** A code checked: used (`ok`), or refused, with the number it was tried against when the request was found. */
export type CodeCheck = ({ ok: true } & UsedCode) | { ok: false; phone?: string };

/**
 * Checks a code against one request: the one whose `challenge` is given (with its number), or, for a signed-in shopper,
 * the account's newest live request. A wrong code spends one of that request's tries (the fifth ends it) and no other
 * request's, so a third party guessing cannot burn the code its owner asked for. A right one spends the code for every
 * request it was sent to. The same refusal for any failure, so a guesser learns nothing of why.
 */
export async function useCode(
  db: Database,
  secret: string,
  { phone, code, purposes, userId, challenge }: { phone?: string; code: string; purposes: PhoneCodePurpose[]; userId?: number; challenge?: string },
): Promise<CodeCheck> {
  // Never "any number's code": a code is looked up by its request or by its account.
  if (challenge === undefined && userId === undefined) throw new Error('useCode needs a challenge or a userId');
  return db.transaction(async (tx) => {
    const [live] = await tx
      .select({
        id: phoneCodes.id,
        phone: phoneCodes.phone,
        purpose: phoneCodes.purpose,
        codeHash: phoneCodes.codeHash,
        seed: phoneCodes.seed,
        userId: phoneCodes.userId,
        staffId: phoneCodes.staffId,
        registration: phoneCodes.registration,
        attempts: phoneCodes.attempts,
      })
      .from(phoneCodes)
      .where(
        and(
          challenge === undefined ? undefined : eq(phoneCodes.challengeHash, challengeHash(challenge)),
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
    if (!live || live.attempts >= CODE_TRIES) return { ok: false, phone: live?.phone };
    const expected = Buffer.from(live.codeHash, 'hex');
    const given = Buffer.from(codeHash(secret, live.phone, code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const attempts = live.attempts + 1;
      await tx
        .update(phoneCodes)
        .set({ attempts, ...(attempts >= CODE_TRIES ? { usedAt: sql`now()` } : {}) })
        .where(eq(phoneCodes.id, live.id));
      return { ok: false, phone: live.phone };
    }
    // Used once: every request this code was sent to ends with it.
    await tx
      .update(phoneCodes)
      .set({ usedAt: sql`now()` })
      .where(live.seed === null ? eq(phoneCodes.id, live.id) : and(eq(phoneCodes.phone, live.phone), eq(phoneCodes.seed, live.seed), isNull(phoneCodes.usedAt)));
    return { ok: true, phone: live.phone, purpose: live.purpose, userId: live.userId, staffId: live.staffId, registration: live.registration };
  });
}

/** "+91 98•••••210": enough for the shopper to recognise their number, not a whole number in a screenshot. */
export function maskedPhone(phone: string): string {
  return `+91 ${phone.slice(0, 2)}•••••${phone.slice(-3)}`;
}
