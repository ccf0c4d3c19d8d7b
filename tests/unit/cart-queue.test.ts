// Cart changes made offline (issue 26): kept in order, sent in order and each once, drawn as "will be sent".
import { describe, expect, it } from 'vitest';
import { addToTakeBack, memoryQueue, sendInOrder, type QueuedChange, type SendResult } from '../../src/client/cart-queue.ts';
import { stepperView, WILL_BE_SENT } from '../../src/lib/cart-stepper.ts';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { cartWithPending, type PendingChange } from '../../src/stores/cart.ts';

const add = (productId: number, key: string, userId = '7'): QueuedChange => ({
  userId,
  key,
  change: { kind: 'add', productId, variantId: 0 },
  label: `Product ${productId}`,
  priceId: 0,
});
const cart = (lines: { id: number; productsId: number; qty: number; inStock?: boolean }[]): CartDto =>
  ({
    lines: lines.map((l) => ({ productsId: l.productsId, productVariantsId: 0, id: l.id, qty: l.qty, maxQty: 10, limitedByStock: false, inStock: l.inStock ?? true })),
    summary: { itemCount: lines.filter((l) => l.inStock !== false).reduce((n, l) => n + l.qty, 0), totalPaise: 1000 },
  }) as unknown as CartDto;

describe('sending the queue', () => {
  it('sends the changes in the order they were made, each once, and empties the queue', async () => {
    const store = memoryQueue();
    for (const [id, key] of [[1, 'k-1'], [2, 'k-2'], [3, 'k-3']] as const) await store.add(add(id, key));
    const sentKeys: string[] = [];
    const told: string[] = [];
    const left = await sendInOrder(store, '7', async (c) => {
      sentKeys.push(c.key);
      return { kind: 'sent', cart: cart([]) };
    }, { sent: (c) => told.push(c.key), refused: () => {} });
    expect(left).toBe(0);
    expect(sentKeys).toEqual(['k-1', 'k-2', 'k-3']);
    expect(told).toEqual(['k-1', 'k-2', 'k-3']);
    expect(await store.all()).toEqual([]);
    // Sending again sends nothing: each change went once.
    await sendInOrder(store, '7', async (c) => (sentKeys.push(c.key), { kind: 'sent', cart: cart([]) }), { sent: () => {}, refused: () => {} });
    expect(sentKeys).toHaveLength(3);
  });

  it('stops at a change that cannot go yet, keeps it and those after it, and resends it with the same key', async () => {
    const store = memoryQueue();
    for (const [id, key] of [[1, 'k-1'], [2, 'k-2'], [3, 'k-3']] as const) await store.add(add(id, key));
    const attempts: string[] = [];
    let connected = false;
    const send = async (c: QueuedChange): Promise<SendResult> => {
      attempts.push(c.key);
      if (c.key === 'k-2' && !connected) return { kind: 'stopped' };
      return { kind: 'sent', cart: cart([]) };
    };
    const hooks = { sent: () => {}, refused: () => {} };
    expect(await sendInOrder(store, '7', send, hooks)).toBe(2);
    expect((await store.all()).map((c) => c.key)).toEqual(['k-2', 'k-3']);
    connected = true;
    expect(await sendInOrder(store, '7', send, hooks)).toBe(0);
    // The replay of k-2 carries the key it was first tried with: the API counts it once either way.
    expect(attempts).toEqual(['k-1', 'k-2', 'k-2', 'k-3']);
  });

  it('drops a refused change, tells why, and goes on with the next', async () => {
    const store = memoryQueue();
    await store.add(add(1, 'k-1'));
    await store.add(add(2, 'k-2'));
    const refusals: string[] = [];
    const sent: string[] = [];
    const left = await sendInOrder(
      store,
      '7',
      async (c) => (c.key === 'k-1' ? { kind: 'refused', message: 'Only 0 left of Product 1.' } : { kind: 'sent', cart: cart([]) }),
      { sent: (c) => sent.push(c.key), refused: (c, message) => refusals.push(`${c.label}: ${message}`) },
    );
    expect(left).toBe(0);
    expect(refusals).toEqual(['Product 1: Only 0 left of Product 1.']);
    expect(sent).toEqual(['k-2']);
  });

  it("sends only the signed-in shopper's changes", async () => {
    const store = memoryQueue();
    await store.add(add(1, 'theirs', '8'));
    await store.add(add(2, 'mine', '7'));
    const sentKeys: string[] = [];
    await sendInOrder(store, '7', async (c) => (sentKeys.push(c.key), { kind: 'sent', cart: cart([]) }), { sent: () => {}, refused: () => {} });
    expect(sentKeys).toEqual(['mine']);
    expect((await store.all()).map((c) => c.key)).toEqual(['theirs']);
  });

  it("takes back the last pending add of a product ('−' on a line not sent yet)", async () => {
    const store = memoryQueue();
    await store.add(add(1, 'first'));
    await store.add(add(2, 'other'));
    await store.add(add(1, 'second'));
    const queue = await store.all();
    expect(addToTakeBack(queue, '7', 1, 0)?.key).toBe('second');
    expect(addToTakeBack(queue, '8', 1, 0)).toBeUndefined();
  });
});

describe('the cart with what waits to be sent', () => {
  it('counts pending adds, changes and removals over the server cart, and marks their lines as will be sent', () => {
    const server = cart([
      { id: 11, productsId: 1, qty: 2 },
      { id: 12, productsId: 2, qty: 1 },
      { id: 13, productsId: 3, qty: 4 },
    ]);
    const pending: PendingChange[] = [
      { kind: 'add', productId: 1, variantId: 0 },
      { kind: 'add', productId: 5, variantId: 0 },
      { kind: 'add', productId: 5, variantId: 0 },
      { kind: 'set', productId: 3, variantId: 0, lineId: 13, qty: 1 },
      { kind: 'remove', productId: 2, variantId: 0, lineId: 12 },
    ];
    const { count, marks } = cartWithPending(server, pending);
    // 7 on the server, +1 +2 on adds, 4 → 1, 1 removed.
    expect(count).toBe(7 + 1 + 2 - 3 - 1);
    expect(marks['1:0']).toMatchObject({ lineId: 11, qty: 3, pending: true });
    expect(marks['5:0']).toMatchObject({ qty: 2, pending: true });
    expect(marks['5:0']!.lineId).toBeLessThan(0);
    expect(marks['3:0']).toMatchObject({ lineId: 13, qty: 1, pending: true });
    expect(marks['2:0']).toBeUndefined();
    expect(stepperView(marks['5:0']).note).toBe(WILL_BE_SENT);
    expect(stepperView(marks['5:0']).inCart).toBe(true);
  });

  it('draws the server cart as it is when nothing waits', () => {
    const { count, marks } = cartWithPending(cart([{ id: 11, productsId: 1, qty: 2 }]), []);
    expect(count).toBe(2);
    expect(marks['1:0']!.pending).toBeUndefined();
    expect(stepperView(marks['1:0']).note).toBe('');
  });
});
