// The Idempotency-Key of the order being placed, kept in sessionStorage with the body it was made for: the same
// body sent again (a double click, a retry, a reload of /checkout) reuses the key, so the API makes one order; a
// changed body (another slot, address or payment) gets a new key, since the API refuses a key reused for a
// different body (422).
import type { PlaceOrderInput } from '../server/order-schemas.ts';

export const ORDER_KEY_STORAGE = 'kirana-order-key';

type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

interface StoredKey {
  key: string;
  body: string;
}

/** The body as one string whatever order its fields were set in, so equal bodies compare equal. */
function canonical(body: PlaceOrderInput): string {
  return JSON.stringify([body.addressId, body.slotId, body.paymentMethod]);
}

/** A storage that refuses (a privacy setting) still keeps the key for this page's life. */
function memoryStorage(): KeyStorage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

function usable(storage: KeyStorage | undefined): KeyStorage {
  try {
    if (!storage) return memoryStorage();
    storage.getItem(ORDER_KEY_STORAGE);
    return storage;
  } catch {
    return memoryStorage();
  }
}

export function orderKeyStore(storage: KeyStorage | undefined, newKey: () => string = () => crypto.randomUUID()) {
  const store = usable(storage);

  function read(): StoredKey | null {
    try {
      const stored = JSON.parse(store.getItem(ORDER_KEY_STORAGE) ?? 'null') as Partial<StoredKey> | null;
      return typeof stored?.key === 'string' && typeof stored.body === 'string' ? { key: stored.key, body: stored.body } : null;
    } catch {
      return null;
    }
  }

  function save(body: string): string {
    const key = newKey();
    try {
      store.setItem(ORDER_KEY_STORAGE, JSON.stringify({ key, body } satisfies StoredKey));
    } catch {
      // Storage full or refused: the key still serves this attempt (a reload then makes a new one).
    }
    return key;
  }

  return {
    /** The key for this body: the stored one when it was made for the same body, else a new one (stored). */
    keyFor(body: PlaceOrderInput): string {
      const text = canonical(body);
      const stored = read();
      return stored && stored.body === text ? stored.key : save(text);
    },
    /** A new key for this body, whatever is stored (after the API refused the old key: 422). */
    renew(body: PlaceOrderInput): string {
      return save(canonical(body));
    },
    /** The order is placed: the next one is another order. */
    clear(): void {
      try {
        store.removeItem(ORDER_KEY_STORAGE);
      } catch {
        // nothing kept, nothing to clear
      }
    },
  };
}

export type OrderKeyStore = ReturnType<typeof orderKeyStore>;
