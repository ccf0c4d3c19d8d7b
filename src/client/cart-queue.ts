// Cart changes made offline (issue 26): kept in IndexedDB, each with its own Idempotency-Key, drawn as "will be sent"
// (src/stores/cart.ts), and sent in order when the connection returns (the `online` event, the next page load, or a
// Background Sync the service worker passes on). The API counts a key once (src/server/services/cart-write-keys.ts),
// so a change sent twice (its answer lost in a tunnel, two tabs) still counts once. Loaded with src/client/cart.ts,
// never before: the raw IndexedDB API keeps it small.
import type { CartDto } from '../server/account-schemas.ts';
import type { PendingChange } from '../stores/cart.ts';

/** One change waiting to be sent. `seq` orders them (IndexedDB's key generator). */
export interface QueuedChange {
  seq?: number;
  /** The shopper who made it: another signing in on this browser does not send it. */
  userId: string;
  key: string;
  change: PendingChange;
  /** 'Toor Dal 1 kg': how a refusal names it. */
  label: string;
  /** The pack's price id, as the add's payload carries it. */
  priceId: number;
}

/** Where the changes are kept: IndexedDB in the browser, memory in tests. */
export interface QueueStore {
  all(): Promise<QueuedChange[]>;
  add(change: QueuedChange): Promise<void>;
  remove(seq: number): Promise<void>;
}

/** A queue in this page's memory: tests, and a browser that refuses IndexedDB (the page keeps it while open). */
export function memoryQueue(): QueueStore {
  let next = 1;
  const kept: QueuedChange[] = [];
  return {
    all: async () => kept.map((c) => ({ ...c })),
    add: async (change) => {
      kept.push({ ...change, seq: next++ });
    },
    remove: async (seq) => {
      const at = kept.findIndex((c) => c.seq === seq);
      if (at >= 0) kept.splice(at, 1);
    },
  };
}

/** What sending one change came to. */
export type SendResult =
  | { kind: 'sent'; cart: CartDto }
  /** The API said no (409 'Only 3 left of …', 404 the line gone, 422): sending it again would change nothing. */
  | { kind: 'refused'; message: string }
  /** No connection, a fault, or signed out: it stays, and so do those after it (their order matters). */
  | { kind: 'stopped' };

export interface SendHooks {
  sent(change: QueuedChange, result: Extract<SendResult, { kind: 'sent' }>): void;
  refused(change: QueuedChange, message: string): void;
}

/**
 * Sends the shopper's changes oldest first, each once: a sent or refused one leaves the queue before the next is sent;
 * the first that stops keeps itself and the rest for next time. Returns how many are left.
 */
export async function sendInOrder(store: QueueStore, userId: string, send: (change: QueuedChange) => Promise<SendResult>, hooks: SendHooks): Promise<number> {
  const mine = (await store.all()).filter((c) => c.userId === userId);
  for (const [index, change] of mine.entries()) {
    const result = await send(change);
    if (result.kind === 'stopped') return mine.length - index;
    await store.remove(change.seq!);
    if (result.kind === 'sent') hooks.sent(change, result);
    else hooks.refused(change, result.message);
  }
  return 0;
}

/**
 * A change made to a line only pending adds made (no line id yet): '−' takes back the last of those adds instead of
 * queuing a change the server could not place. Returns the queued change to drop, if any.
 */
export function addToTakeBack(queue: readonly QueuedChange[], userId: string, productId: number, variantId: number): QueuedChange | undefined {
  return queue.findLast((c) => c.userId === userId && c.change.kind === 'add' && c.change.productId === productId && c.change.variantId === variantId);
}

const DB_NAME = 'kirana';
const STORE = 'cart-queue';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let opening: Promise<IDBDatabase> | undefined;
function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opening;
}

async function inStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  const tx = db.transaction(STORE, mode);
  const result = await request(act(tx.objectStore(STORE)));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
  return result;
}

/** The browser's queue; its records come back in the order they were added (by `seq`). */
export const indexedDbQueue: QueueStore = {
  all: () => inStore('readonly', (s) => s.getAll() as IDBRequest<QueuedChange[]>),
  add: async (change) => {
    const { seq: _seq, ...record } = change;
    await inStore('readwrite', (s) => s.add(record));
  },
  remove: async (seq) => {
    await inStore('readwrite', (s) => s.delete(seq));
  },
};

/** The Background Sync tag the service worker passes on to open pages as {type: 'kirana-sync-cart'}. */
export const CART_SYNC_TAG = 'kirana-cart-queue';
export const CART_SYNC_MESSAGE = 'kirana-sync-cart';

/** Asks the browser to wake the service worker when the connection returns, where it can (Chromium); else nothing. */
export async function askForBackgroundSync(): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const registration = (await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000)),
    ])) as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register(CART_SYNC_TAG);
  } catch {
    // No worker, or the browser said no: the `online` event and the next page load send the queue anyway.
  }
}
