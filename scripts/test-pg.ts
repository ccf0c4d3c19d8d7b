// Runs the API test suite, and the tests that need a server (several shops starting together), against a
// throwaway PostgreSQL server (Debian's `postgresql` package), started and stopped by this script.
//
//   node scripts/test-pg.ts [extra vitest args...]
//
// Env:
//   TEST_PG_COMMAND  shell command to run instead of `npm exec -- vitest run --project api --project postgres`
//                    (extra args are not appended to it)
//   TEST_PG_PORT     port to try first (default 55432; another free port if taken)
//
// The command gets TEST_DATABASE_URL=postgres://kirana@127.0.0.1:PORT/kirana
// (role `kirana` is a superuser so tests can CREATE DATABASE / CREATE EXTENSION).
// The server and its temp dir are always removed, also on failure and on
// SIGINT/SIGTERM/SIGHUP. Exits with the command's exit code.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { findOnPath, isExecutable } from './lib/system.ts';

const PREFIX = 'test-pg:';
const FIRST_PORT = Number(process.env.TEST_PG_PORT ?? 55432);
const PG_ROOT = '/usr/lib/postgresql';
const isRoot = process.getuid?.() === 0;

function log(message: string): void {
  console.log(`${PREFIX} ${message}`);
}

class Failure extends Error {}

// ---------------------------------------------------------------------------
// helpers

interface RunOptions {
  /** run as the `postgres` OS user (needed when we are root) */
  asPostgres?: boolean;
  /** stream output instead of capturing it */
  inherit?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Runs a command synchronously; throws Failure (with its output) on a non-zero exit. */
function run(command: string, args: string[], options: RunOptions = {}): string {
  let cmd = command;
  let argv = args;
  if (options.asPostgres && isRoot) {
    cmd = findOnPath('runuser') ?? 'runuser';
    argv = ['-u', 'postgres', '--', command, ...args];
  }
  const result = spawnSync(cmd, argv, {
    encoding: 'utf8',
    stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    env: options.env ?? pgEnv(),
    // runuser needs a cwd the postgres user can enter
    cwd: '/',
  });
  if (result.error) throw new Failure(`could not run ${cmd}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = options.inherit ? '' : `\n${(result.stdout ?? '') + (result.stderr ?? '')}`.trimEnd();
    throw new Failure(
      `\`${[cmd, ...argv].join(' ')}\` failed (${result.signal ?? `exit code ${result.status}`})${output}`,
    );
  }
  return result.stdout ?? '';
}

/** Env for PostgreSQL tools: without the caller's PG* variables, which could redirect them. */
function pgEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('PG')) env[key] = value;
  }
  env.LC_ALL = 'C';
  return env;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

interface PgBinaries {
  version: string;
  bin: string;
}

function findPgBinaries(): PgBinaries | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => /^\d+(\.\d+)*$/.test(v))
    .filter((v) => ['initdb', 'pg_ctl', 'postgres', 'psql'].every((b) => isExecutable(join(PG_ROOT, v, 'bin', b))))
    .sort(compareVersions);
  const version = versions.at(-1);
  return version ? { version, bin: join(PG_ROOT, version, 'bin') } : undefined;
}

