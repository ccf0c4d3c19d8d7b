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
import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { PostgresFailure, ThrowawayPostgres } from './lib/postgres.ts';

const PREFIX = 'test-pg:';
const FIRST_PORT = Number(process.env.TEST_PG_PORT ?? 55432);

function log(message: string): void {
  console.log(`${PREFIX} ${message}`);
}

// ---------------------------------------------------------------------------
// state + cleanup (synchronous, idempotent, safe at any point of the run)

const postgres = new ThrowawayPostgres({ port: FIRST_PORT, prefix: 'kirana-pg-', log });
let child: ChildProcess | undefined;
let signalExitCode: number | undefined;

const cleanup = () => postgres.remove();
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
  await postgres.init();
  const databaseUrl = postgres.url;
  log(`PostgreSQL ${postgres.version} ready: TEST_DATABASE_URL=${databaseUrl}`);

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
  console.error(`${PREFIX} ${error instanceof PostgresFailure ? error.message : (error as Error).stack}`);
  exitCode = 1;
}
child = undefined;
cleanup();
// Interrupted by a signal: exit 128+N (130 for Ctrl-C) whatever the command reported.
const finalCode = signalExitCode ?? exitCode;
log(`done (exit code ${finalCode})`);
process.exit(finalCode);
