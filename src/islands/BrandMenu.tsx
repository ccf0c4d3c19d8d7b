// The Brands mega-menu (SPEC §2, §4): a disclosure button and a panel of brand links, 16 a page,
// with "Load More Brands" until a page comes back short or empty.
// Server-rendered as a plain link to /brands (so it works without JavaScript and costs nothing:
// no brands are fetched during SSR); once hydrated (`client:interaction`) the link becomes the
// disclosure button, and the first opening fetches the first page.
import { useEffect, useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import { browserCatalogue } from '../client/api.ts';
import { PAGE_SIZES } from '../lib/paging.ts';
import type { Brand } from '../lib/api/types.ts';
import { urls } from '../lib/urls.ts';

const PANEL_ID = 'brand-menu-panel';

/** In the link too, so that the link and the button that replaces it are the same size (no layout shift). */
const chevron = (
  <svg className="chevron" aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
    <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" />
  </svg>
);

export default function BrandMenu() {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState(false);
  const [brands, setBrands] = useState<Brand[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [loading, setLoading] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const linkRef = useRef<HTMLAnchorElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const refocusButton = useRef(false);
  const refocusLastLink = useRef(false);
  const requested = useRef(false);

  // After hydration the link becomes the button; if the link had focus (keyboard user), keep it.
  useEffect(() => {
    refocusButton.current = document.activeElement === linkRef.current;
    setEnhanced(true);
  }, []);
  useLayoutEffect(() => {
    if (enhanced && refocusButton.current) {
      refocusButton.current = false;
      buttonRef.current?.focus();
    }
  }, [enhanced]);

  const loadPage = async () => {
    if (requested.current) return;
    requested.current = true;
    setLoading(true);
    try {
      const page = await browserCatalogue.brands(brands.length, PAGE_SIZES.brands);
      setBrands((previous) => [...previous, ...page]);
      // SPEC §4: paging stops when a page comes back empty (a short page is the last one too).
      if (page.length < PAGE_SIZES.brands) {
        refocusLastLink.current = document.activeElement === moreRef.current;
        setHasMore(false);
      }
    } catch (error) {
      console.error('Cannot load brands', error); // SPEC §8: logged only
    } finally {
      requested.current = false;
      setLoading(false);
    }
  };

  // The "Load More Brands" button went away under the keyboard: focus the last brand instead.
  useLayoutEffect(() => {
    if (!hasMore && refocusLastLink.current) {
      refocusLastLink.current = false;
      listRef.current?.querySelector<HTMLAnchorElement>('li:last-child a')?.focus();
    }
  }, [hasMore]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const toggle = () => {
    if (open) return close(false);
    setOpen(true);
    if (brands.length === 0 && hasMore) void loadPage();
  };

  // While open: Escape closes (focus back on the button), a press outside closes.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const inside = rootRef.current?.contains(document.activeElement) ?? false;
      close(inside || document.activeElement === document.body);
    };
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  // Tabbing out of the menu closes it, so it never covers the page behind the keyboard user.
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    const next = e.relatedTarget as Node | null;
    if (open && next && !rootRef.current?.contains(next)) setOpen(false);
  };

  if (!enhanced) {
    return (
      <div className="brand-menu">
        <a ref={linkRef} className="nav-link brand-trigger" href={urls.brands()}>
          Brands
          {chevron}
        </a>
      </div>
    );
  }

  return (
    <div className="brand-menu" ref={rootRef} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className="nav-link brand-trigger"
        aria-expanded={open}
        aria-controls={PANEL_ID}
        onClick={toggle}
      >
        Brands
        {chevron}
      </button>
      <div id={PANEL_ID} className="brand-panel" hidden={!open}>
        <ul ref={listRef} className="brand-list" aria-label="Brands" aria-busy={loading}>
          {brands.map((b) => (
            <li key={b.id}>
              <a href={urls.brand(b.id)}>{b.name}</a>
            </li>
          ))}
        </ul>
        {loading && (
          <p className="brand-loading" role="status">
            Loading brands…
          </p>
        )}
        <div className="brand-actions">
          {hasMore && brands.length > 0 && (
            <button
              ref={moreRef}
              type="button"
              className="button secondary"
              aria-disabled={loading}
              onClick={() => void loadPage()}
            >
              Load More Brands
            </button>
          )}
          <a className="brand-all" href={urls.brands()}>
            See all brands
          </a>
        </div>
      </div>
    </div>
  );
}
