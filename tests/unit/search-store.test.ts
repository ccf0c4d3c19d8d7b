import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Suggestion } from '../../src/lib/api/types.ts';
import { normalizeSearchText } from '../../src/lib/search-text.ts';
import { urls } from '../../src/lib/urls.ts';
import {
  LOADING_MAX_MS,
  createLoadingFlag,
  createSuggestionSearch,
} from '../../src/stores/search.ts';

describe('normalizeSearchText', () => {
  it('lowercases and trims; blank text is empty', () => {
    expect(normalizeSearchText('  Bread ')).toBe('bread');
    expect(normalizeSearchText('TOMATOE')).toBe('tomatoe');
    expect(normalizeSearchText('   ')).toBe('');
    expect(normalizeSearchText('')).toBe('');
  });

  it('keeps within the API limit of 100 characters', () => {
    expect(normalizeSearchText('a'.repeat(150))).toHaveLength(100);
  });
});

describe('urls.suggestion', () => {
  it('opens a product, a brand listing or a category listing', () => {
    expect(urls.suggestion({ type: 'products', id: 42 })).toBe('/product-detail?id=42');
    expect(urls.suggestion({ type: 'Brand', id: 7 })).toBe('/shop?type=brand&id=7');
    expect(urls.suggestion({ type: 'Category', id: 'fruits-vegetables' })).toBe('/shop?type=category&id=fruits-vegetables');
  });
});

describe('createLoadingFlag', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is cleared after 2000 ms at the latest', () => {
    const flag = createLoadingFlag();
    flag.start();
    expect(flag.$loading.get()).toBe(true);
    vi.advanceTimersByTime(LOADING_MAX_MS - 1);
    expect(flag.$loading.get()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(flag.$loading.get()).toBe(false);
  });

  it('is not kept on past 2000 ms by starting again meanwhile', () => {
    const flag = createLoadingFlag();
    flag.start();
    vi.advanceTimersByTime(1500);
    flag.start();
    vi.advanceTimersByTime(500);
    expect(flag.$loading.get()).toBe(false);
    // A new stretch gets its own 2000 ms.
    flag.start();
    vi.advanceTimersByTime(1999);
    expect(flag.$loading.get()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(flag.$loading.get()).toBe(false);
  });

  it('can be cleared early', () => {
    const flag = createLoadingFlag(2000);
    flag.start();
    flag.stop();
    expect(flag.$loading.get()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

const s = (name: string, id = 1): Suggestion => ({ id, name, type: 'products' });

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createSuggestionSearch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces, asks with the lowercased text and shows loading until the answer', async () => {
    const fetch = vi.fn(async (q: string) => [s(`answer to ${q}`)]);
    const search = createSuggestionSearch(fetch, { debounceMs: 100 });
    search.update('T');
    search.update('To');
    search.update('Tomatoe');
    expect(search.$loading.get()).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe('tomatoe');
    expect(search.$results.get()).toEqual({ query: 'tomatoe', items: [s('answer to tomatoe')] });
    expect(search.$loading.get()).toBe(false);
  });

  it('aborts the previous request and ignores answers that arrive out of order', async () => {
    const calls: { q: string; signal: AbortSignal; d: ReturnType<typeof deferred<Suggestion[]>> }[] = [];
    const search = createSuggestionSearch(
      (q, signal) => {
        const d = deferred<Suggestion[]>();
        calls.push({ q, signal, d });
        return d.promise;
      },
      { debounceMs: 10 },
    );
    search.update('ri');
    await vi.advanceTimersByTimeAsync(10);
    search.update('rice');
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((c) => c.q)).toEqual(['ri', 'rice']);
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(calls[1]?.signal.aborted).toBe(false);

    calls[1]?.d.resolve([s('Basmati Rice')]);
    await vi.advanceTimersByTimeAsync(0);
    calls[0]?.d.resolve([s('Ribbon Pasta')]); // late answer to the older text
    await vi.advanceTimersByTimeAsync(0);
    expect(search.$results.get()).toEqual({ query: 'rice', items: [s('Basmati Rice')] });
  });

  it('empties the suggestions at once when the text is cleared, and cancels what is pending', async () => {
    const fetch = vi.fn(async () => [s('Atta')]);
    const search = createSuggestionSearch(fetch, { debounceMs: 10 });
    search.update('atta');
    await vi.advanceTimersByTimeAsync(10);
    expect(search.$results.get().items).toHaveLength(1);
    search.update('at');
    search.update('');
    expect(search.$results.get()).toEqual({ query: '', items: [] });
    expect(search.$loading.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('only logs a failure and shows no suggestions', async () => {
    const onError = vi.fn();
    const search = createSuggestionSearch(async () => Promise.reject(new Error('offline')), { debounceMs: 10, onError });
    search.update('dal');
    await vi.advanceTimersByTimeAsync(10);
    expect(onError).toHaveBeenCalledOnce();
    expect(search.$results.get()).toEqual({ query: 'dal', items: [] });
    expect(search.$loading.get()).toBe(false);
  });

  it('clears the loading flag after 2000 ms even when the API hangs', async () => {
    const search = createSuggestionSearch(() => new Promise<Suggestion[]>(() => {}), { debounceMs: 10 });
    search.update('ghee');
    await vi.advanceTimersByTimeAsync(1999);
    expect(search.$loading.get()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(search.$loading.get()).toBe(false);
  });
});
