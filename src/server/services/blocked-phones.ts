// Mobile numbers the grocer has stopped from ordering (issue 22: `npm run orders -- block <mobile>`). Numbers are kept
// as the API keeps a shopper's (normalizeIndianMobile: ten digits, no +91), so '+91 98450-12345' and '9845012345' are
// one number whoever writes or asks.
import { desc, eq, or } from 'drizzle-orm';
import { INDIAN_MOBILE_PATTERN, normalizeIndianMobile } from '../../lib/form-limits.ts';
import type { Database } from '../db/client.ts';
import { blockedPhones, orders, users } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import type { BlockedPhoneDto } from '../grocer-schemas.ts';
import { SHOPPER_ORDERS_LIMIT, type GrocerShopperDto } from '../shelf-schemas.ts';

/** The number as the shop keeps it; a 400 when it is no Indian mobile number. */
function keptForm(phone: string): string {
  const normalized = normalizeIndianMobile(phone);
  if (!INDIAN_MOBILE_PATTERN.test(normalized)) throw badRequest(`'${phone}' is not a 10-digit Indian mobile number`);
  return normalized;
}

/** Whether the grocer has blocked this number (in any of its written forms). A malformed number is never blocked. */
export async function isPhoneBlocked(db: Database, phone: string): Promise<boolean> {
  const normalized = normalizeIndianMobile(phone);
  if (!INDIAN_MOBILE_PATTERN.test(normalized)) return false;
  const [row] = await db.select({ phone: blockedPhones.phone }).from(blockedPhones).where(eq(blockedPhones.phone, normalized));
  return row !== undefined;
}

const dto = (row: typeof blockedPhones.$inferSelect): BlockedPhoneDto => ({ ...row, createdAt: row.createdAt.toISOString() });

/** Blocks a number; blocking it again keeps when it was first blocked and takes the new reason. */
export async function blockPhone(db: Database, phone: string, reason = ''): Promise<BlockedPhoneDto> {
  const [row] = await db
    .insert(blockedPhones)
    .values({ phone: keptForm(phone), reason })
    .onConflictDoUpdate({ target: blockedPhones.phone, set: { reason } })
    .returning();
  return dto(row!);
}

/** Lets a number order again; a 404 when it was not blocked (the grocer may have mistyped it). */
export async function unblockPhone(db: Database, phone: string): Promise<BlockedPhoneDto> {
  const normalized = keptForm(phone);
  const [row] = await db.delete(blockedPhones).where(eq(blockedPhones.phone, normalized)).returning();
  if (!row) throw notFound(`${normalized} is not blocked`);
  return dto(row);
}

/**
 * A shopper as the back office finds them by their number (issue 34): the number's block, the account that has it, and
 * the orders of that account or placed with that number verified (an account may have moved to another number since),
 * newest first.
 */
export async function shopperOfPhone(db: Database, phone: string): Promise<GrocerShopperDto> {
  const kept = keptForm(phone);
  const [blocked] = await db.select().from(blockedPhones).where(eq(blockedPhones.phone, kept));
  const [account] = await db
    .select({ id: users.id, name: users.name, email: users.email, verifiedAt: users.phoneVerifiedAt })
    .from(users)
    .where(eq(users.phone, kept));
  const rows = await db
    .select({ id: orders.id, status: orders.status, createdAt: orders.createdAt, slotId: orders.slotId, totalPaise: orders.totalPaise })
    .from(orders)
    .where(account ? or(eq(orders.userId, account.id), eq(orders.verifiedPhone, kept)) : eq(orders.verifiedPhone, kept))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(SHOPPER_ORDERS_LIMIT);
  return {
    phone: kept,
    blocked: blocked ? dto(blocked) : null,
    account: account ? { id: account.id, name: account.name, email: account.email, verified: account.verifiedAt !== null } : null,
    orders: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
