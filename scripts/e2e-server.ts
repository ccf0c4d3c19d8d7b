// Playwright webServer (see playwright.config.ts): runs the Astro standalone
// build (dist/server/entry.mjs) on 127.0.0.1:$E2E_PORT (default 4399) with a
// fresh, empty DATA_DIR that is removed when the server exits.
//
//   npm run build && node scripts/e2e-server.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'dist', 'server', 'entry.mjs');

if (!existsSync(entry)) {
  console.error(`e2e-server: ${entry} not found. Run \`npm run build\` first.`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'kirana-e2e-'));
const port = process.env.E2E_PORT ?? '4399';

let removed = false;
function removeDataDir(): void {
  if (removed) return;
  removed = true;
  try {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    console.error(`e2e-server: could not remove ${dataDir}: ${(error as Error).message}`);
  }
}
process.on('exit', removeDataDir);

console.log(`e2e-server: starting ${entry} on http://127.0.0.1:${port} (DATA_DIR=${dataDir})`);
const child = spawn(process.execPath, [join(root, 'scripts', 'serve.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: port },
});

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
for (const signal of Object.keys(SIGNAL_NUMBERS) as (keyof typeof SIGNAL_NUMBERS)[]) {
  process.on(signal, () => {
    // Forward, then wait for the child's 'exit' to clean up and exit.
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.once('error', (error) => {
  console.error(`e2e-server: could not start the server: ${error.message}`);
  removeDataDir();
  process.exit(1);
});

child.once('exit', (code, signal) => {
  removeDataDir();
  if (code !== null) process.exit(code);
  const number = signal && signal in SIGNAL_NUMBERS ? SIGNAL_NUMBERS[signal as keyof typeof SIGNAL_NUMBERS] : 9;
  process.exit(128 + number);
});
