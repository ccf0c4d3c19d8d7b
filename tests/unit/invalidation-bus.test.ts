import { describe, expect, it } from 'vitest';
import { inProcessBus, invalidationBusFor, type StaleTags } from '../../src/server/cache/invalidation-bus.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';

describe('inProcessBus', () => {
  it('tells every subscriber before publish returns, until it unsubscribes', () => {
    const bus = inProcessBus();
    const first: StaleTags[] = [];
    const second: StaleTags[] = [];
    const stopFirst = bus.subscribe((tags) => first.push(tags));
    bus.subscribe((tags) => second.push(tags));
    void bus.publish(staleAfter.reviewAdded(5));
    expect(first).toEqual([['product:5']]);
    expect(second).toEqual([['product:5']]);
    stopFirst();
    void bus.publish(staleAfter.catalogueImported());
    expect(first).toHaveLength(1);
    expect(second).toEqual([['product:5'], ['catalogue']]);
  });

  it('publishes nothing for no tags', async () => {
    const bus = inProcessBus();
    const heard: StaleTags[] = [];
    bus.subscribe((tags) => heard.push(tags));
    await bus.publish([]);
    expect(heard).toEqual([]);
  });

  it('a subscriber that throws is logged, and the others still hear, and publish does not throw', async () => {
    const logged: string[] = [];
    const bus = inProcessBus((m) => logged.push(m));
    const heard: StaleTags[] = [];
    bus.subscribe(() => {
      throw new Error('broken cache');
    });
    bus.subscribe((tags) => heard.push(tags));
    await expect(bus.publish(['listings'])).resolves.toBeUndefined();
    expect(heard).toEqual([['listings']]);
    expect(logged).toEqual([expect.stringContaining('broken cache')]);
  });

  it('is the bus of a shop without a database server', async () => {
    const bus = invalidationBusFor({}, () => {});
    const heard: StaleTags[] = [];
    bus.subscribe((tags) => heard.push(tags));
    await bus.publish(['listings']);
    expect(heard).toEqual([['listings']]);
    await bus.close();
  });
});
