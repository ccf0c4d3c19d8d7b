// The embedded database's folder: one process at a time, a damaged database never taken for a new one (and
// left untouched), files only the shop can read. Real PGlite folders, real second processes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { LOCK_NAME, OWNER_NAME } from '../../src/server/db/data-folder.ts';
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

function tempFolder(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-data-'));
  folders.push(parent);
  return path.join(parent, 'data');
}

/**
 * A database made once (migrated, with a table of notes in it), closed: each test that needs an existing database gets
 * a copy of its files, as a shop stopped a while ago leaves them. Making a new one (PostgreSQL's initdb and every
 * migration) costs many times a copy; the test that a new folder is made right makes its own.
 */
let made = '';
beforeAll(async () => {
  made = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-data-made-')), 'data');
  const handle = await openDatabase({ kind: 'pglite', dataDir: made });
  await handle.db.execute('create table notes (body text)');
  await handle.db.execute("insert into notes values ('a review that must not be lost')");
  await handle.close();
});
afterAll(() => {
  if (made) fs.rmSync(path.dirname(made), { recursive: true, force: true });
});

/** A data folder holding a closed, existing database: a copy of the one made once. */
function existingDatabase(): string {
  const dataDir = tempFolder();
  fs.cpSync(made, dataDir, { recursive: true, filter: (from) => ![LOCK_NAME, OWNER_NAME].includes(path.basename(from)) });
  return dataDir;
}

function holder(dataDir: string): Child {
  const child = run('tests/server/fixtures/open-data-folder.ts', { DATA_DIR: dataDir });
  children.push(child);
  return child;
}

