// Starts the built shop (dist/, through scripts/serve.ts) as its own process on a free port with a fresh data
// folder, waits until it answers, and stops and cleans it up. For tests that need the real server with
// settings of their own (SITE_URL, PAGE_CACHE_SECONDS, …). `npm run build` first.
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
  stop(): Promise<void>;
}

export async function startBuiltServer({ env = {}, timeoutMs = 90_000 }: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<BuiltServer> {
  if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-built-'));
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.ts')], {
    cwd: root,
    // Port 0: the system picks a free port, which the server prints.
    env: { ...process.env, API_URL: '', SITE_URL: '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
        const serving = /\[kirana\] serving (http:\/\/\S+)/.exec(output);
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
    // The first API call opens (and on a fresh folder seeds) the database.
    const ready = await fetch(`${url}/api/app/Brands/LoadBrandsByPriority?take=1`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!ready.ok) throw new Error(`the server answered ${ready.status} while opening its database\n${output}`);
    return { url, port: Number(new URL(url).port), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
