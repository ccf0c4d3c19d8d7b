// Builds the shop if needed and serves it (scripts/serve.ts) on 127.0.0.1 with a fresh DATA_DIR.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './cleanup.ts';

export const READY_PATH = '/api/app/Brands/LoadBrandsByPriority?take=1';

export function ensureBuild(root: string): { built: boolean; entry: string } {
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (fs.existsSync(entry)) return { built: false, entry };
  console.log('[bench] dist/server/entry.mjs is missing: building the shop…');
  const astro = path.join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 || !fs.existsSync(entry)) throw new Error('the build failed; see the messages above');
  return { built: true, entry };
}

function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

export type RunningServer = {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  log: () => string;
  /** Why the server exited before `stop()` was called, or null while it runs (or was stopped by us). */
  unexpectedExit: () => string | null;
  stop: () => Promise<void>;
};

export type StartOptions = {
  readyTimeoutMs?: number;
  /** More environment for the server, e.g. PAGE_CACHE_SECONDS=0. */
  env?: Record<string, string>;
  /** Runs on the fresh data folder before the server starts (e.g. a large seed). */
  prepare?: (dataDir: string) => void;
};

export async function startServer(root: string, port: number, options: StartOptions = {}): Promise<RunningServer> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const host = '127.0.0.1';
  if (!(await portIsFree(port, host))) {
    throw new Error(`port ${port} on ${host} is already in use; stop that process or set BENCH_PORT`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-bench-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });

  try {
    options.prepare?.(dataDir);
  } catch (error) {
    removeDir();
    throw error;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, DATA_DIR: dataDir, HOST: host, PORT: String(port), SEED_ON_EMPTY: 'true' };
  // Always the embedded database and the embedded API, whatever the caller's shell has set.
  delete env.DATABASE_URL;
  delete env.API_URL;
  // The shop as `npm start` serves it: the built handler behind the page cache.
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  let stopping = false;
  let died: string | null = null;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    died = `the server exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${lines.slice(-30).join('\n')}`;
    console.error(`[bench] ${died}`);
  });

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      if (alive()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => alive() && child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      removeDir();
    })();
    return stopped;
  };
  onCleanup('stop the server', stop, () => {
    if (alive()) child.kill('SIGKILL');
    removeDir();
  });

  const baseUrl = `http://${host}:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!alive()) {
      throw new Error(`the server exited (code ${child.exitCode}, signal ${child.signalCode}) before it was ready:\n${lines.join('\n')}`);
    }
    try {
      const res = await fetch(baseUrl + READY_PATH, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (res.status === 200) return { baseUrl, dataDir, child, log: () => lines.join('\n'), unexpectedExit: () => died, stop };
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer 200 on ${READY_PATH} within ${readyTimeoutMs / 1000} s (last: ${last}):\n${lines.join('\n')}`);
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. The bench reads it
 * around a load test: CPU per request says what bounds the throughput, and moves less than requests/s when other
 * work shares the machine.
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux the shop runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;
