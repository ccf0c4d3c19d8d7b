import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/lib/chromium.ts';

// End-to-end tests against the production build (`npm run build`), served by
// scripts/e2e-server.ts with a fresh data dir, in Debian's Chromium
// (scripts/ensure-browser.ts; no Playwright browser download).
const port = process.env.E2E_PORT ?? '4399';
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  // 2-core machine and one embedded database behind the server: run serially.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  // An expect's poll: twice Playwright's 5 s, for a loaded 2-core machine where React's start and a database write
  // can take longer (a test that waits for an event waits for it, not for this).
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: {
    // Under `npm run`, node_modules/.bin (Node 24) is first on PATH.
    command: 'node scripts/e2e-server.ts',
    url: `${baseURL}/api/app/Brands/LoadBrandsByPriority?skip=0&take=1`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // Default is SIGKILL, which would leave the server's temp data dir behind.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
