// The session half of the browser's ky instance (SPEC §4, §7): the bearer token on every call, a token about to
// expire refreshed before a call that needs it, and on a 401 one refresh-and-retry per request, with every
// request that meets a 401 at the same time waiting on the same single refresh (refresh tokens are single-use:
// a second refresh with the same one would be taken for theft and end the session).
import ky, { type KyInstance } from 'ky';
import type { SessionDto } from '../../server/account-schemas.ts';
import { expiresWithin, readToken } from '../auth/token.ts';
import { apiStatus } from './errors.ts';

/**
 * Where the session lives. token() and refreshToken() must read the storage the tabs share at the moment they are
 * called (not a copy that follows it on events): inside the refresh lock, another tab's refresh must already show.
 */
export interface SessionStore {
  token(): string | undefined;
  refreshToken(): string | undefined;
  save(session: SessionDto): void;
  clear(): void;
}

/** Set `context: { fresh: true }` on a call (the cart's, the account's) to refresh a token about to expire first. */
export type SessionContext = {
  fresh?: boolean;
  /** Sign-in calls: their 401 means wrong credentials, not an expired token, so there is nothing to refresh. */
  credentials?: boolean;
};

export const REFRESH_PATH = 'Authenticate/RefreshToken';

/**
 * A refresh that did not say no (429, 5xx, no network): the session stays, and the call fails with this instead
 * of its 401, so nothing takes it for a session that ended.
 */
export class SessionRefreshUnavailable extends Error {
  constructor(cause: unknown) {
    super('The session could not be renewed right now', { cause });
    this.name = 'SessionRefreshUnavailable';
  }
}

export interface SessionEvents {
  /**
   * The server refused to renew the session (the refresh token used, revoked or expired), just before it is cleared:
   * the shopper is told, rather than find themselves signed out without a word (issue 24).
   */
  onRefused?: () => void;
}

/** `base` must carry no session hooks: the refresh call goes through it. */
export function withSession(base: KyInstance, store: SessionStore, events: SessionEvents = {}): KyInstance {
  let refreshing: Promise<string | undefined> | undefined;

  async function refreshOnce(expiredToken: string): Promise<string | undefined> {
    // Another tab may have refreshed meanwhile (the refresh token is then already spent): take its token.
    const stored = currentToken();
    const claims = readToken(stored);
    if (stored && stored !== expiredToken && claims && !expiresWithin(claims)) return stored;
    const refreshToken = store.refreshToken();
    if (!refreshToken) return undefined;
    try {
      const session = await base.post(REFRESH_PATH, { json: { expiredToken, refreshToken }, retry: 0 }).json<SessionDto>();
      store.save(session);
      return session.token;
    } catch (error) {
      console.error('Cannot refresh token. Try again later...', error); // SPEC §8's log; a refusal is also told (onRefused)
      // Refused (used, revoked, expired): the session is over. Anything else (too many refreshes from a shared
      // carrier address, a server fault, no network) keeps it for the next try.
      const status = apiStatus(error);
      if (status !== 400 && status !== 401) throw new SessionRefreshUnavailable(error);
      try {
        events.onRefused?.();
      } catch (notTold) {
        console.error('Cannot say that the session ended', notTold);
      }
      store.clear();
      return undefined;
    }
  }

  /** One refresh at a time across the shopper's tabs too (Web Locks), where the browser has them. */
  async function refreshInLock(expiredToken: string): Promise<string | undefined> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return refreshOnce(expiredToken);
    return await locks.request('kirana-token-refresh', () => refreshOnce(expiredToken));
  }

  /** Every caller that needs a refresh while one is running shares it. */
  function refresh(expiredToken: string): Promise<string | undefined> {
    refreshing ??= refreshInLock(expiredToken).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  /** The stored token, or undefined when there is none or it is malformed (which counts as signed out). */
  function currentToken(): string | undefined {
    const token = store.token();
    if (token && !readToken(token)) {
      store.clear();
      return undefined;
    }
    return token;
  }

  return base.extend({
    hooks: {
      beforeRequest: [
        async ({ request, options }) => {
          let token = currentToken();
          const claims = readToken(token);
          if (token && claims && (options.context as SessionContext).fresh && expiresWithin(claims)) {
            token = await refresh(token);
          }
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        async ({ request, options, response, retryCount }) => {
          // One refresh-and-retry per request: the retried request's own 401 goes back to the caller.
          if (response.status !== 401 || retryCount > 0 || (options.context as SessionContext).credentials) return;
          const sent = request.headers.get('Authorization')?.replace(/^Bearer /, '');
          if (!sent) return;
          // Another request may have refreshed since this one left: then its token is simply newer.
          const stored = currentToken();
          const token = stored && stored !== sent ? stored : await refresh(sent);
          if (!token) return;
          const headers = new Headers(request.headers);
          headers.set('Authorization', `Bearer ${token}`);
          return ky.retry({ request: new Request(request, { headers }), delay: 0, code: 'TOKEN_REFRESHED' });
        },
      ],
    },
  });
}
