// The service worker's page side (issue 26): registered after the page has loaded, the page the worker was installed
// from saved for offline, the banner on a page shown from the saved ones while offline, and "Updated" once after a new
// version took over (src/service-worker/sw.ts).
import {
  formatSavedAt,
  META_CACHE,
  PAGES_CACHE,
  SAVE_PAGE_MESSAGE,
  SAVED_AT_HEADER,
  UPDATED_MARK,
} from '../lib/saved-pages.ts';

const SERVICE_WORKER_URL = '/sw.js';

/** When this page was saved, if the worker keeps it. */
async function savedAt(): Promise<number | null> {
  try {
    const saved = await (await caches.open(PAGES_CACHE)).match(location.href, { ignoreVary: true });
    const time = Number(saved?.headers.get(SAVED_AT_HEADER));
    return time > 0 ? time : null;
  } catch {
    return null;
  }
}

async function showOfflineBanner(offline: boolean) {
  const banner = document.querySelector<HTMLElement>('[data-offline-banner]');
  if (!banner) return;
  if (!offline) {
    banner.hidden = true;
    return;
  }
  const time = await savedAt();
  const when = banner.querySelector<HTMLElement>('[data-offline-saved]');
  if (when) when.textContent = time === null ? '' : ` This page was saved ${formatSavedAt(time)}.`;
  banner.hidden = navigator.onLine;
}

/** "Updated", once, on the first page of a version that took over at this navigation. */
async function sayUpdatedOnce() {
  const meta = await caches.open(META_CACHE);
  if (!(await meta.delete(UPDATED_MARK))) return;
  const { toastSuccess } = await import('../lib/toast.ts');
  toastSuccess('Updated');
}

export function startServiceWorker() {
  // Only a build has a worker (src/integrations/installable-app.ts); `astro dev` serves none.
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !('caches' in window)) return;
  const controlledAtLoad = navigator.serviceWorker.controller !== null;
  if (!navigator.onLine) void showOfflineBanner(true);
  addEventListener('offline', () => void showOfflineBanner(true));
  addEventListener('online', () => void showOfflineBanner(false));
  if (controlledAtLoad) void sayUpdatedOnce().catch(() => undefined);
  const register = async () => {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL, { updateViaCache: 'none' });
    if (controlledAtLoad) return;
    // The first visit: this page and its pictures came before the worker ran; it keeps them now.
    const worker = (await navigator.serviceWorker.ready).active;
    const pictures = [...document.images].map((image) => image.currentSrc || image.src).filter(Boolean);
    worker?.postMessage({ type: SAVE_PAGE_MESSAGE, urls: [location.href, ...pictures] });
  };
  // After the page has loaded, and when the phone is idle: the worker's downloads never compete with the page's own.
  const run = () => void register().catch(() => undefined);
  const later = () => ('requestIdleCallback' in window ? requestIdleCallback(run) : setTimeout(run, 0));
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}
