// The cart's calls from the browser: the cart on start (SPEC §4's count, and each line for the steppers and the phone's
// cart bar), its add-to-cart (no token → sign in, the choice kept; fresh token; the product fetched fresh; the line
// posted), a stepper's change of a line, and the choice kept across sign-in added once signed in (issue 24). Every
// answer that carries the whole cart sets the badge, the steppers and the bar (src/stores/cart.ts).
import { readToken } from '../lib/auth/token.ts';
import { apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { isFreshKeptAdd, type KeptAdd } from '../lib/kept-add.ts';
import { $keptAdd, $token, $userId, clearSession } from '../stores/auth.ts';
import { $cartMarks, cartKey, showCart, showPending } from '../stores/cart.ts';
import type { CartDto } from '../server/account-schemas.ts';
import {
  addToTakeBack,
  askForBackgroundSync,
  CART_SYNC_MESSAGE,
  indexedDbQueue,
  memoryQueue,
  sendInOrder,
  type QueuedChange,
  type QueueStore,
  type SendResult,
} from './cart-queue.ts';
import { atLoad } from './load-api.ts';
import { cartCalls } from '../lib/api/account.ts';
import { newIdempotencyKey } from '../lib/ids.ts';

// The full client (ky, 13 KB gzip) loads on the shopper's first change to the cart, not with the page.
const fullClient = () => import('./api.ts');

/** SPEC §8's text for a cart post that failed for any reason but sign-in and stock. */
export const ADD_FAILED = 'Cannot Add Product In Cart..try again later.';
export const SIGN_IN_AGAIN = 'Please sign in again to add to your cart.';

/**
 * SPEC §4: the count loads on start when signed in. The whole cart, in one call: the cards' steppers and the phone's
 * cart bar need its lines and total as well. Failures are only logged (SPEC §8).
 */
export async function loadCart(): Promise<void> {
  const userId = $userId.get();
  if (!userId || !$token.get()) return;
  // What waits from an earlier visit is sent first (issue 26): the cart read after it is the one that counts.
  await startCartQueue();
  try {
    showCart(await cartCalls(atLoad).cart(userId));
  } catch (error) {
    console.error('Cannot load the cart', error);
  }
}

export interface CartChoice {
  productId: number;
  /** The chosen pack size and its price id; absent (0 in the payload) for a plain product. */
  variantId?: number | undefined;
  priceId?: number | undefined;
  /** How a toast names it when it has to wait offline ('Toor Dal 1 kg'). */
  label?: string | undefined;
  /** The Idempotency-Key of an add already tried once (./cart-controller.ts, without the client): sent again, it still adds one. */
  key?: string | undefined;
}

/** SPEC §3's add of one, now or sent later from the queue (the price, when known, is ignored: the database's counts). */
const addPayload = (userId: string, add: { productId: number; variantId?: number | undefined; priceId?: number | undefined; price?: number }) => ({
  productsId: add.productId,
  usersId: Number(userId),
  productVariantsId: add.variantId ?? 0,
  productVariantPriceId: add.priceId ?? 0,
  packing: 'packaging',
  ...(add.price === undefined ? {} : { price: add.price }),
  qty: 1,
});

export type AddOutcome =
  /** `label`: the product and its pack as the cart names them ('Toor Dal 1 kg'). */
  | {
      kind: 'added';
      name: string;
      label: string;
      qtyInCart: number;
      /** Offline (issue 26): kept to be sent when the connection returns, and what to tell the shopper. */
      queued?: string;
    }
  | { kind: 'sign-in'; message?: string }
  | { kind: 'failed'; message: string };

export async function addToCart(choice: CartChoice): Promise<AddOutcome> {
  const token = $token.get();
  const userId = $userId.get();
  if (!token || !userId || !readToken(token)) {
    keepForSignIn(choice);
    return { kind: 'sign-in' };
  }
  // One key for this add, whether it goes now or waits offline: sent twice, it still adds one.
  const waiting: QueuedChange = {
    userId,
    key: choice.key ?? newIdempotencyKey(),
    change: { kind: 'add', productId: choice.productId, variantId: choice.variantId ?? 0 },
    label: choice.label ?? '',
    priceId: choice.priceId ?? 0,
  };
  if (mustWait()) return queueAdd(waiting);
  try {
    // SPEC §4: the product is fetched fresh (its price may have changed since the page was made).
    const { browserCart, browserCatalogue } = await fullClient();
    const product = await browserCatalogue.product(choice.productId);
    if (!product) return { kind: 'failed', message: ADD_FAILED };
    const variantId = choice.variantId ?? 0;
    const cart = showCart(await browserCart.add(addPayload(userId, { ...choice, productId: product.id, price: product.price }), waiting.key));
    const line = cart.lines.find((l) => l.productsId === product.id && l.productVariantsId === variantId);
    const label = line?.variantName ? `${line.name} ${line.variantName}` : product.name;
    return { kind: 'added', name: product.name, label, qtyInCart: line?.qty ?? 1 };
  } catch (error) {
    // The connection dropped on the way: kept, and sent again with the same key (counted once if it had arrived).
    if (isNetworkFailure(error)) return queueAdd(waiting);
    console.error('Cannot add to the cart', error); // SPEC §4: exceptions are logged
    const status = apiStatus(error);
    if (status === 401) {
      // A refresh could not mend it (src/lib/api/session-hooks.ts): the session is over.
      clearSession();
      keepForSignIn(choice);
      return { kind: 'sign-in', message: SIGN_IN_AGAIN };
    }
    // A refresh that did not say no (SessionRefreshUnavailable: 429, 5xx, offline) lands below: the shopper stays
    // signed in. Out of stock, too many of it, or too fast: the API's own words say what to do.
    if (status === 409 || status === 422 || status === 429) return { kind: 'failed', message: apiErrorMessage(error, ADD_FAILED) };
    return { kind: 'failed', message: ADD_FAILED };
  }
}

/** SPEC §3's `proid`, with the pack: what the shopper chose survives the trip to sign in or register. */
function keepForSignIn({ productId, variantId, priceId }: CartChoice) {
  $keptAdd.set({ productId, variantId, priceId, at: Date.now() });
}

/** The choice kept before signing in, taken once (and forgotten, whatever happens next); none when stale or absent. */
export function takeKeptAdd(): KeptAdd | undefined {
  const kept = $keptAdd.get();
  if (kept) $keptAdd.set(undefined);
  return kept && isFreshKeptAdd(kept) ? kept : undefined;
}

export type LineOutcome = { kind: 'changed' } | { kind: 'sign-in'; message: string } | { kind: 'failed'; message: string };

/** A stepper's change: a line to `qty` units, or removed at 0. The cart that answers sets the stores. */
export async function changeLine(lineId: number, qty: number, name: string): Promise<LineOutcome> {
  const userId = $userId.get();
  const [at, mark] = Object.entries($cartMarks.get()).find(([, m]) => m.lineId === lineId) ?? [];
  const [productId = 0, variantId = 0] = at?.split(':').map(Number) ?? [];
  // A line only adds made offline made (no id yet): '+' is one more add, '−' takes the last one back.
  if (userId && mark && lineId < 0) {
    if (qty > mark.qty) await queueAdd({ userId, key: newIdempotencyKey(), change: { kind: 'add', productId, variantId }, label: name, priceId: 0 });
    else await takeBackAdd(userId, productId, variantId);
    return { kind: 'changed' };
  }
  const waiting: QueuedChange | undefined = userId
    ? {
        userId,
        key: newIdempotencyKey(),
        change: qty > 0 ? { kind: 'set', productId, variantId, lineId, qty } : { kind: 'remove', productId, variantId, lineId },
        label: name,
        priceId: 0,
      }
    : undefined;
  if (waiting && mustWait()) {
    await keep(waiting);
    return { kind: 'changed' };
  }
  try {
    const { browserCart } = await fullClient();
    const cart: CartDto =
      qty > 0 ? await browserCart.setQty(lineId, qty, waiting?.key) : await browserCart.remove(lineId, waiting?.key);
    showCart(cart);
    return { kind: 'changed' };
  } catch (error) {
    if (waiting && isNetworkFailure(error)) {
      await keep(waiting);
      return { kind: 'changed' };
    }
    console.error('Cannot change the cart', error);
    const status = apiStatus(error);
    if (status === 401) {
      clearSession();
      return { kind: 'sign-in', message: SIGN_IN_AGAIN };
    }
    // Changed in another tab meanwhile (the line gone): show the cart as it is now.
    if (status === 404) void loadCart();
    // 'Only 8 left of …', or out of stock: the API's own words.
    if (status === 409 || status === 429) return { kind: 'failed', message: apiErrorMessage(error, ADD_FAILED) };
    return { kind: 'failed', message: `Could not change the quantity of ${name}. Please try again.` };
  }
}

// ---- Changes made offline (issue 26): kept, drawn as "will be sent", sent in order once online (./cart-queue.ts).

export const QUEUED_TEXT = 'You are offline: it will be added to your cart when you are back online.';

let store: QueueStore = typeof indexedDB === 'undefined' ? memoryQueue() : indexedDbQueue;
/** The queue as last read: what the stores draw, and whether a new change must wait behind older ones. */
let queue: QueuedChange[] = [];

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
const mine = (change: QueuedChange) => change.userId === $userId.get();
/** Offline, or older changes still wait: a new one goes behind them, so the server sees them in the order made. */
const mustWait = () => isOffline() || queue.some(mine);

/** No answer at all (no network, a timeout, the client's own file not loading offline): not a refusal. */
function isNetworkFailure(error: unknown): boolean {
  if (apiStatus(error) !== 0) return false;
  const name = (error as { name?: unknown } | null)?.name;
  return isOffline() || error instanceof TypeError || name === 'TimeoutError' || name === 'NetworkError';
}

/** Runs a queue operation; IndexedDB refused (a private window, storage full) leaves the queue in this page's memory. */
async function withStore<T>(act: (s: QueueStore) => Promise<T>): Promise<T> {
  try {
    return await act(store);
  } catch (error) {
    if (store === indexedDbQueue) {
      console.error('IndexedDB refused the cart queue; it is kept in this page only', error);
      const fallback = memoryQueue();
      for (const change of queue) await fallback.add(change);
      store = fallback;
      return act(store);
    }
    throw error;
  }
}

async function readQueue() {
  queue = await withStore((s) => s.all());
  showPending(queue.filter(mine).map((c) => c.change));
}

async function keep(change: QueuedChange) {
  await withStore((s) => s.add(change));
  await readQueue();
  if (isOffline()) void askForBackgroundSync();
  else void sendQueued();
}

async function queueAdd(change: QueuedChange): Promise<AddOutcome> {
  await keep(change);
  const { productId, variantId } = change.change;
  const qtyInCart = $cartMarks.get()[cartKey(productId, variantId)]?.qty ?? 1;
  const label = change.label || 'This product';
  return { kind: 'added', name: label, label, qtyInCart, queued: QUEUED_TEXT };
}

async function takeBackAdd(userId: string, productId: number, variantId: number) {
  const last = addToTakeBack(queue, userId, productId, variantId);
  if (last?.seq !== undefined) await withStore((s) => s.remove(last.seq!));
  await readQueue();
}

/** One change to the API, with its key. */
async function sendOne(waiting: QueuedChange): Promise<SendResult> {
  if (isOffline()) return { kind: 'stopped' };
  try {
    const { browserCart } = await fullClient();
    const { change, key } = waiting;
    const cart =
      change.kind === 'add'
        ? await browserCart.add(addPayload(waiting.userId, { ...change, priceId: waiting.priceId }), key)
        : change.kind === 'set'
          ? await browserCart.setQty(change.lineId, change.qty, key)
          : await browserCart.remove(change.lineId, key);
    return { kind: 'sent', cart };
  } catch (error) {
    const status = apiStatus(error);
    // The API's no: out of stock meanwhile, the line gone, a bad change. Sending it again would change nothing.
    if (status === 400 || status === 404 || status === 409 || status === 422) {
      return { kind: 'refused', message: apiErrorMessage(error, ADD_FAILED) };
    }
    if (status === 401) clearSession();
    return { kind: 'stopped' };
  }
}

/** A change the API refused, said plainly: what it was, and the API's reason ('Only 3 left of Toor Dal (1 kg).'). */
export function refusalText(change: QueuedChange, reason: string): string {
  const what = change.label || 'A product';
  if (change.change.kind === 'add') return `${what} could not be added to your cart: ${reason}`;
  if (change.change.kind === 'set') return `The quantity of ${what} could not be changed: ${reason}`;
  return `${what} could not be removed from your cart: ${reason}`;
}

let sending: Promise<void> | undefined;
let sendAgain = false;

/** Sends what waits, in order, once at a time in this page (and across tabs where the browser has Web Locks). */
export function sendQueued(): Promise<void> {
  if (sending) {
    sendAgain = true;
    return sending;
  }
  sending = (async () => {
    do {
      sendAgain = false;
      await sendOnce();
    } while (sendAgain);
  })().finally(() => {
    sending = undefined;
  });
  return sending;
}

async function sendOnce() {
  const userId = $userId.get();
  if (!userId || !$token.get() || isOffline()) return;
  await readQueue();
  if (!queue.some(mine)) return;
  let refused = false;
  const run = () =>
    sendInOrder(store, userId, sendOne, {
      sent: (change, result) => {
        queue = queue.filter((c) => c.seq !== change.seq);
        showPending(queue.filter(mine).map((c) => c.change));
        showCart(result.cart);
      },
      refused: (change, reason) => {
        refused = true;
        queue = queue.filter((c) => c.seq !== change.seq);
        void import('../lib/toast.ts').then((toasts) => toasts.toastError(refusalText(change, reason)));
      },
    });
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) await locks.request('kirana-cart-queue', run);
  else await run();
  await readQueue();
  // The line the refusal left is the server's to draw (its stock, what is left).
  if (refused) {
    try {
      const { browserCart } = await fullClient();
      showCart(await browserCart.cart(userId));
    } catch (error) {
      console.error('Cannot load the cart', error);
    }
  }
}

let queueStarted: Promise<void> | undefined;

/** At the page's start (signed in): draws what waits, sends it when online, and whenever the connection returns. */
export function startCartQueue(): Promise<void> {
  queueStarted ??= (async () => {
    window.addEventListener('online', () => void sendQueued());
    navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: unknown } | null>) => {
      if (event.data?.type === CART_SYNC_MESSAGE) void sendQueued();
    });
    try {
      await readQueue();
      await sendQueued();
    } catch (error) {
      console.error('Cannot send the cart changes made offline', error);
    }
  })();
  return queueStarted;
}
