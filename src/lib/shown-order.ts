// Lines and items stay where the shopper saw them (issue 24): an undone removal comes back to its place, not to the
// bottom where the API lists a line added again (the newest last), and stays there through the next change.

/**
 * `list` in the order of the `known` keys, then the keys not known yet in the list's own order; and the order to keep
 * for next time. A key stays known after its item is gone, so an item put back returns to where it stood.
 */
export function inShownOrder<T>(list: readonly T[], keyOf: (item: T) => string, known: readonly string[]): { list: T[]; known: string[] } {
  const knownKeys = new Set(known);
  const order = [...known, ...list.map(keyOf).filter((key) => !knownKeys.has(key))];
  const place = new Map(order.map((key, i) => [key, i]));
  return { list: [...list].sort((a, b) => place.get(keyOf(a))! - place.get(keyOf(b))!), known: order };
}
