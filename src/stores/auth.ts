// The shopper's session, one state for every island and page script (SPEC §3 localStorage keys, exactly:
// token, refreshToken, userid, user, proid). @nanostores/persistent keeps each key in localStorage and follows
// the `storage` event, so a sign-in or sign-out in one tab shows in the others.
import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import type { SessionDto, UserDto } from '../server/account-schemas.ts';
import type { SessionStore } from '../lib/api/session-hooks.ts';
import { decodeKeptAdd, encodeKeptAdd, KEPT_ADD_KEY, type KeptAdd } from '../lib/kept-add.ts';

export const $token = persistentAtom<string | undefined>('token', undefined);
export const $refreshToken = persistentAtom<string | undefined>('refreshToken', undefined);
export const $userId = persistentAtom<string | undefined>('userid', undefined);
/** Signed out is no `user` key at all (never the text 'null'): the pages' inline scripts test for the key. */
export const $user = persistentAtom<UserDto | null>('user', null, {
  encode: (user: UserDto | null) => (user ? JSON.stringify(user) : undefined),
  decode: (text: string): UserDto | null => {
    try {
      const user = JSON.parse(text) as UserDto | null;
      return user && typeof user === 'object' && 'id' in user ? user : null;
    } catch {
      return null;
    }
  },
});
/**
 * The product (and pack size) a signed-out shopper tried to add, kept across the trip to sign in or register (SPEC §3
 * `proid`); the first signed-in page adds it (src/client/header-account.ts).
 */
export const $keptAdd = persistentAtom<KeptAdd | undefined>(KEPT_ADD_KEY, undefined, {
  encode: (kept: KeptAdd | undefined) => (kept ? encodeKeptAdd(kept) : undefined),
  decode: decodeKeptAdd,
});

/** Pages and the header go by the stored user (SPEC §4: "some routes use the presence of a user entry"). */
export const $signedIn = computed($user, (user) => user !== null);

export function saveSession(session: SessionDto) {
  $token.set(session.token);
  $refreshToken.set(session.refreshToken);
  $userId.set(String(session.user.id));
  $user.set(session.user);
}

/** SPEC §4: signing out clears all of the shop's local storage. */
export function clearSession() {
  $token.set(undefined);
  $refreshToken.set(undefined);
  $userId.set(undefined);
  $keptAdd.set(undefined);
  $user.set(null);
}

/**
 * A key as localStorage holds it now. The atoms follow other tabs only on the async `storage` event, too late for a
 * refresh that another tab finished while this one waited for the lock.
 */
function storedNow(key: string, atomValue: string | undefined): string | undefined {
  try {
    return typeof localStorage === 'undefined' ? atomValue : (localStorage.getItem(key) ?? undefined);
  } catch {
    return atomValue; // storage refused (a privacy setting): the atom is all there is
  }
}

/** The ky hooks' view of the session (src/client/api.ts). */
export const sessionStore: SessionStore = {
  token: () => storedNow('token', $token.get()),
  refreshToken: () => storedNow('refreshToken', $refreshToken.get()),
  save: saveSession,
  clear: clearSession,
};
