// A copy of the project for the tests that build it or run `npm start` in it, so the shared dist/ (and Astro's cache in
// node_modules/.astro) are left alone; the environment a build or a start there gets, as from a shell; and `npm start`
// in the copy.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** What a build needs; scripts/: the build's precompress step shares its rules with the server (src/http/compression.ts). */
const PROJECT_ENTRIES = ['src', 'public', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json'];

/** A copy of the project in a new folder under the system's temporary one (`prefix`…), node_modules linked. */
export function copyProject(prefix: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const entry of PROJECT_ENTRIES) fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  // Astro keeps its cache in node_modules/.astro by default: keep this copy's cache out of the shared folder.
  const config = path.join(copy, 'astro.config.mjs');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('defineConfig({', "defineConfig({\n  cacheDir: './.astro-cache',"));
  return copy;
}

/** What vitest puts into process.env of its own import.meta.env. */
const TEST_MODE = ['NODE_ENV', 'VITE_USER_NODE_ENV', 'DEV', 'PROD', 'MODE', 'SSR', 'BASE_URL', 'TEST', 'VITEST', 'VITEST_MODE'];

/**
 * The environment of `npm run build` or `npm start` typed in a shell, with `env` over it: a build that inherits vitest's
 * DEV=1, MODE=test, NODE_ENV=test has import.meta.env.DEV true, and with it astro dev's shop (src/middleware.ts).
 */
export function shellEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_MODE.includes(name)));
  return { ...base, ASTRO_TELEMETRY_DISABLED: '1', ...env };
}

export interface StartedShop {
  /** Resolves once it serves; rejects if it exits first. */
  open: Promise<void>;
  exited: Promise<{ code: number | null; output: string }>;
  output: () => string;
  /** SIGTERM, then its exit. */
  stop: () => Promise<void>;
}

/** `npm start` in the copy on 127.0.0.1, PGlite in DATA_DIR, no SITE_URL or API_URL unless `env` says. */
export function npmStart(copy: string, env: NodeJS.ProcessEnv): StartedShop {
  const child = spawn(process.execPath, [path.join(copy, 'scripts/start.ts')], {
    cwd: copy,
    env: shellEnv({ HOST: '127.0.0.1', DATABASE_URL: '', API_URL: '', SITE_URL: '', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  const open = new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[kirana] the shop is open at')) resolve();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then(({ code }) => reject(new Error(`npm start exited (${code}) before serving:\n${output}`)));
  });
  open.catch(() => {});
  return {
    open,
    exited,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
