// The shop's service worker (issue 26), bundled and given its precache list at the end of the build
// (src/integrations/installable-app.ts, workbox-build's injectManifest). It runs in the worker, not in a page: it may
// import src/lib (the shared names and rules in saved-pages.ts), Workbox, and the cart queue's two names through
// ./cart-sync.ts, nothing else.
//
// - Precached: the hashed assets (/_astro/*), the offline page, the app's icons. A deploy brings a new list; the new
//   worker installs beside the old one and takes over at the shopper's next navigation (below), never mid-page, so a
//   page keeps the files it was built with.
// - Kept as seen, bounded: catalogue and content pages (network first, the saved copy when the network fails or is
//   slow), and pictures (stale-while-revalidate). Nothing else: account pages, cart, checkout, orders and /api answers
//   go to the network only.
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkFirst, NetworkOnly, StaleWhileRevalidate, type Strategy } from 'workbox-strategies';
import {
  isKeepableAnswer,
  isBackOffice,
  isKeptPage,
  isPicture,
  META_CACHE,
  OFFLINE_PATH,
  PAGES_CACHE,
  PAGES_LIMIT,
  PAGE_NETWORK_TIMEOUT_SECONDS,
  PICTURES_CACHE,
  PICTURES_LIMIT,
  SAVE_PAGE_MESSAGE,
  SAVED_AT_HEADER,
  SKIP_WAITING_MESSAGE,
  UPDATED_MARK,
} from '../lib/saved-pages.ts';
import { passOnSync, type WindowClients } from './cart-sync.ts';

// The worker's own globals, typed here: the project's TypeScript lib is the DOM's, not the WebWorker one.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
}
interface SyncEvent extends ExtendableEvent {
  tag: string;
}
interface WindowClient {
  url: string;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
  registration: ServiceWorkerRegistration;
  clients: WindowClients & { matchAll(options: { type: 'window'; includeUncontrolled?: boolean }): Promise<WindowClient[]>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
}
declare const self: WorkerScope;
/** The pre-rendered content pages of this build (about, policies), set by the build. */
declare const __KIRANA_CONTENT_PATHS__: string[];

/** Stores a kept answer with the time it was fetched, which the offline banner and page show. */
const keepWithSavedTime = {
  cacheWillUpdate: async ({ response }: { response: Response }) => {
    if (!isKeepableAnswer(response)) return null;
    const headers = new Headers(response.headers);
    headers.set(SAVED_AT_HEADER, String(Date.now()));
    return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  },
};
const keepPictures = { cacheWillUpdate: async ({ response }: { response: Response }) => (isKeepableAnswer(response) ? response : null) };

const pagesCache = {
  cacheName: PAGES_CACHE,
  // A page saved by the page itself (the first visit, before this worker ran) was asked for without the headers of
  // a navigation; Vary must not make it miss.
  matchOptions: { ignoreVary: true },
  plugins: [keepWithSavedTime, new ExpirationPlugin({ ...PAGES_LIMIT, purgeOnQuotaError: true })],
};
/**
 * Online, a page as it is now (a saved one could be a week old: a price, the stock, a review since); the saved copy
 * when the network fails, or has not answered within a few seconds (its answer still replaces the saved copy).
 */
const pages = new NetworkFirst({ ...pagesCache, networkTimeoutSeconds: PAGE_NETWORK_TIMEOUT_SECONDS });
/** A reload waits for the network however slow it is: the shopper reloads to see a change. */
const pagesOnReload = new NetworkFirst(pagesCache);
const isReload = (request: Request) => request.cache === 'no-cache' || request.cache === 'reload';
const pictures = new StaleWhileRevalidate({
  cacheName: PICTURES_CACHE,
  // Pictures vary by Accept (AVIF or not) and Save-Data; this cache serves the one browser that asked for them.
  matchOptions: { ignoreVary: true },
  plugins: [keepPictures, new ExpirationPlugin({ ...PICTURES_LIMIT, purgeOnQuotaError: true })],
});
const networkOnly = new NetworkOnly();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * A new version waits while a page of the old one is open. At the next navigation, when that page is the only one,
 * the new version takes over and the navigation is asked again (an empty answer that refreshes), so the next page is
 * the new version's from its first byte. With more tabs open it waits, as they would get a mix of files otherwise.
 */
async function takeOverAtNavigation(request: Request): Promise<Response | null> {
  const waiting = self.registration.waiting;
  if (!waiting || request.method !== 'GET') return null;
  const windows = await self.clients.matchAll({ type: 'window' });
  if (windows.length > 1) return null;
  await (await caches.open(META_CACHE)).put(UPDATED_MARK, new Response('1'));
  waiting.postMessage({ type: SKIP_WAITING_MESSAGE });
  return new Response('', { headers: { Refresh: '0', 'Cache-Control': 'no-store' } });
}

const navigation = (strategy: Strategy) => async (options: { request: Request; event: ExtendableEvent }) =>
  (await takeOverAtNavigation(options.request)) ?? strategy.handle(options as Parameters<Strategy['handle']>[0]);

// The back office (/manage, /api/grocer) is left to the browser: no route below matches it, so it is never kept.
const sameOrigin = (url: URL) => url.origin === location.origin && !isBackOffice(url.pathname);

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isKeptPage(url.pathname, __KIRANA_CONTENT_PATHS__),
  (options) => navigation(isReload(options.request) ? pagesOnReload : pages)(options),
);
// Every other page goes to the network, through the worker only so that offline it gets the offline page.
registerRoute(({ request, url }) => request.mode === 'navigate' && sameOrigin(url), navigation(networkOnly));
registerRoute(({ request, url }) => request.mode !== 'navigate' && sameOrigin(url) && isPicture(url.pathname), pictures);

setCatchHandler(async ({ request }) => {
  if (request.mode !== 'navigate') return Response.error();
  return (await matchPrecache(OFFLINE_PATH)) ?? Response.error();
});

// The first worker has no older one to wait for: it takes the open page at once, so what the shopper opens from now
// on is kept (an update never does this: see takeOverAtNavigation).
let firstInstall = false;
self.addEventListener('install', () => {
  firstInstall = self.registration.active === null;
  if (firstInstall) void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  if (firstInstall) event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; urls?: unknown } | null;
  if (data?.type === SKIP_WAITING_MESSAGE) {
    event.waitUntil(self.skipWaiting());
    return;
  }
  // The page the worker was installed from, and its pictures, fetched before the worker ran: kept now.
  if (data?.type === SAVE_PAGE_MESSAGE && Array.isArray(data.urls)) {
    const saving = data.urls.slice(0, 40).flatMap((href) => {
      if (typeof href !== 'string') return [];
      const url = new URL(href, location.origin);
      if (!sameOrigin(url)) return [];
      const strategy = isKeptPage(url.pathname, __KIRANA_CONTENT_PATHS__) ? pages : isPicture(url.pathname) ? pictures : null;
      return strategy ? [strategy.handle({ request: new Request(url), event }).catch(() => undefined)] : [];
    });
    event.waitUntil(Promise.all(saving));
  }
});

// The connection is back (Background Sync, Chromium): the open pages send the cart changes made offline.
self.addEventListener('sync', (event) => {
  event.waitUntil(passOnSync(event.tag, self.clients));
});
