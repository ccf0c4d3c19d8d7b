// Issue 26, a new deploy: the new service worker waits beside the old one while a page of the old version is open,
// takes over at the shopper's next navigation (never mid-page, so no page runs on a mix of old and new files), and
// that page says "Updated" once; the page after it says nothing. The deploy is played by the browser's check for an
// update finding a changed /sw.js: the built file gets a comment more on disk, as a deploy would replace it, and is put
// back after. (Playwright's routing does not see the browser's fetch of a worker script, so it cannot play this.)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';

const BUILT_WORKER = path.resolve(import.meta.dirname, '../../dist/client/sw.js');

test.use({ viewport: { width: 390, height: 844 } });

const registrationState = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return { waiting: !!registration?.waiting, active: registration?.active?.state ?? null, controlled: !!navigator.serviceWorker.controller };
  });

test('a new version of the worker takes over at the next navigation and says Updated once', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => registrationState(page)).toEqual({ waiting: false, active: 'activated', controlled: true });
  await page.goto('/shop');
  await page.waitForLoadState('networkidle');
  // The first install says nothing.
  await expect(page.getByText('Updated', { exact: true })).toHaveCount(0);

  // The deploy: /sw.js changes. The browser finds it on its next check and installs it beside the running one.
  // The build also wrote the file's brotli and gzip twins, which the server sends in its place: they change with it.
  const files = [BUILT_WORKER, `${BUILT_WORKER}.br`, `${BUILT_WORKER}.gz`].filter((file) => fs.existsSync(file));
  const deployed = new Map(files.map((file) => [file, fs.readFileSync(file)]));
  const next = Buffer.from(`${deployed.get(BUILT_WORKER)!.toString('utf8')}\n// the next deploy\n`);
  const encode = (file: string) => (file.endsWith('.br') ? zlib.brotliCompressSync(next) : file.endsWith('.gz') ? zlib.gzipSync(next) : next);
  for (const file of files) fs.writeFileSync(file, encode(file));
  try {
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  } finally {
    for (const [file, body] of deployed) fs.writeFileSync(file, body);
  }
  await expect.poll(() => registrationState(page)).toEqual({ waiting: true, active: 'activated', controlled: true });
  // The open page keeps the old version: nothing changes under it.
  await expect(page.getByText('Updated', { exact: true })).toHaveCount(0);

  // The next navigation: the new version takes over and the page it shows says so, once.
  await page.getByRole('link', { name: 'Kirana' }).first().click();
  await expect(page.getByText('Updated', { exact: true })).toHaveCount(1);
  expect(await registrationState(page)).toEqual({ waiting: false, active: 'activated', controlled: true });
  // Said once: the mark it read is gone, and the next page says nothing.
  expect(await page.evaluate(async () => !!(await (await caches.open('kirana-meta')).match('/__kirana/updated')))).toBe(false);
  await page.goto('/shop');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Updated', { exact: true })).toHaveCount(0);
});
