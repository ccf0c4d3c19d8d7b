// A shopper's saved delivery addresses: at most ADDRESS_LIMITS.perUser, exactly one default while there are any.
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { ADDRESS_LIMITS } from '../../lib/form-limits.ts';
import type { Database } from '../db/client.ts';
import { addresses, users } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import type { AddressDto, AddressInputSchema } from '../order-schemas.ts';
import type { z } from '@hono/zod-openapi';

export type AddressFields = z.output<typeof AddressInputSchema>;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const columns = {
  id: addresses.id,
  name: addresses.name,
  phone: addresses.phone,
  line1: addresses.line1,
  line2: addresses.line2,
  landmark: addresses.landmark,
  city: addresses.city,
  state: addresses.state,
  pincode: addresses.pincode,
  addressType: addresses.addressType,
  instructions: addresses.instructions,
  isDefault: addresses.isDefault,
};

/** An address as kept; the routes add whether the shop delivers there (`served`, from store.yaml's area). */
export type SavedAddress = Omit<AddressDto, 'served'>;

/** Default first, then newest. */
export async function addressesOf(db: Database | Tx, userId: number): Promise<SavedAddress[]> {
  return db
    .select(columns)
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), desc(addresses.createdAt), desc(addresses.id));
}

/** The one saved address of this shopper, or undefined (another shopper's address is "no such address" too). */
export async function findAddress(db: Database | Tx, userId: number, id: number): Promise<SavedAddress | undefined> {
  const [row] = await db
    .select(columns)
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
  return row;
}

export const addressNotFound = (id: number) => notFound(`You have no saved address ${id}`);

/**
 * Runs one shopper's address change in a transaction holding their user row: two changes at once (two tabs) take
 * turns, so the count limit and the one default hold.
 */
async function forShopper<T>(db: Database, userId: number, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return change(tx);
  });
}

/** Makes `id` the one default: the old default is cleared first (the partial unique index allows one). */
async function moveDefault(tx: Tx, userId: number, id: number) {
  await tx
    .update(addresses)
    .set({ isDefault: false })
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true), ne(addresses.id, id)));
  await tx
    .update(addresses)
    .set({ isDefault: true })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
}

export async function addAddress(db: Database, userId: number, input: AddressFields): Promise<SavedAddress[]> {
  return forShopper(db, userId, async (tx) => {
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(addresses)
      .where(eq(addresses.userId, userId));
    if (count >= ADDRESS_LIMITS.perUser) {
      throw conflict(
        `You can keep at most ${ADDRESS_LIMITS.perUser} addresses. Remove one you no longer use, or edit it, to add this one.`,
      );
    }
    const { isDefault, ...fields } = input;
    const [created] = await tx
      .insert(addresses)
      .values({ ...fields, userId, isDefault: false })
      .returning({ id: addresses.id });
    // The first address is the default whatever the shopper asked.
    if (isDefault || count === 0) await moveDefault(tx, userId, created!.id);
    return addressesOf(tx, userId);
  });
}

/** Replaces an address's fields; isDefault true makes it the default (false never leaves the shopper without one). */
export async function updateAddress(db: Database, userId: number, id: number, input: AddressFields): Promise<SavedAddress[]> {
  return forShopper(db, userId, async (tx) => {
    const { isDefault, ...fields } = input;
    const updated = await tx
      .update(addresses)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ id: addresses.id });
    if (updated.length === 0) throw addressNotFound(id);
    if (isDefault) await moveDefault(tx, userId, id);
    return addressesOf(tx, userId);
  });
}

export async function makeDefaultAddress(db: Database, userId: number, id: number): Promise<SavedAddress[]> {
  return forShopper(db, userId, async (tx) => {
    if (!(await findAddress(tx, userId, id))) throw addressNotFound(id);
    await moveDefault(tx, userId, id);
    return addressesOf(tx, userId);
  });
}

/** Removing the default makes the newest remaining address the default. */
export async function removeAddress(db: Database, userId: number, id: number): Promise<SavedAddress[]> {
  return forShopper(db, userId, async (tx) => {
    const [removed] = await tx
      .delete(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ isDefault: addresses.isDefault });
    if (!removed) throw addressNotFound(id);
    if (removed.isDefault) {
      const [newest] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(desc(addresses.createdAt), desc(addresses.id))
        .limit(1);
      if (newest) await moveDefault(tx, userId, newest.id);
    }
    return addressesOf(tx, userId);
  });
}
