// Background Sync for the cart changes made offline (issue 26). The browser wakes the worker with the tag the page
// registered (src/client/cart-queue.ts, askForBackgroundSync) when the connection returns; the worker only tells the
// open pages, which send the queue themselves (src/client/cart.ts): the page holds the shopper's token and sends the
// changes in the order they were made, one at a time across tabs. The worker never writes to the cart.
//
// cart-queue.ts takes nothing but types at load, so the worker's bundle gets these two strings and none of its
// IndexedDB code (esbuild drops what the worker does not use).
import { CART_SYNC_MESSAGE, CART_SYNC_TAG } from '../client/cart-queue.ts';

/** The worker's open pages, as much of Clients as this needs. */
export interface WindowClients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<ReadonlyArray<{ postMessage(message: unknown): void }>>;
}

/**
 * What a `sync` event with `tag` comes to: for the cart's tag, every open page of the shop (an uncontrolled one too:
 * the first page, open before the worker ran) is asked to send its queue; returns how many were asked. Another tag:
 * null, not ours. No page open: nothing to do now, the next page load sends the queue.
 */
export async function passOnSync(tag: string, clients: WindowClients): Promise<number | null> {
  if (tag !== CART_SYNC_TAG) return null;
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const window of windows) window.postMessage({ type: CART_SYNC_MESSAGE });
  return windows.length;
}
