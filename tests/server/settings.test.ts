// A typo in a setting stops the start in one line naming it (src/server/config.ts), before anything is built, opened
// or served: `npm start`, the built server alone, and `npm run api`. Real processes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { run, type Child } from './processes.ts';

const folders: string[] = [];
const children: Child[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it.each([
  ['scripts/start.ts', 'PAGE_CACHE_SECONDS', '6o', '[kirana] could not start: Invalid settings: PAGE_CACHE_SECONDS must be a whole number of seconds'],
  ['scripts/serve.ts', 'PAGE_CACHE_SECONDS', '6o', '[kirana] could not start: Invalid settings: PAGE_CACHE_SECONDS must be a whole number of seconds'],
  ['scripts/api.ts', 'TRUST_PROXY', 'yes', '[kirana-api] could not start: Invalid settings: TRUST_PROXY must be true or false'],
])('%s with %s=%s exits with 1 and one line naming it, leaving the data folder alone', async (script, name, value, line) => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-settings-'));
  folders.push(parent);
  const dataDir = path.join(parent, 'data');
  // A free port each: were the setting let through, the start would go on, and the test would see it serve.
  const child = run(script, { [name]: value, DATA_DIR: dataDir, DATABASE_URL: '', API_URL: '', PORT: '0', API_PORT: '0', HOST: '127.0.0.1' });
  children.push(child);
  const { code } = await child.exited;
  expect(child.output()).toBe(`${line}\n`);
  expect(code).toBe(1);
  expect(fs.existsSync(dataDir)).toBe(false);
}, 60_000);
