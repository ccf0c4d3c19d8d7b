// The offline page's list (issue 26): every page the service worker keeps, newest first, with its title and the time
// it was saved, read from the worker's cache (src/lib/saved-pages.ts).
import { formatSavedAt, PAGES_CACHE, SAVED_AT_HEADER } from '../lib/saved-pages.ts';

interface SavedPage {
  url: string;
  title: string;
  savedAt: number;
}

/** A saved page's <title>, without the shop's name after it. */
function titleOf(html: string, url: URL): string {
  const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1];
  const text = title ? new DOMParser().parseFromString(title, 'text/html').documentElement.textContent ?? '' : '';
  return text.replace(/\s*\|\s*Kirana$/, '').trim() || url.pathname;
}

async function savedPages(): Promise<SavedPage[]> {
  if (!('caches' in window) || !(await caches.has(PAGES_CACHE))) return [];
  const cache = await caches.open(PAGES_CACHE);
  const pages = await Promise.all(
    (await cache.keys()).map(async (request): Promise<SavedPage | null> => {
      const response = await cache.match(request);
      if (!response) return null;
      const url = new URL(request.url);
      return { url: url.pathname + url.search, title: titleOf(await response.text(), url), savedAt: Number(response.headers.get(SAVED_AT_HEADER)) || 0 };
    }),
  );
  return pages.filter((page) => page !== null).sort((a, b) => b.savedAt - a.savedAt);
}

export async function listSavedPages() {
  const list = document.querySelector<HTMLElement>('[data-saved-pages]');
  const none = document.querySelector<HTMLElement>('[data-saved-none]');
  if (!list) return;
  const pages = await savedPages().catch(() => []);
  for (const page of pages) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = page.url;
    link.textContent = page.title;
    item.append(link);
    if (page.savedAt > 0) {
      const time = document.createElement('span');
      time.className = 'saved-time';
      time.textContent = `Saved ${formatSavedAt(page.savedAt)}`;
      item.append(time);
    }
    list.append(item);
  }
  if (none) none.hidden = pages.length > 0;
}