/** Every file's bytes and mode (the folder's own too: a chmod counts as a change), to show a refused folder was left
 * exactly as it was. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = { '.': (fs.statSync(dir).mode & 0o777).toString(8) };
  for (const name of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const file = path.join(dir, name);
    const stat = fs.statSync(file);
    const content = stat.isDirectory() ? 'dir' : createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    files[name] = `${(stat.mode & 0o777).toString(8)} ${content}`;
  }
  return files;
}


describe('one process per data folder', () => {
  it('refuses a second process, naming the folder and the process holding it', async () => {
    const dataDir = existingDatabase();
    const first = holder(dataDir);
    await first.waitFor('open');

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
      new RegExp(`${dataDir} is in use by process ${first.process.pid} \\(.*open-data-folder\\.ts\\).*the shop is running at that folder`),
    );
    // `npm run seed` against a running shop's folder is refused the same way, and changes nothing.
    const seed = run('scripts/seed.ts', { DATA_DIR: dataDir });
    children.push(seed);
    expect((await seed.exited).code).toBe(1);
    expect(seed.output()).toContain(`${dataDir} is in use by process ${first.process.pid}`);
    expect(seed.output()).not.toContain('Seeded');

    first.process.stdin?.end();
    expect((await first.exited).code).toBe(0);
    // Closed cleanly: the lock is gone, so the next process opens it.
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(false);
    const next = await openDatabase({ kind: 'pglite', dataDir });
    await next.close();
  });

  it('`npm run api` on a folder in use refuses in one line, as `npm start` does, and exits 1', async () => {
    const dataDir = existingDatabase();
    const first = holder(dataDir);
    await first.waitFor('open');
    const api = run('scripts/api.ts', { DATA_DIR: dataDir, DATABASE_URL: '', API_PORT: '0', HOST: '127.0.0.1' });
    children.push(api);
    expect((await api.exited).code).toBe(1);
    // Its log lines and the refusal, each one line of its own: no stack trace, no error class.
    const lines = api.output().trim().split('\n');
    expect(lines.filter((line) => !line.startsWith('[kirana-api] '))).toEqual([]);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^\\[kirana-api\\] could not start: the data folder ${dataDir} is in use by process ${first.process.pid} \\(`),
    );
  });

  it('takes over the lock of a process that was killed', async () => {
    const dataDir = existingDatabase();
    const first = holder(dataDir);
    await first.waitFor('open');
    first.process.kill('SIGKILL');
    await first.exited;
    // The killed process could not unlock.
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_NAME), 'utf8')).pid).toBe(first.process.pid);

    const handle = await openDatabase({ kind: 'pglite', dataDir });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_NAME), 'utf8')).pid).toBe(process.pid);
    await handle.close();
  });

  it('lets one process open its folder again while it holds it (start.ts, then the server bundle)', async () => {
    const dataDir = existingDatabase();
    const first = await openDatabase({ kind: 'pglite', dataDir });
    await first.close();
    const second = await openDatabase({ kind: 'pglite', dataDir });
    const third = await openDatabase({ kind: 'pglite', dataDir });
    await third.close();
    // Still locked for the other process while one handle is open.
    const other = holder(dataDir);
    expect((await other.exited).code).toBe(1);
    expect(other.output()).toContain(`is in use by process ${process.pid}`);
    await second.close();
    expect(fs.existsSync(path.join(dataDir, LOCK_NAME))).toBe(false);
  });
});

describe('a damaged database is never taken for a new one', () => {
  it('refuses a folder whose PG_VERSION is gone and leaves it byte for byte as it was', async () => {
    const dataDir = existingDatabase();
    fs.rmSync(path.join(dataDir, 'PG_VERSION'));
    const before = snapshot(dataDir);

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
      `the data folder ${dataDir} is not empty but is not a complete database (missing: PG_VERSION)`,
    );
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('refuses a database with a damaged control file and leaves it byte for byte as it was', async () => {
    const dataDir = existingDatabase();
    fs.writeFileSync(path.join(dataDir, 'global/pg_control'), Buffer.alloc(8192, 0x5a));
    const before = snapshot(dataDir);

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
      new RegExp(`the database in ${dataDir} could not be opened .* it may be damaged\\. It was not migrated or seeded`),
    );
    expect(snapshot(dataDir)).toEqual(before);
  });

  // Complete folders (PG_VERSION, pg_control, base) that PostgreSQL itself finds damaged, at start or at the migrations.
  // PostgreSQL writes as it starts and as it stops (the control file, WAL, postmaster.pid, a checkpoint), and the
  // shop used to set the modes right after opening: the modes are loosened first, so a chmod would show too.
  /** Fills a file with garbage, keeping its size. */
  const garble = (file: string) => fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x5a));
  type Damage = (dataDir: string, files: { catalogue: string; migrations: string }) => void;
  const damages: [string, Damage, RegExp][] = [
    ['WAL', (dataDir) => {
      const wal = path.join(dataDir, 'pg_wal');
      for (const name of fs.readdirSync(wal).filter((n) => /^[0-9A-F]{24}$/.test(n))) garble(path.join(wal, name));
    }, /could not be opened .* it may be damaged/],
    ['catalogue of tables (pg_class)', (dataDir, { catalogue }) => garble(path.join(dataDir, catalogue)), /could not be opened .* it may be damaged/],
    ['table of migrations (PostgreSQL starts, the migrations fail)', (dataDir, { migrations }) => garble(path.join(dataDir, migrations)), /could not be migrated \(invalid page .*\); it may be damaged\. It was put back as it was\./],
  ];
  for (const [what, damage, refusal] of damages) {
    it(`refuses a complete database whose ${what} is damaged and leaves it byte for byte as it was, modes included`, async () => {
      const dataDir = existingDatabase();
      const handle = await openDatabase({ kind: 'pglite', dataDir });
      const files = (await handle.db.execute(
        "select pg_relation_filepath('pg_class') as catalogue, pg_relation_filepath('drizzle.__drizzle_migrations') as migrations",
      )) as unknown as { rows: { catalogue: string; migrations: string }[] };
      await handle.close();
      damage(dataDir, files.rows[0]!);
      fs.chmodSync(dataDir, 0o755);
      for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
        fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
      }
      const before = snapshot(dataDir);

      // One line: npm start and npm run api print it after 'could not start:'.
      const error = await openDatabase({ kind: 'pglite', dataDir }).then(() => undefined, (e: unknown) => e as Error);
      expect(error?.message).toMatch(refusal);
      expect(error?.message).not.toContain('\n');
      expect(snapshot(dataDir)).toEqual(before);
    });
  }

  it('refuses files that are not a database at all', async () => {
    const dataDir = tempFolder();
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'not a database');
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(/is not a complete database/);
    expect(fs.readdirSync(dataDir)).toEqual(['notes.txt']);
  });

  it("says 'permission denied' and which folder when the shop cannot write to it", async () => {
    const dataDir = existingDatabase();
    const isRoot = process.getuid?.() === 0;
    // Root ignores file modes: run the opener as an ordinary user instead (nobody), who may read but not write.
    fs.chmodSync(path.dirname(dataDir), 0o755);
    fs.chmodSync(dataDir, 0o555);
    const before = snapshot(dataDir);
    const opener = run('tests/server/fixtures/open-data-folder.ts', { DATA_DIR: dataDir }, isRoot ? { uid: 65534, gid: 65534 } : {});
    children.push(opener);
    expect((await opener.exited).code).toBe(1);
    expect(opener.output()).toContain(`permission denied: the shop cannot write to its data folder ${dataDir}`);
    expect(opener.output()).not.toContain('PGlite failed to initialize');
    expect(snapshot(dataDir)).toEqual(before);
    fs.chmodSync(dataDir, 0o700);
  });
});

