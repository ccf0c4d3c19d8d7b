// The first suggestions come sooner (issue 26). The search box hydrates on first interaction, and on a slow phone React
// takes seconds to arrive after the first keystroke: what is typed before then is asked of the API at once by
// ./first-tap.ts (loaded from <head>, which also draws those first suggestions as plain links), and the island takes
// that answer (or the request still on its way) instead of asking again, so the API's round trip overlaps React's
// download. Every suggestion request of the search box goes through plain fetch too: ky (13 KB gzip) is not part of
// what the box downloads when it wakes.
import { apiBaseUrl } from '../lib/api/base-url.ts';
import type { Suggestion } from '../lib/api/types.ts';

/** The API's suggestions for a normalized query; a failure throws (the search box logs it and shows none). */
export async function fetchSuggestions(query: string, signal?: AbortSignal): Promise<Suggestion[]> {
  const answer = await fetch(new URL(`app/Products/SearchProducts/${encodeURIComponent(query)}`, apiBaseUrl()), { signal });
  if (!answer.ok) throw new Error(`Suggestions for “${query}” answered HTTP ${answer.status}`);
  return (await answer.json()) as Suggestion[];
}

/** The search box's fetcher: an answer asked for before it hydrated (./first-tap.ts), else a request of its own. */
export function suggestionsFor(query: string, signal: AbortSignal): Promise<Suggestion[]> {
  const asked = window.kiranaEarlySuggestions;
  const early = asked?.get(query) as Promise<Suggestion[]> | undefined;
  if (early) {
    asked!.delete(query);
    return early;
  }
  return fetchSuggestions(query, signal);
}

/** The suggestions ./first-tap.ts drew beside a box that has now woken: the box shows its own. */
export function removeEarlySuggestions(island: Element | null) {
  island?.closest('astro-island')?.parentElement?.querySelector('[data-early-suggestions]')?.remove();
}
