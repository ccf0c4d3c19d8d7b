// The signed-in shopper of a request, from its `Authorization: Bearer <access token>` header.
import type { Context } from 'hono';
import type { Database } from '../db/client.ts';
import { unauthorized } from '../errors.ts';
import { sessionIsActive } from '../services/accounts.ts';
import type { AccessClaims, AccessTokens } from './tokens.ts';

/** OpenAPI: the scheme every protected route names. */
export const BEARER = [{ bearer: [] }];

export function bearerAuth(tokens: AccessTokens, db: Database) {
  return async (c: Context): Promise<AccessClaims> => {
    const [scheme, token] = (c.req.header('authorization') ?? '').split(' ');
    const claims = scheme?.toLowerCase() === 'bearer' && token ? await tokens.verify(token) : undefined;
    // A token of a session that was signed out (or replaced by a password change) ends with it, not 15 minutes later.
    if (!claims || !(await sessionIsActive(db, claims.userId, claims.sessionId))) {
      c.header('WWW-Authenticate', 'Bearer');
      throw unauthorized('Please sign in again.');
    }
    return claims;
  };
}
