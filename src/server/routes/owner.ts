// The signed-in shopper named by a `{userId}` path or a body's `usersId`: 0 (or none) means "me"; another shopper's id
// is 404 on every call, carts included (issues 11, 23: never 403, which would tell that the id exists).
import type { Context } from 'hono';
import type { AccessClaims } from '../auth/tokens.ts';
import { notFound } from '../errors.ts';

export async function shopperOfPath(
  c: Context,
  authenticate: (c: Context) => Promise<AccessClaims>,
  claimed: number | undefined,
  what: string,
): Promise<number> {
  const { userId } = await authenticate(c);
  if (claimed !== undefined && claimed !== 0 && claimed !== userId) throw notFound(`No ${what} for user ${claimed}`);
  return userId;
}