function installPostgres(): PgBinaries {
  const hint = 'Install PostgreSQL: sudo apt-get install postgresql';
  const aptGet = findOnPath('apt-get');
  if (!aptGet || !isRoot) {
    const why = !aptGet ? 'apt-get is not available' : 'not running as root, so not installing it';
    throw new Failure(`PostgreSQL server binaries not found in ${PG_ROOT}/*/bin (${why}).\n${hint}`);
  }
  log(`PostgreSQL server not found in ${PG_ROOT}/*/bin; installing Debian package: postgresql`);
  // Wait (up to 5 min) instead of failing when another apt/dpkg process holds the lock.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`$ apt-get update`);
  run(aptGet, ['update', ...lockWait], { inherit: true, env });
  log(`$ apt-get install -y --no-install-recommends postgresql`);
  run(aptGet, ['install', '-y', '--no-install-recommends', ...lockWait, 'postgresql'], { inherit: true, env });
  const found = findPgBinaries();
  if (!found) throw new Failure(`apt-get finished but no server binaries in ${PG_ROOT}/*/bin. ${hint}`);
  return found;
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(run('id', [flag, 'postgres'], { env: process.env }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function ensurePostgresUser(): { uid: number; gid: number } {
  if (spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0) {
    log('creating system user postgres');
    run(findOnPath('useradd') ?? 'useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'], { env: process.env });
  }
  return postgresIds();
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function randomFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

async function choosePort(): Promise<number> {
  if (Number.isInteger(FIRST_PORT) && FIRST_PORT > 0 && (await portIsFree(FIRST_PORT))) return FIRST_PORT;
  const port = await randomFreePort();
  log(`port ${FIRST_PORT} is taken; using ${port}`);
  return port;
}

/** Base for the temp dir; when root it must be reachable by the postgres user. */
function tempBase(): string {
  const base = tmpdir();
  if (!isRoot) return base;
  const ok = spawnSync(findOnPath('runuser') ?? 'runuser', ['-u', 'postgres', '--', 'test', '-w', base, '-a', '-x', base], {
    stdio: 'ignore',
    cwd: '/',
  });
  return ok.status === 0 ? base : '/tmp';
}

// ---------------------------------------------------------------------------
// state + cleanup (synchronous, idempotent, safe at any point of the run)

let bin = '';
let tempDir = '';
let dataDir = '';
let serverStarted = false;
let child: ChildProcess | undefined;
let cleanedUp = false;
let signalExitCode: number | undefined;

function cleanup(): void {
  if (cleanedUp) return;
  cleanedUp = true;
  if (dataDir && (serverStarted || existsSync(join(dataDir, 'postmaster.pid')))) {
    log('stopping PostgreSQL');
    try {
      run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'], { asPostgres: true });
    } catch (error) {
      // Already gone (e.g. killed by the terminal's Ctrl-C) is fine.
      if (existsSync(join(dataDir, 'postmaster.pid'))) {
        console.error(`${PREFIX} could not stop PostgreSQL: ${(error as Error).message}`);
      }
    }
  }
  if (tempDir) {
    try {
      rmSync(tempDir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.error(`${PREFIX} could not remove ${tempDir}: ${(error as Error).message}`);
    }
  }
}

process.on('exit', cleanup);

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
for (const signal of Object.keys(SIGNAL_NUMBERS) as (keyof typeof SIGNAL_NUMBERS)[]) {
  process.on(signal, () => {
    signalExitCode ??= 128 + SIGNAL_NUMBERS[signal];
    if (child && child.exitCode === null && child.signalCode === null) {
      // Let the test command shut down; its 'exit' handler cleans up and exits.
      log(`${signal}: stopping the test command`);
      child.kill(signal);
      return;
    }
    log(`${signal}: cleaning up`);
    cleanup();
    process.exit(signalExitCode);
  });
}

// ---------------------------------------------------------------------------
// main

async function main(): Promise<number> {
  const pg = findPgBinaries() ?? installPostgres();
  bin = pg.bin;
  const majorVersion = pg.version;

  const owner = isRoot ? ensurePostgresUser() : undefined;
  tempDir = mkdtempSync(join(tempBase(), 'kirana-pg-'));
  dataDir = join(tempDir, 'data');
  const socketDir = join(tempDir, 'sock');
  const logFile = join(tempDir, 'postgres.log');
  mkdirSync(socketDir, { mode: 0o700 });
  if (owner) {
    chownSync(tempDir, owner.uid, owner.gid);
    chownSync(socketDir, owner.uid, owner.gid);
  }
  chmodSync(tempDir, 0o700);

  log(`initdb (PostgreSQL ${majorVersion}) in ${dataDir}`);
  run(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    { asPostgres: true },
  );

  const port = await choosePort();
  log(`PostgreSQL ${majorVersion} starting on 127.0.0.1:${port} ...`);
  const serverOptions = [
    `-p ${port}`,
    `-k ${socketDir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  serverStarted = true; // from here on, cleanup tries pg_ctl stop
  try {
    run(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start'], {
      asPostgres: true,
    });
  } catch (error) {
    const serverLog = existsSync(logFile) ? readFileSync(logFile, 'utf8').trimEnd() : '(no log)';
    throw new Failure(`${(error as Error).message}\n--- ${logFile} ---\n${serverLog}`);
  }

  const psql = (sql: string, user = 'postgres', db = 'postgres') =>
    run(join(bin, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', db, '-c', sql]);
  psql('CREATE ROLE kirana WITH LOGIN SUPERUSER');
  psql('CREATE DATABASE kirana OWNER kirana');
  const version = psql('SHOW server_version', 'kirana', 'kirana').trim();

  const databaseUrl = `postgres://kirana@127.0.0.1:${port}/kirana`;
  log(`PostgreSQL ${version} ready: TEST_DATABASE_URL=${databaseUrl}`);

  const customCommand = process.env.TEST_PG_COMMAND?.trim();
  // Put this script's node (Node 24) first on PATH so `#!/usr/bin/env node` bins use it too.
  const env = {
    ...process.env,
    PATH: [dirname(process.execPath), process.env.PATH].filter(Boolean).join(delimiter),
    TEST_DATABASE_URL: databaseUrl,
    // A shop on a PostgreSQL database refuses to start without these (instances must share them).
    JWT_SECRET: process.env.JWT_SECRET || 'kirana-test-pg-secret-0123456789',
    GROCER_TOKEN: process.env.GROCER_TOKEN || 'kirana-test-pg-grocer-token-0123456789',
  };
  if (customCommand) {
    log(`$ ${customCommand}`);
    child = spawn(customCommand, { stdio: 'inherit', env, shell: true });
  } else {
    const args = ['exec', '--', 'vitest', 'run', '--project', 'api', '--project', 'postgres', ...process.argv.slice(2)];
    log(`$ npm ${args.join(' ')}`);
    child = spawn('npm', args, { stdio: 'inherit', env });
  }
  const running = child;
  return new Promise<number>((resolve) => {
    running.once('error', (error) => {
      console.error(`${PREFIX} could not start the test command: ${error.message}`);
      resolve(1);
    });
    running.once('exit', (code, signal) => {
      if (code !== null) resolve(code);
      else resolve(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : signal === 'SIGKILL' ? 9 : 15));
    });
  });
}

let exitCode: number;
try {
  exitCode = await main();
} catch (error) {
  console.error(`${PREFIX} ${error instanceof Failure ? error.message : (error as Error).stack}`);
  exitCode = 1;
}
child = undefined;
cleanup();
// Interrupted by a signal: exit 128+N (130 for Ctrl-C) whatever the command reported.
const finalCode = signalExitCode ?? exitCode;
log(`done (exit code ${finalCode})`);
process.exit(finalCode);
