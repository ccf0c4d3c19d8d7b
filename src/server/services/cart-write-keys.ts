// Cart writes sent with an Idempotency-Key (issue 26): a cart action made offline is sent again when the connection
// returns, maybe twice (a reply lost in a tunnel); the key makes it count once. As with PlaceOrder
// (src/server/services/orders.ts): keys are per shopper, the same key with another request is 422, and a replay answers
// what the first answered. A refused write (409 'Only 8 left …') keeps nothing, so its key may be tried again.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cartWriteKeys } from '../db/schema.ts';
import { ApiError } from '../errors.ts';

/** How long a key is kept: long enough for a shopper back from a day without signal, short enough to stay small. */
export const CART_KEY_HOURS = 24;
export const CART_KEY_REUSED = 'This Idempotency-Key was already used for a different cart change';

/** What a key stands for: the write (add, quantity, removal) and its parsed body, never fields the server ignores. */
export const cartRequestHash = (request: Record<string, unknown>) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

export interface KeptAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * Runs `write` once for this shopper's key: in one transaction that first claims the key, so the same key sent twice
 * at once waits for the first and then answers what it answered. Keys older than CART_KEY_HOURS are forgotten first.
 */
export async function onceForKey<T>(
  db: Database,
  userId: number,
  key: string,
  requestHash: string,
  now: Date,
  write: (tx: Database) => Promise<{ status: number; body: T }>,
): Promise<KeptAnswer<T>> {
  return db.transaction(async (tx) => {
    const oldest = new Date(now.getTime() - CART_KEY_HOURS * 3600_000);
    await tx.delete(cartWriteKeys).where(and(eq(cartWriteKeys.userId, userId), lt(cartWriteKeys.createdAt, oldest)));
    const claimed = await tx
      .insert(cartWriteKeys)
      .values({ userId, key, requestHash, status: 0, response: {}, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: cartWriteKeys.key });
    if (claimed.length === 0) {
      const [previous] = await tx
        .select({ requestHash: cartWriteKeys.requestHash, status: cartWriteKeys.status, response: cartWriteKeys.response })
        .from(cartWriteKeys)
        .where(and(eq(cartWriteKeys.userId, userId), eq(cartWriteKeys.key, key)));
      if (!previous) throw new Error('A cart key claimed by another write vanished');
      if (previous.requestHash !== requestHash) throw new ApiError(422, 'unprocessable', CART_KEY_REUSED);
      return { status: previous.status, body: previous.response as T, replayed: true };
    }
    const answer = await write(tx);
    await tx
      .update(cartWriteKeys)
      .set({ status: answer.status, response: answer.body as object })
      .where(and(eq(cartWriteKeys.userId, userId), eq(cartWriteKeys.key, key)));
    return { ...answer, replayed: false };
  });
}
