// The session store the browser's ky hooks read (src/stores/auth.ts): localStorage as it is now, not the atoms,
// which learn of another tab's refresh only on the later `storage` event.
import { setPersistentEngine } from '@nanostores/persistent';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A localStorage that another tab can write to without this one hearing of it. Like the real one, its items are
 * its properties too (@nanostores/persistent reads and writes them so).
 */
function sharedStorage(): { items: Record<string, string>; storage: Storage } {
  const methods = {
    getItem(this: Record<string, string>, key: string) {
      return Object.hasOwn(this, key) ? this[key]! : null;
    },
  };
  const items = Object.create(methods) as Record<string, string>;
  return { items, storage: items as unknown as Storage };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('sessionStore', () => {
  it('answers what localStorage holds at the moment it is asked', async () => {
    const { items, storage } = sharedStorage();
    vi.stubGlobal('localStorage', storage);
    // Node has no localStorage of its own: the atoms keep theirs in the same storage, and hear no events.
    setPersistentEngine(storage, { addEventListener() {}, removeEventListener() {} });
    const { sessionStore, saveSession, $token } = await import('../../src/stores/auth.ts');
    saveSession({ token: 'a.b.c', refreshToken: 'refresh-1', user: { id: 7, name: 'Asha', email: 'a@b.in', phone: '9876543210', phoneVerified: true, smsNotices: true, pincode: null } });
    expect(sessionStore.token()).toBe('a.b.c');
    // Another tab refreshed: its write is in the storage, and no storage event has reached the atoms yet.
    items.token = 'd.e.f';
    items.refreshToken = 'refresh-2';
    expect($token.get()).toBe('a.b.c');
    expect(sessionStore.token()).toBe('d.e.f');
    expect(sessionStore.refreshToken()).toBe('refresh-2');
    delete items.token;
    expect(sessionStore.token()).toBeUndefined();
  });
});
