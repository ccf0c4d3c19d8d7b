// The phone offline, for the service worker's tests (issue 26): waiting until the worker has saved a page, and a
// connection that drops for the worker's own fetches too.
import { expect, type BrowserContext, type LaunchOptions, type Page, type Route } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/lib/chromium.ts';

/** Waits until the service worker controls the page and has saved it and its pictures (the first visit, after load). */
export async function savedByWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() => page.evaluate(async () => !!(await (await caches.open('kirana-pages')).match(location.href, { ignoreVary: true }))))
    .toBe(true);
  // ...and its pictures, fetched by the worker one by one after the page.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const pictures = await caches.open('kirana-pictures');
        const missing = [];
        for (const img of document.querySelectorAll('main img')) {
          const url = (img as HTMLImageElement).currentSrc || (img as HTMLImageElement).src;
          if (!(await pictures.match(url, { ignoreVary: true }))) missing.push(url);
        }
        return missing;
      }),
    )
    .toEqual([]);
}

// The browser offline; the worker's own fetches too (Chromium's offline switch is the page's).
const refuseWorkerFetches = (route: Route) => (route.request().serviceWorker() ? route.abort('internetdisconnected') : route.fallback());
export async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route('**/*', refuseWorkerFetches);
}
export async function goOnline(context: BrowserContext) {
  await context.unroute('**/*', refuseWorkerFetches);
  await context.setOffline(false);
}


/**
 * The browser for the specs that go offline. Chromium 150 gives each navigation a new document host (RenderDocument),
 * and the page opened after Playwright's setOffline then read navigator.onLine as true, so the offline banner never
 * showed in a test (a real phone without a connection reads false). Without that feature the emulation holds.
 */
export const OFFLINE_LAUNCH_OPTIONS: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, '--disable-features=RenderDocument'],
};
