// The header search box (SPEC §2, §4, §5): an ARIA 1.2 combobox with a suggestion listbox.
// Server-rendered as a plain GET form to /search (works without JavaScript); hydrated with
// `client:interaction`, so React loads only when a shopper reaches for it.
import { useStore } from '@nanostores/react';
import { flushSync } from 'react-dom';
import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent, type SubmitEvent } from 'react';
import { removeEarlySuggestions, suggestionsFor } from '../client/early-suggestions.ts';
import type { Suggestion } from '../lib/api/types.ts';
import { formatRupees } from '../lib/money.ts';
import { MAX_SEARCH_LENGTH, normalizeSearchText } from '../lib/search-text.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { FoodMark } from './FoodMark.tsx';
import {
  SUGGESTION_HIDE_DELAY_MS,
  SUGGESTION_KIND,
  createSuggestionSearch,
} from '../stores/search.ts';

interface Props {
  /** Prefix of the element ids; each search box on a page needs its own (header, drawer). */
  idPrefix?: string;
  placeholder?: string;
}

const SKELETON_ROWS = 3;
/** A product suggestion's picture, in CSS pixels (the API sends the smallest width it makes, enough for a 4x screen). */
const PICTURE_SIZE = 40;

/**
 * One suggestion's content (issue 24): a product shows its picture, food mark and price, so the shopper knows which
 * one it is before opening it. The picture is decoration (alt=""): the name beside it says what it is.
 */
function SuggestionContent({ suggestion: s }: { suggestion: Suggestion }) {
  if (s.type !== 'products') {
    return (
      <>
        <span className="search-option-name">{s.name}</span>
        <span className="search-option-kind">{SUGGESTION_KIND[s.type]}</span>
      </>
    );
  }
  return (
    <>
      <img
        className="search-option-picture"
        src={s.imageUrl ?? DEFAULT_PRODUCT_IMAGE}
        alt=""
        width={PICTURE_SIZE}
        height={PICTURE_SIZE}
        loading="lazy"
        decoding="async"
      />
      <span className="search-option-name">
        <FoodMark foodType={s.foodType} /> {s.name}
      </span>
      <span className="search-option-end">
        {s.pricePaise !== undefined && <span className="search-option-price">{formatRupees(s.pricePaise)}</span>}
        <span className="search-option-kind">{SUGGESTION_KIND[s.type]}</span>
      </span>
    </>
  );
}

function go(url: string) {
  window.location.assign(url);
}

/**
 * Plain fetch, not the shared API instance (ky: 13 KB more to download as the box wakes, issue 26); what was typed
 * before hydration was asked for already (src/client/early-suggestions.ts). The suggestion search hands each request
 * the signal that cancels it.
 */
const fetchSuggestions = (query: string, signal: AbortSignal) => suggestionsFor(query, signal);

export default function SearchBox({ idPrefix = 'site-search', placeholder = 'Search for atta, dal, tomatoes…' }: Props) {
  const inputId = idPrefix;
  const listId = `${idPrefix}-listbox`;
  const optionId = (i: number) => `${idPrefix}-option-${i}`;

  const [search] = useState(() => createSuggestionSearch(fetchSuggestions));
  const loading = useStore(search.$loading);
  const results = useStore(search.$results);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const query = normalizeSearchText(text);
  const items = query ? results.items : [];
  const showSkeleton = open && query !== '' && loading;
  const expanded = open && query !== '' && !loading && items.length > 0;
  const noMatches = open && query !== '' && !loading && results.query === query && items.length === 0;
  const activeIndex = expanded && active < items.length ? active : -1;

  const changeText = (value: string) => {
    setText(value);
    setActive(-1);
    search.update(value);
  };

  useEffect(() => {
    // Hydration happens on the first interaction: the shopper may already have focused the box
    // or typed into it while React was loading. Take over that state instead of losing it.
    const input = inputRef.current;
    // The plain suggestions drawn before the box woke give way to its own (issue 26).
    removeEarlySuggestions(input);
    if (input) {
      if (input.value !== '') changeText(input.value);
      if (document.activeElement === input) setOpen(true);
    }
    return () => {
      clearTimeout(hideTimer.current);
      search.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (activeIndex >= 0) document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const onFocus = () => {
    clearTimeout(hideTimer.current);
    setOpen(true);
  };

  const onBlur = () => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(close, SUGGESTION_HIDE_DELAY_MS);
  };

  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    setOpen(true);
    changeText(e.target.value);
  };

  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!query) return; // SPEC §5: empty text does nothing
    // SPEC §5: navigate, then clear the box; cleared now, so the page kept for Back shows it empty.
    flushSync(() => {
      changeText('');
      close();
    });
    go(urls.search(query));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    const count = items.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (loading || count === 0 || query === '') return;
        e.preventDefault();
        setOpen(true);
        const down = e.key === 'ArrowDown';
        if (!expanded) setActive(down ? 0 : count - 1);
        else setActive((a) => (down ? (a + 1) % count : a <= 0 ? count - 1 : a - 1));
        return;
      }
      case 'Enter': {
        const chosen = activeIndex >= 0 ? items[activeIndex] : undefined;
        if (!chosen) return; // the form submits: search for the text
        e.preventDefault();
        close();
        go(urls.suggestion(chosen));
        return;
      }
      case 'Escape':
        if (showSkeleton || expanded || noMatches) {
          // Also keeps an enclosing dialog (the mobile drawer) open and the text in place.
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        return;
    }
  };

  const status = expanded
    ? `${items.length} suggestion${items.length === 1 ? '' : 's'}, use the up and down arrow keys to choose`
    : noMatches
      ? 'No suggestions'
      : '';

  return (
    <form className="search-box" action="/search" method="get" role="search" onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor={inputId}>
        Search products, brands and categories
      </label>
      <div className="search-field">
        <input
          ref={inputRef}
          id={inputId}
          name="name"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          enterKeyHint="search"
          maxLength={MAX_SEARCH_LENGTH}
          required
          placeholder={placeholder}
          value={text}
          onChange={onChange}
          onFocus={onFocus}
          onBlur={onBlur}
          onKeyDown={onKeyDown}
          // Empty text: no browser "fill out this field" bubble, nothing at all (SPEC §5).
          onInvalid={(e) => e.preventDefault()}
        />
        <div className="search-popup" hidden={!(showSkeleton || expanded || noMatches)}>
          {showSkeleton && (
            <div className="search-skeleton" aria-hidden="true" data-testid="search-skeleton">
              {Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <span key={i} className="skeleton-row" />
              ))}
            </div>
          )}
          <ul id={listId} role="listbox" aria-label="Suggestions" className="search-listbox" hidden={!expanded}>
            {expanded &&
              items.map((s, i) => (
                <li
                  key={`${s.type}-${s.id}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === activeIndex}
                  className={s.type === 'products' ? 'search-option search-option-product' : 'search-option'}
                  // Keep focus in the box, so the click lands before the blur hides the list.
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseMove={() => i !== activeIndex && setActive(i)}
                  onClick={() => {
                    close();
                    go(urls.suggestion(s));
                  }}
                >
                  <SuggestionContent suggestion={s} />
                </li>
              ))}
          </ul>
          {noMatches && <p className="search-empty">No suggestions for “{query}”</p>}
        </div>
        <div className="visually-hidden" role="status" aria-live="polite">
          {status}
        </div>
      </div>
      <button className="button search-submit" type="submit">
        Search
      </button>
    </form>
  );
}
