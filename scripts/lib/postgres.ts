// A throwaway PostgreSQL server from Debian's binaries (/usr/lib/postgresql/*/bin), in a temp folder of its own, on
// 127.0.0.1: for `npm run test:pg` (scripts/test-pg.ts) and the cluster (scripts/lib/cluster.ts). It can be stopped
// and started again on the same folder (the cluster's outage), and `remove()` stops it and deletes the folder; all of
// it synchronous, so it can run from an 'exit' handler.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOnPath, isExecutable } from './system.ts';

const PG_ROOT = '/usr/lib/postgresql';
const isRoot = process.getuid?.() === 0;

export class PostgresFailure extends Error {}

export interface RunOptions {
  /** run as the `postgres` OS user (needed when we are root) */
  asPostgres?: boolean;
  /** stream output instead of capturing it */
  inherit?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The command line: through runuser as the postgres user when asked and we are root. */
function commandLine(command: string, args: string[], asPostgres: boolean | undefined): [string, string[]] {
  if (asPostgres && isRoot) return [findOnPath('runuser') ?? 'runuser', ['-u', 'postgres', '--', command, ...args]];
  return [command, args];
}

/** Runs a command synchronously; throws PostgresFailure (with its output) on a non-zero exit. */
export function run(command: string, args: string[], options: RunOptions = {}): string {
  const [cmd, argv] = commandLine(command, args, options.asPostgres);
  const result = spawnSync(cmd, argv, {
    encoding: 'utf8',
    stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    env: options.env ?? pgEnv(),
    // runuser needs a cwd the postgres user can enter
    cwd: '/',
  });
  if (result.error) throw new PostgresFailure(`could not run ${cmd}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = options.inherit ? '' : `\n${(result.stdout ?? '') + (result.stderr ?? '')}`.trimEnd();
    throw new PostgresFailure(`\`${[cmd, ...argv].join(' ')}\` failed (${result.signal ?? `exit code ${result.status}`})${output}`);
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

export interface PgBinaries {
  version: string;
  bin: string;
}

export function findPgBinaries(): PgBinaries | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => /^\d+(\.\d+)*$/.test(v))
    .filter((v) => ['initdb', 'pg_ctl', 'postgres', 'psql'].every((b) => isExecutable(join(PG_ROOT, v, 'bin', b))))
    .sort(compareVersions);
  const version = versions.at(-1);
  return version ? { version, bin: join(PG_ROOT, version, 'bin') } : undefined;
}

/** Installs a Debian package with apt-get, as root; else throws with `hint`. `log` says what it runs. */
export function aptInstall(packages: string[], hint: string, log: (message: string) => void): void {
  const aptGet = findOnPath('apt-get');
  if (!aptGet || !isRoot) {
    const why = !aptGet ? 'apt-get is not available' : 'not running as root, so not installing it';
    throw new PostgresFailure(`${packages.join(' ')} is missing (${why}).\n${hint}`);
  }
  // Wait (up to 5 min) instead of failing when another apt/dpkg process holds the lock.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`$ apt-get update`);
  run(aptGet, ['update', ...lockWait], { inherit: true, env });
  log(`$ apt-get install -y --no-install-recommends ${packages.join(' ')}`);
  run(aptGet, ['install', '-y', '--no-install-recommends', ...lockWait, ...packages], { inherit: true, env });
}