describe('files only the shop can read', () => {
  function modes(dir: string): Set<string> {
    const found = new Set<string>();
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const mode = (fs.statSync(path.join(entry.parentPath, entry.name)).mode & 0o777).toString(8);
      found.add(`${entry.isDirectory() ? 'dir' : 'file'} ${mode}`);
    }
    return found;
  }

  it('creates the folder 0700 with files 0600', () => {
    // The database made once, new, before the tests (and only ever copied from since).
    expect((fs.statSync(made).mode & 0o777).toString(8)).toBe('700');
    expect(modes(made)).toEqual(new Set(['dir 700', 'file 600']));
  });

  it('restricts an existing folder whose files anyone could write', async () => {
    const dataDir = existingDatabase();
    fs.chmodSync(dataDir, 0o777);
    for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o777 : 0o666);
    }
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    expect((fs.statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect(modes(dataDir)).toEqual(new Set(['dir 700', 'file 600']));
    await handle.close();
  });
});

describe('upkeep autovacuum would do on a PostgreSQL server', () => {
  /** The table's pages, and how many of them its visibility map knows to be all-visible (set by a vacuum alone). */
  async function pagesOf(handle: Awaited<ReturnType<typeof openDatabase>>) {
    const result = (await handle.db.execute(
      "select (pg_relation_size('notes') / current_setting('block_size')::int)::int as pages, relallvisible::int as visible from pg_class where relname = 'notes'",
    )) as unknown as { rows: { pages: number; visible: number }[] };
    return result.rows[0]!;
  }

  it('vacuums the embedded database when it is opened (single-user PostgreSQL runs no autovacuum)', async () => {
    const dataDir = existingDatabase();
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    // Rows written since the vacuum at open: their pages are not yet known to be all-visible.
    await handle.db.execute("insert into notes select 'note ' || i from generate_series(1, 2000) i");
    await handle.db.execute('update notes set body = body');
    const before = await pagesOf(handle);
    expect(before.visible).toBeLessThan(before.pages);
    await handle.close();

    // `npm start` prepares the folder without a vacuum: the server that opens it next vacuums it.
    const prepared = await openDatabase({ kind: 'pglite', dataDir }, undefined, { vacuum: false });
    expect((await pagesOf(prepared)).visible).toBe(before.visible);
    await prepared.close();

    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const after = await pagesOf(reopened);
      expect(after.pages).toBeGreaterThan(1);
      expect(after.visible).toBe(after.pages);
    } finally {
      await reopened.close();
    }
  });
});
