// Child processes of the server tests: run a script of this project with Node 24 and read what it prints.
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { shellEnv } from '../helpers/project-copy.ts';

export const root = path.resolve(import.meta.dirname, '../..');

/**
 * A work folder under the system's temporary one with a data folder in it holding a seeded catalogue of `products`,
 * for tests that then run the built shop on it (checked to exist: the server tests need `npm run build`).
 */
export async function seededDataFolder(prefix: string, products: number): Promise<{ work: string; dataDir: string }> {
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` before the server tests.`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dataDir = path.join(work, 'data');
  // Imported here, so the helpers above stay cheap for tests that run no database.
  const [{ readServerSettings }, { openShopDatabase }, { seedCatalogue }] = await Promise.all([
    import('../../src/server/config.ts'),
    import('../../src/server/db/prepare.ts'),
    import('../../src/server/seed/index.ts'),
  ]);
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    await seedCatalogue(handle.db, { products });
  } finally {
    await handle.close();
  }
  return { work, dataDir };
}

export interface Child {
  process: ChildProcess;
  output: () => string;
  /** Resolves when the output contains `text`; rejects if the process exits first. */
  waitFor: (text: string | RegExp) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a command of this project (e.g. scripts/orders.ts) to its end on `dataDir`'s embedded database, as the grocer
 * would; never throws on exit 1. */
export async function runToEnd(script: string, dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export function run(script: string, env: NodeJS.ProcessEnv, options: SpawnOptions = {}): Child {
  const child = spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    // As a shell starts it: with vitest's NODE_ENV=test the shop would render with React's development build.
    env: shellEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }) as { code: number | null; signal: NodeJS.Signals | null });
  const waitFor = (text: string | RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (typeof text === 'string' ? output.includes(text) : text.test(output)) {
          listeners.delete(check);
          resolve();
        }
      };
      listeners.add(check);
      check();
      void exited.then(({ code }) => {
        listeners.delete(check);
        reject(new Error(`${script} exited (${code}) before printing ${String(text)}:\n${output}`));
      });
    });
  return { process: child, output: () => output, waitFor, exited };
}

/** A port nobody listens on now, for a server a test starts. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