/** Debian's PostgreSQL server binaries, installed with apt-get (as root) when missing. */
export function ensurePostgres(log: (message: string) => void): PgBinaries {
  const found = findPgBinaries();
  if (found) return found;
  const hint = 'Install PostgreSQL: sudo apt-get install postgresql';
  log(`PostgreSQL server not found in ${PG_ROOT}/*/bin; installing Debian package: postgresql`);
  aptInstall(['postgresql'], hint, log);
  const installed = findPgBinaries();
  if (!installed) throw new PostgresFailure(`apt-get finished but no server binaries in ${PG_ROOT}/*/bin. ${hint}`);
  return installed;
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(run('id', [flag, 'postgres'], { env: process.env }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function ensurePostgresUser(log: (message: string) => void): { uid: number; gid: number } {
  if (spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0) {
    log('creating system user postgres');
    run(findOnPath('useradd') ?? 'useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres'], { env: process.env });
  }
  return postgresIds();
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port nobody listens on now on 127.0.0.1. */
export function randomFreePort(): Promise<number> {
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

/** Base for a temp dir; when root it must be reachable by the postgres user. */
function tempBase(): string {
  const base = tmpdir();
  if (!isRoot) return base;
  const ok = spawnSync(findOnPath('runuser') ?? 'runuser', ['-u', 'postgres', '--', 'test', '-w', base, '-a', '-x', base], {
    stdio: 'ignore',
    cwd: '/',
  });
  return ok.status === 0 ? base : '/tmp';
}

export interface ThrowawayOptions {
  /** Port to try first; another free one when it is taken. Default: any free port. */
  port?: number;
  /** Prefix of the temp folder's name. */
  prefix?: string;
  log: (message: string) => void;
}

/**
 * A PostgreSQL server of its own in a temp folder: `init()` makes the cluster and starts it with role `kirana`
 * (superuser) owning database `kirana`; `stop()`/`start()` take it down and up again on the same folder and port;
 * `remove()` stops it (if running) and deletes the folder, safe to call at any point and more than once.
 */
export class ThrowawayPostgres {
  readonly log: (message: string) => void;
  bin = '';
  version = '';
  port = 0;
  tempDir = '';
  private dataDir = '';
  private socketDir = '';
  private logFile = '';
  private mayRun = false;
  private removed = false;
  private readonly options: ThrowawayOptions;

  constructor(options: ThrowawayOptions) {
    this.options = options;
    this.log = options.log;
  }

  /** postgres://kirana@127.0.0.1:PORT/kirana */
  get url(): string {
    return `postgres://kirana@127.0.0.1:${this.port}/kirana`;
  }

  async init(): Promise<void> {
    const pg = ensurePostgres(this.log);
    this.bin = pg.bin;
    const owner = isRoot ? ensurePostgresUser(this.log) : undefined;
    this.tempDir = mkdtempSync(join(tempBase(), this.options.prefix ?? 'kirana-pg-'));
    this.dataDir = join(this.tempDir, 'data');
    this.socketDir = join(this.tempDir, 'sock');
    this.logFile = join(this.tempDir, 'postgres.log');
    mkdirSync(this.socketDir, { mode: 0o700 });
    if (owner) {
      chownSync(this.tempDir, owner.uid, owner.gid);
      chownSync(this.socketDir, owner.uid, owner.gid);
    }
    chmodSync(this.tempDir, 0o700);
    this.log(`initdb (PostgreSQL ${pg.version}) in ${this.dataDir}`);
    // Character classes of a UTF-8 locale: with ctype C, pg_trgm makes no trigrams of Devanagari letters and a Hindi search
    // reads every product (tests/api/search-scale.test.ts); collation C keeps names in code point order.
    run(join(this.bin, 'initdb'), ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--lc-ctype=C.UTF-8', '--no-sync'], {
      asPostgres: true,
    });
    const first = this.options.port;
    if (first && Number.isInteger(first) && (await portIsFree(first))) this.port = first;
    else {
      this.port = await randomFreePort();
      if (first) this.log(`port ${first} is taken; using ${this.port}`);
    }
    this.log(`PostgreSQL ${pg.version} starting on 127.0.0.1:${this.port} ...`);
    this.start();
    this.psql('CREATE ROLE kirana WITH LOGIN SUPERUSER');
    this.psql('CREATE DATABASE kirana OWNER kirana');
    this.version = this.psql('SHOW server_version', 'kirana', 'kirana').trim();
  }

  /** Starts the server on its folder and port, and waits until it takes connections. */
  start(): void {
    this.mayRun = true; // from here on, remove() tries pg_ctl stop
    try {
      run(join(this.bin, 'pg_ctl'), this.startArgs(), { asPostgres: true });
    } catch (error) {
      const serverLog = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').trimEnd() : '(no log)';
      throw new PostgresFailure(`${(error as Error).message}\n--- ${this.logFile} ---\n${serverLog}`);
    }
  }

  /** start() and stop() without blocking this process (a load test goes on meanwhile). */
  async startAsync(): Promise<void> {
    this.mayRun = true;
    await promisify(execFile)(...commandLine(join(this.bin, 'pg_ctl'), this.startArgs(), true), { cwd: '/', env: pgEnv() });
  }

  async stopAsync(): Promise<void> {
    await promisify(execFile)(...commandLine(join(this.bin, 'pg_ctl'), this.stopArgs(), true), { cwd: '/', env: pgEnv() });
  }

  private startArgs(): string[] {
    const serverOptions = [
      `-p ${this.port}`,
      `-k ${this.socketDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    return ['-D', this.dataDir, '-l', this.logFile, '-o', serverOptions, '-w', '-t', '60', 'start'];
  }

  private stopArgs(): string[] {
    return ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'];
  }

  /** Stops the server (fast shutdown: open sessions are ended, as in an outage), and waits until it has. */
  stop(): void {
    run(join(this.bin, 'pg_ctl'), this.stopArgs(), { asPostgres: true });
  }

  get running(): boolean {
    return existsSync(join(this.dataDir, 'postmaster.pid'));
  }

  psql(sql: string, user = 'postgres', db = 'postgres'): string {
    return run(join(this.bin, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(this.port), '-U', user, '-d', db, '-c', sql]);
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    if (this.dataDir && (this.mayRun || this.running)) {
      this.log('stopping PostgreSQL');
      try {
        this.stop();
      } catch (error) {
        // Already gone (e.g. killed by the terminal's Ctrl-C) is fine.
        if (this.running) console.error(`could not stop PostgreSQL: ${(error as Error).message}`);
      }
    }
    if (this.tempDir) {
      try {
        rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
      } catch (error) {
        console.error(`could not remove ${this.tempDir}: ${(error as Error).message}`);
      }
    }
  }
}
