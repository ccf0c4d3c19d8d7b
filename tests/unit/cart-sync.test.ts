// The service worker's Background Sync (issue 26): the cart's tag wakes every open page of the shop to send its queue;
// the worker itself sends nothing (src/service-worker/cart-sync.ts).
import { describe, expect, it } from 'vitest';
import { CART_SYNC_MESSAGE, CART_SYNC_TAG } from '../../src/client/cart-queue.ts';
import { passOnSync, type WindowClients } from '../../src/service-worker/cart-sync.ts';

function windows(count: number) {
  const received: unknown[][] = Array.from({ length: count }, () => []);
  const asked: unknown[] = [];
  const clients: WindowClients = {
    matchAll: async (options) => {
      asked.push(options);
      return received.map((inbox) => ({ postMessage: (message: unknown) => void inbox.push(message) }));
    },
  };
  return { clients, received, asked };
}

describe('Background Sync of the cart queue', () => {
  it('asks every open page, controlled or not, to send its queue, once each', async () => {
    const { clients, received, asked } = windows(2);
    expect(await passOnSync(CART_SYNC_TAG, clients)).toBe(2);
    expect(asked).toEqual([{ type: 'window', includeUncontrolled: true }]);
    expect(received).toEqual([[{ type: CART_SYNC_MESSAGE }], [{ type: CART_SYNC_MESSAGE }]]);
  });

  it('leaves another tag alone', async () => {
    const { clients, received, asked } = windows(1);
    expect(await passOnSync('something-else', clients)).toBeNull();
    expect(asked).toEqual([]);
    expect(received).toEqual([[]]);
  });

  it('with no page open, does nothing: the next page load sends the queue', async () => {
    const { clients } = windows(0);
    expect(await passOnSync(CART_SYNC_TAG, clients)).toBe(0);
  });
});
