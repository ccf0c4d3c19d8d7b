// Reading the access token in the browser (SPEC §3: three parts, claims exp and user_id). The browser never
// verifies it (the API does); it only needs to know when it expires, and whether it is a token at all.
import { jwtDecode } from 'jwt-decode';

/** SPEC §4/§9: a token expiring within this many seconds is refreshed before a cart call. */
export const REFRESH_THRESHOLD_SECONDS = 30;

export interface TokenClaims {
  exp: number;
  user_id: number | string;
}

/**
 * The token's claims, or null when it is malformed: not three parts ('JWT must have 3 parts') or not decodable
 * ('Cannot decode the token'), SPEC §8. Both are logged and count as signed out.
 */
export function readToken(token: string | undefined): TokenClaims | null {
  if (!token) return null;
  if (token.split('.').length !== 3) {
    console.error('JWT must have 3 parts');
    return null;
  }
  try {
    const claims = jwtDecode<Partial<TokenClaims>>(token);
    if (typeof claims.exp !== 'number') throw new Error('no exp claim');
    return { exp: claims.exp, user_id: claims.user_id ?? '' };
  } catch (error) {
    console.error('Cannot decode the token', error);
    return null;
  }
}

/** True when the token expires within `seconds` of `nowMs` (or already has). */
export function expiresWithin(claims: TokenClaims, seconds: number = REFRESH_THRESHOLD_SECONDS, nowMs = Date.now()): boolean {
  return claims.exp * 1000 - nowMs <= seconds * 1000;
}
