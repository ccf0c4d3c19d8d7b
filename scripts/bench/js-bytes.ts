// JavaScript a page loads before the first interaction, measured in Chromium through Playwright.
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Response } from '@playwright/test';
import { CHROME_FLAGS, CHROMIUM_PATH } from './lighthouse.ts';
import type { JsMeasurement, JsSnapshot, ScriptEntry, Viewport } from './types.ts';

export const VIEWPORTS: Viewport[] = [
  { name: 'mobile', width: 412, height: 823 },
  { name: 'desktop', width: 1280, height: 800 },
];

export const SEARCH_INPUT = 'input[name="name"]';

export function gzipBytes(body: Buffer | string): number {
  return gzipSync(body, { level: 6 }).length;
}

export async function launchBrowser(): Promise<Browser> {
  // Playwright adds its own headless switch; the other flags are the ones this machine needs.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/**
 * Loads a page as Lighthouse's phone does (412×823 at 1.75x) and scrolls it to the end, so the picture sizes it asks
 * for exist before it is measured: a shop makes each size once in its life and keeps it on disk (IMAGE_CACHE_DIR), and
 * the bench's fresh data folder would otherwise charge the first run of every page for making them.
 */
export async function warmPictures(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    await settle(page);
  } finally {
    await context.close();
  }
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(1_000);
}

async function scriptEntry(response: Response): Promise<ScriptEntry> {
  const body = await response.body().catch(() => Buffer.alloc(0));
  const sizes = await response
    .request()
    .sizes()
    .catch(() => null);
  return {
    url: response.url(),
    status: response.status(),
    encodedBytes: sizes?.responseBodySize ?? body.length,
    decodedBytes: body.length,
    gzipBytes: gzipBytes(body),
  };
}

async function inlineScripts(page: Page): Promise<string[]> {
  return page.$$eval('script:not([src])', (nodes) =>
    nodes
      .filter((n) => {
        const type = (n.getAttribute('type') ?? '').trim().toLowerCase();
        return type === '' || type === 'module' || type.includes('javascript') || type.includes('ecmascript');
      })
      .map((n) => n.textContent ?? ''),
  );
}

function snapshot(entries: ScriptEntry[], inline: string[]): JsSnapshot {
  const sum = (f: (e: ScriptEntry) => number) => entries.reduce((total, e) => total + f(e), 0);
  return {
    files: entries.length,
    encodedBytes: sum((e) => e.encodedBytes),
    decodedBytes: sum((e) => e.decodedBytes),
    gzipBytes: sum((e) => e.gzipBytes),
    inlineScripts: inline.length,
    inlineBytes: inline.reduce((t, s) => t + Buffer.byteLength(s), 0),
    inlineGzipBytes: inline.length ? gzipBytes(inline.join('\n')) : 0,
    scripts: entries.map((e) => ({ ...e })),
  };
}

/** Loads `url` on a fresh context, waits for network idle + 1 s, then hovers and focuses the search box and waits again. */
export async function measureJs(browser: Browser, url: string, viewport: Viewport): Promise<JsMeasurement> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  const result: JsMeasurement = { viewport, before: null, after: null, interaction: 'none' };
  try {
    const page = await context.newPage();
    const pending: Promise<ScriptEntry>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') pending.push(scriptEntry(response));
    });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await settle(page);
    result.before = snapshot(await Promise.all([...pending]), await inlineScripts(page));

    const input = page.locator(SEARCH_INPUT).first();
    if ((await input.count()) > 0 && (await input.isVisible())) {
      await input.hover({ timeout: 5_000 });
      await input.focus({ timeout: 5_000 });
      result.interaction = `hover + focus ${SEARCH_INPUT}`;
      await settle(page);
      result.after = snapshot(await Promise.all([...pending]), await inlineScripts(page));
    } else {
      result.interaction = `no visible ${SEARCH_INPUT}`;
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    await context.close().catch(() => undefined);
  }
  return result;
}
