// The first suggestions come sooner (issue 26). The search box hydrates on first interaction, and on a slow phone React
// takes seconds to arrive after the first keystroke: what is typed before then is asked of the API at once, from here
// (loaded from <head> with src/client/cart-controller.ts, Base.astro), and the first suggestions are drawn as plain links
// beside the box until it wakes. The box then takes that answer (or the request still on its way) instead of asking
// again, so the API's round trip overlaps React's download. Every suggestion request of the search box goes through
// plain fetch (src/client/load-api.ts): ky (13 KB gzip) is not part of what the box downloads when it wakes.
import type { Suggestion } from '../lib/api/types.ts';
import { formatRupees } from '../lib/money.ts';
import { normalizeSearchText } from '../lib/search-text.ts';
import { suggestionUrl } from '../lib/head-urls.ts';
import { suggestionsWithoutClient } from './load-api.ts';

/** The list of suggestions drawn before the search box hydrates. */
const EARLY_LIST = 'data-early-suggestions';

/** Suggestions asked for before the search box hydrated, by normalized query (the last five). */
const asked = new Map<string, Promise<Suggestion[]>>();

/** The search box's fetcher: an answer asked for before it hydrated, else a request of its own. */
export function suggestionsFor(query: string, signal: AbortSignal): Promise<Suggestion[]> {
  const early = asked.get(query);
  if (early) {
    asked.delete(query);
    return early;
  }
  return suggestionsWithoutClient(query, signal);
}

/** The suggestions drawn beside a box that has now woken: the box shows its own. */
export function removeEarlySuggestions(island: Element | null) {
  island?.closest('astro-island')?.parentElement?.querySelector(`[${EARLY_LIST}]`)?.remove();
}

const SUGGESTION_KIND = { products: 'Product', Brand: 'Brand', Category: 'Category' } as const;

/**
 * The list's look, carried here rather than in every page's inline CSS (DESIGN.md: a product page under 15 KB on the
 * wire): a constructed style sheet, which the page's CSP allows as it allows any style set from a script.
 */
const SUGGESTIONS_STYLE = `
:has(> .early-suggestions) { position: relative; }
.early-suggestions {
  position: absolute; z-index: 60; left: 0; right: 0; margin: 4px 0 0; padding: 4px 0; list-style: none;
  background: #fff; border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 8px 24px rgb(20 48 31 / 0.16);
}
.early-suggestions a {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; min-height: 44px; padding: 6px 12px;
  color: var(--ink); text-decoration: none;
}
.early-suggestions a:hover, .early-suggestions a:focus-visible { background: var(--green-soft); }
.early-suggestions span { flex: none; font-size: 0.8rem; color: var(--muted); white-space: nowrap; }`;
let styled = false;

function drawSuggestions(input: HTMLInputElement, suggestions: Suggestion[]) {
  if (!styled) {
    styled = true;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(SUGGESTIONS_STYLE);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  const island = input.closest('astro-island[ssr]');
  if (!island?.parentElement) return;
  island.parentElement.querySelector(`[${EARLY_LIST}]`)?.remove();
  if (suggestions.length === 0) return;
  const list = document.createElement('ul');
  list.setAttribute(EARLY_LIST, '');
  list.className = 'early-suggestions';
  list.setAttribute('aria-label', 'Suggestions');
  for (const s of suggestions) {
    const link = document.createElement('a');
    link.href = suggestionUrl(s);
    link.textContent = s.name;
    const kind = document.createElement('span');
    kind.textContent = [s.pricePaise === undefined ? '' : formatRupees(s.pricePaise), SUGGESTION_KIND[s.type]].filter(Boolean).join(' · ');
    link.append(' ', kind);
    const item = document.createElement('li');
    item.append(link);
    list.append(item);
  }
  island.after(list);
}

export function startEarlySuggestions() {
    let timer: ReturnType<typeof setTimeout> | undefined;
  /** The longest query whose answer is drawn: a shorter one answering late does not replace it. */
  let drawn = '';
  const ask = (input: HTMLInputElement) => {
    const query = normalizeSearchText(input.value);
    if (!query) {
      drawn = '';
      return void input.closest('astro-island')?.parentElement?.querySelector(`[${EARLY_LIST}]`)?.remove();
    }
    let answer = asked.get(query);
    if (!answer) {
      answer = suggestionsWithoutClient(query);
      // Not taken by the box: a failure shows nothing here (the box reports its own).
      answer.catch(() => undefined);
      asked.set(query, answer);
      if (asked.size > 5) asked.delete(asked.keys().next().value!);
    }
    // Drawn while the box has not woken, for what is typed now or the start of it ('r' while 'rice' is on its way).
    void answer.then((suggestions) => {
      const now = normalizeSearchText(input.value);
      if (!now.startsWith(query) || (drawn.length > query.length && now.startsWith(drawn))) return;
      drawn = query;
      drawSuggestions(input, suggestions.slice(0, 8));
    }, () => undefined);
  };
  document.addEventListener(
    'input',
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'combobox' || !input.closest('astro-island[ssr]')) return;
      // The first keystroke asks at once; the next wait for a pause, as the box does (src/stores/search.ts).
      if (asked.size === 0) return ask(input);
      clearTimeout(timer);
      timer = setTimeout(() => input.closest('astro-island[ssr]') && ask(input), 120);
    },
    { capture: true },
  );
  // Typed before this file arrived: asked for now.
  for (const input of document.querySelectorAll<HTMLInputElement>('astro-island[ssr] input[role="combobox"]')) if (input.value.trim()) ask(input);
}
