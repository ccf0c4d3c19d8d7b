// Starts the built shop (dist/, through scripts/serve.ts) or the API alone (scripts/api.ts) as its own process,
// on a free port (or the one given) with a fresh data folder, waits until it answers, and stops and cleans it up.
// The one helper for "start the built server, wait, clean up": tests that need the real server with settings of
// their own (SITE_URL, API_URL, …) and the Playwright web server (scripts/e2e-server.ts). `npm run build` first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuiltServer {
  /** e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  /** Its data folder, the caller's DATA_DIR or a fresh one (the outboxes of mails and text messages are in it). */
  dataDir: string;
  stop(): Promise<void>;
}

export interface BuiltServerOptions {
  /** Settings of this server, over the caller's environment. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The shop (scripts/serve.ts, the default) or the API alone (scripts/api.ts). */
  script?: 'shop' | 'api';
  /** Asked once the server listens, and must answer 2xx. The default, an API call, opens (and on a fresh folder
   * seeds) the database; a storefront of an API host that is down answers only pages such as '/robots.txt'. */
  readyPath?: string;
  /** Also print the server's output (the Playwright web server shows it in the test log). */
  echo?: boolean;
}

export async function startBuiltServer({
  env = {},
  timeoutMs = 90_000,
  script = 'shop',
  readyPath = '/api/app/Brands/LoadBrandsByPriority?take=1',
  echo = false,
}: BuiltServerOptions = {}): Promise<BuiltServer> {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-built-'));
  const child = spawn(process.execPath, [path.join(root, script === 'api' ? 'scripts/api.ts' : 'scripts/serve.ts')], {
    cwd: root,
    // Port 0: the system picks a free port, which the server prints.
    env: { ...process.env, API_URL: '', SITE_URL: '', HOST: '127.0.0.1', PORT: '0', API_PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (echo) {
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in ${timeoutMs} ms\n${output}`)), timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const serving = /\[kirana(?:-api)?\] (?:serving|listening on) (http:\/\/[^\s/]+)/.exec(output);
        if (serving) {
          clearTimeout(timer);
          resolve(serving[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code}) before serving\n${output}`));
      });
    });
    const ready = await fetch(url + readyPath, { signal: AbortSignal.timeout(timeoutMs) });
    if (!ready.ok) throw new Error(`the server answered ${ready.status} to ${readyPath}\n${output}`);
    return { url, port: Number(new URL(url).port), dataDir: env.DATA_DIR ?? dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
