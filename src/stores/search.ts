// Search-box state and the pure rules of SPEC §4/§5 (kept here so they are unit-tested without a browser).
import { atom, type ReadableAtom } from 'nanostores';
import type { Suggestion } from '../lib/api/types.ts';
import { normalizeSearchText } from '../lib/search-text.ts';

/** SPEC §9: suggestions hide 200 ms after the input loses focus. */
export const SUGGESTION_HIDE_DELAY_MS = 200;
/** SPEC §4/§9: the loading skeleton is cleared after 2000 ms at the latest. */
export const LOADING_MAX_MS = 2000;
/** Wait this long after the last keystroke before asking for suggestions. */
export const SUGGESTION_DEBOUNCE_MS = 120;

/** What a shopper reads next to a suggestion. */
export const SUGGESTION_KIND: Record<Suggestion['type'], string> = {
  products: 'Product',
  Brand: 'Brand',
  Category: 'Category',
};

export interface LoadingFlag {
  readonly $loading: ReadableAtom<boolean>;
  /** Marks loading. It clears itself `maxMs` after it was first set, even if `stop` never comes and
   * `start` is called again meanwhile: one stretch of "loading" never lasts longer than `maxMs`. */
  start(): void;
  stop(): void;
}

/** A loading flag that can never stay on longer than `maxMs` (SPEC §4: cleared after 2 seconds). */
export function createLoadingFlag(maxMs: number = LOADING_MAX_MS): LoadingFlag {
  const $loading = atom(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    $loading.set(false);
  };
  return {
    $loading,
    start() {
      if (timer === undefined) timer = setTimeout(stop, maxMs);
      $loading.set(true);
    },
    stop,
  };
}

export interface SuggestionResults {
  /** The normalized text these suggestions answer; '' when there is nothing to suggest. */
  query: string;
  items: Suggestion[];
}

export type FetchSuggestions = (query: string, signal: AbortSignal) => Promise<Suggestion[]>;

export interface SuggestionSearch {
  readonly $loading: ReadableAtom<boolean>;
  readonly $results: ReadableAtom<SuggestionResults>;
  /** Call on every change of the search text (SPEC §5: a suggestion search fires on every change). */
  update(text: string): void;
  /** Cancel whatever is pending (on unmount). */
  dispose(): void;
}

/**
 * The suggestion search behind one search box: debounced, the previous request aborted on every
 * change, and answers to anything but the latest request ignored (so they never arrive out of order).
 * Empty text empties the suggestions at once. Failures are only logged (SPEC §8).
 */
export function createSuggestionSearch(
  fetchSuggestions: FetchSuggestions,
  {
    debounceMs = SUGGESTION_DEBOUNCE_MS,
    loadingMaxMs = LOADING_MAX_MS,
    onError = (error: unknown) => console.error('Cannot load search suggestions', error),
  }: { debounceMs?: number; loadingMaxMs?: number; onError?: (error: unknown) => void } = {},
): SuggestionSearch {
  const loading = createLoadingFlag(loadingMaxMs);
  const $results = atom<SuggestionResults>({ query: '', items: [] });
  let latest = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    controller?.abort();
    controller = undefined;
  };

  const run = async (id: number, query: string) => {
    const ac = new AbortController();
    controller = ac;
    try {
      const items = await fetchSuggestions(query, ac.signal);
      if (id === latest) $results.set({ query, items });
    } catch (error) {
      if (id !== latest || ac.signal.aborted) return;
      onError(error);
      $results.set({ query, items: [] });
    } finally {
      if (id === latest) {
        controller = undefined;
        loading.stop();
      }
    }
  };

  return {
    $loading: loading.$loading,
    $results,
    update(text) {
      cancel();
      const id = ++latest;
      const query = normalizeSearchText(text);
      if (!query) {
        loading.stop();
        $results.set({ query: '', items: [] });
        return;
      }
      loading.start();
      timer = setTimeout(() => {
        timer = undefined;
        void run(id, query);
      }, debounceMs);
    },
    dispose() {
      latest++;
      cancel();
      loading.stop();
    },
  };
}
