// Access tokens (HS256 JWTs, SPEC §3 claims user_id and exp) and opaque refresh and reset tokens.
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, compactVerify, jwtVerify } from 'jose';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 30;
export const RESET_TOKEN_MINUTES = 30;

const ALGORITHMS = ['HS256'];

export interface AccessClaims {
  userId: number;
  /** The sign-in (refresh token family) the token belongs to: signing that session out ends the token too. */
  sessionId: string;
}

export class AccessTokens {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign({ userId, sessionId }: AccessClaims): Promise<string> {
    return new SignJWT({ user_id: userId, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token signed by us with HS256; undefined for anything else (alg none included). */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ALGORITHMS, requiredClaims: ['exp'] });
      return claimsOf(payload);
    } catch {
      return undefined;
    }
  }

  /** Like verify, but an expired token is fine: the refresh call's expiredToken (SPEC §7) is expired by design. */
  async verifyIgnoringExpiry(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await compactVerify(token, this.key, { algorithms: ALGORITHMS });
      return claimsOf(JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>);
    } catch {
      return undefined;
    }
  }
}

function claimsOf(payload: Record<string, unknown>): AccessClaims | undefined {
  const userId = payload.user_id;
  const sessionId = payload.sid;
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || typeof sessionId !== 'string') return undefined;
  return { userId, sessionId };
}

/** A random opaque token (256 bits) for a refresh or a reset link. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** What the database keeps of an opaque token: a leaked table cannot be replayed. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
