// The first suggestions come sooner (issue 26). The search box hydrates on first interaction, and on a slow phone React
// takes seconds to arrive after the first keystroke: what is typed before then is asked of the API here at once, with
// plain fetch, and the island takes that answer (or the request still on its way) instead of asking again, so the API's
// round trip overlaps React's download. Every suggestion request of the search box goes through plain fetch too: ky
// (13 KB gzip) is not part of what the box downloads when it wakes.
import { apiBaseUrl } from '../lib/api/base-url.ts';
import type { Suggestion } from '../lib/api/types.ts';
import { normalizeSearchText } from '../lib/search-text.ts';
import { SUGGESTION_DEBOUNCE_MS } from '../stores/search.ts';

/** Answers asked for before hydration, by query; few (one box, one shopper typing). */
const asked = new Map<string, Promise<Suggestion[]>>();
const KEPT = 5;

/** The API's suggestions for a normalized query; a failure throws (the search box logs it and shows none). */
export async function fetchSuggestions(query: string, signal?: AbortSignal): Promise<Suggestion[]> {
  const answer = await fetch(new URL(`app/Products/SearchProducts/${encodeURIComponent(query)}`, apiBaseUrl()), { signal });
  if (!answer.ok) throw new Error(`Suggestions for “${query}” answered HTTP ${answer.status}`);
  return (await answer.json()) as Suggestion[];
}

/** The search box's fetcher: an answer asked for before it hydrated, else a request of its own. */
export function suggestionsFor(query: string, signal: AbortSignal): Promise<Suggestion[]> {
  const early = asked.get(query);
  if (early) {
    asked.delete(query);
    return early;
  }
  return fetchSuggestions(query, signal);
}

let started = false;

/** Header.astro: typing into a search box that has not hydrated yet asks for its suggestions (debounced, as the box does). */
export function startEarlySuggestions() {
  if (started) return;
  started = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  document.addEventListener(
    'input',
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'combobox' || !input.closest('astro-island[ssr]')) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        // Hydrated meanwhile: the box asks for itself.
        if (!input.closest('astro-island[ssr]')) return;
        const query = normalizeSearchText(input.value);
        if (!query || asked.has(query)) return;
        const answer = fetchSuggestions(query);
        // Not taken (the shopper typed on): nothing to report; taken, the box reports a failure itself.
        answer.catch(() => undefined);
        asked.set(query, answer);
        if (asked.size > KEPT) asked.delete(asked.keys().next().value!);
      }, SUGGESTION_DEBOUNCE_MS);
    },
    { capture: true },
  );
}
