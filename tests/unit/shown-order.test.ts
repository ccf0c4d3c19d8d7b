// Lines and items stay where the shopper saw them (src/lib/shown-order.ts): the cart's and the wishlist's Undo.
import { describe, expect, it } from 'vitest';
import { inShownOrder } from '../../src/lib/shown-order.ts';

const key = (item: string) => item;

describe('inShownOrder', () => {
  it('keeps the first answer in its own order', () => {
    expect(inShownOrder(['b', 'a', 'c'], key, [])).toEqual({ list: ['b', 'a', 'c'], known: ['b', 'a', 'c'] });
  });

  it('puts an item removed and added again (listed last by the API) back where it stood, and keeps it there', () => {
    const first = inShownOrder(['a', 'b', 'c'], key, []);
    const removed = inShownOrder(['b', 'c'], key, first.known);
    expect(removed.list).toEqual(['b', 'c']);
    const undone = inShownOrder(['b', 'c', 'a'], key, removed.known);
    expect(undone.list).toEqual(['a', 'b', 'c']);
    // The next change answers in the API's order again: the shopper's order stays.
    expect(inShownOrder(['b', 'c', 'a'], key, undone.known).list).toEqual(['a', 'b', 'c']);
  });

  it('adds what is new after what was shown, in the order the API gives it', () => {
    const shown = inShownOrder(['a', 'b'], key, []);
    expect(inShownOrder(['d', 'b', 'a', 'c'], key, shown.known)).toEqual({ list: ['a', 'b', 'd', 'c'], known: ['a', 'b', 'd', 'c'] });
  });

  it('sorts objects by their key and leaves the given list as it was', () => {
    const lines = [{ id: 'x:0' }, { id: 'y:0' }];
    const { list } = inShownOrder(lines, (line) => line.id, ['y:0', 'x:0']);
    expect(list.map((line) => line.id)).toEqual(['y:0', 'x:0']);
    expect(lines.map((line) => line.id)).toEqual(['x:0', 'y:0']);
  });
});
