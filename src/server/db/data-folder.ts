// The embedded database's folder: one process at a time (a lock naming its holder), never a damaged database
// taken for a new one, and readable by the shop alone. PGlite is one process's database: a second opener
// loses writes the first one acknowledged (measured: 7,072 of 8,216 reviews).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { IMAGE_CACHE_FOLDER, SMS_OUTBOX_FOLDER } from '../config.ts';

/** A data folder the shop must not open; the message says what is wrong and which folder. */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
}

/** The lock (a directory, made atomically by proper-lockfile) and who holds it, both inside the data folder. */
export const LOCK_NAME = '.kirana.lock';
export const OWNER_NAME = '.kirana.lock.json';
/** The database's files as they were before this start opened them, until the open succeeds (restoreOnFailure). */
export const OPENING_COPY_NAME = '.kirana-opening';
// The shop's own files beside the database (the lock, the token secrets, the mail outbox, the running shop's address
// for `npm run orders`, the picture sizes): a folder holding only these is still a new database.
const OWN_FILES = new Set([LOCK_NAME, OWNER_NAME, OPENING_COPY_NAME, 'jwt-secret', 'grocer-token', 'shop.json', 'outbox', SMS_OUTBOX_FOLDER, IMAGE_CACHE_FOLDER]);

/** Everything below `dir` but the image cache: public pictures made again when lost, and too many to walk at each start. */
function entriesBelow(dir: string): fs.Dirent[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== IMAGE_CACHE_FOLDER)
    .flatMap((entry) => (entry.isDirectory() ? [entry, ...fs.readdirSync(path.join(dir, entry.name), { recursive: true, withFileTypes: true })] : [entry]));
}

/** Without a live pid to go by (e.g. a pid reused by another program), a lock not refreshed this long is stale. */
const LOCK_STALE_MS = 60_000;

export interface LockOwner {
  pid: number;
  hostname: string;
  command: string;
  since: string;
}

interface HeldLock {
  count: number;
  ready: Promise<() => Promise<void>>;
}

// One registry per process, on globalThis: scripts/start.ts and the built server bundle are different module
// instances that open the same folder in turn, and must share the lock rather than refuse each other.
const REGISTRY = Symbol.for('kirana.dataFolderLocks');
function heldLocks(): Map<string, HeldLock> {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Map<string, HeldLock> };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

function isPermissionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
}

/** Turns a file-system error into a message naming the folder; 'permission denied' when that is what it is. */
export function describeFolderError(dir: string, error: unknown, doing: string): DataFolderError {
  const err = error as NodeJS.ErrnoException;
  if (isPermissionError(err)) {
    const where = err.path && err.path !== dir ? ` (${err.path})` : '';
    return new DataFolderError(
      `permission denied: the shop cannot ${doing} its data folder ${dir}${where}. ` +
        `Give the user running the shop (uid ${process.getuid?.() ?? '?'}) read and write access to it, or set DATA_DIR to another folder.`,
    );
  }
  return new DataFolderError(`the data folder ${dir} cannot be used (${doing}): ${err?.message ?? String(error)}`);
}

/** Makes the folder (0700) when it does not exist yet. Refuses a file or an unusable folder in its place. */
export function ensureDataFolder(dir: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw describeFolderError(dir, error, stat ? 'read' : 'create');
  }
  if (stat && !stat.isDirectory()) throw new DataFolderError(`DATA_DIR ${dir} is a file, not a folder.`);
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    throw describeFolderError(dir, error, 'write to');
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLockOwner(dir: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, OWNER_NAME), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** A lock whose holder is gone: a dead pid on this machine, or our own pid (a container restarts as pid 1). */
function isLeftBehind(owner: LockOwner | undefined): boolean {
  if (!owner || owner.hostname !== os.hostname()) return false;
  return owner.pid === process.pid || !isAlive(owner.pid);
}

function inUseError(dir: string, owner: LockOwner | undefined): DataFolderError {
  const who = owner
    ? `process ${owner.pid} (${owner.command}${owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`}), since ${owner.since}`
    : 'another process';
  return new DataFolderError(
    `the data folder ${dir} is in use by ${who}: the shop is running at that folder. ` +
      'Only one process may open an embedded database; stop that process first, or make the change through the running shop.',
  );
}

async function acquire(dir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dir, LOCK_NAME);
  const ownerPath = path.join(dir, OWNER_NAME);
  const options = {
    lockfilePath: lockPath,
    realpath: false,
    stale: LOCK_STALE_MS,
    // A lost lock is reported rather than crashing a shop that is serving.
    onCompromised: (error: Error) => console.error(`[kirana] the lock on the data folder ${dir} was lost: ${error.message}`),
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw describeFolderError(dir, error, 'lock');
    const owner = readLockOwner(dir);
    if (!isLeftBehind(owner)) throw inUseError(dir, owner);
    // The holder died without unlocking (kill -9, power loss): take the lock over. Another process doing
    // the same at this moment gets ELOCKED from the retry below and is refused.
    fs.rmSync(lockPath, { recursive: true, force: true });
    try {
      release = await lockfile.lock(dir, options);
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === 'ELOCKED') throw inUseError(dir, readLockOwner(dir));
      throw describeFolderError(dir, retryError, 'lock');
    }
  }
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    command: [path.basename(process.argv[0] ?? 'node'), ...process.argv.slice(1)].join(' '),
    since: new Date().toISOString(),
  };
  fs.writeFileSync(ownerPath, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  const removeOwner = () => fs.rmSync(ownerPath, { force: true });
  process.once('exit', removeOwner);
  return async () => {
    process.off('exit', removeOwner);
    removeOwner();
    await release().catch(() => {}); // already released when compromised
  };
}

/**
 * Locks the data folder for this process; resolves to its release. Within one process the lock is shared
 * (counted), so opening the folder again — start.ts preparing it, then the server bundle — works.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  ensureDataFolder(dir);
  const locks = heldLocks();
  let held = locks.get(dir);
  if (held) {
    held.count++;
  } else {
    held = { count: 1, ready: acquire(dir) };
    locks.set(dir, held);
    held.ready.catch(() => locks.delete(dir));
  }
  const entry = held;
  await entry.ready;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--entry.count > 0) return;
    locks.delete(dir);
    await (await entry.ready)();
  };
}

/**
 * 'new' only for a folder with nothing in it (but our lock). Anything else must be a complete database, or
 * the start stops here, before PGlite could take a damaged folder for an empty one and initialise it.
 */
export function inspectDataFolder(dir: string): 'new' | 'existing' {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir).filter((name) => !OWN_FILES.has(name));
  } catch (error) {
    throw describeFolderError(dir, error, 'read');
  }
  if (entries.length === 0) return 'new';
  const missing = ['PG_VERSION', 'global/pg_control', 'base'].filter((p) => !fs.existsSync(path.join(dir, p)));
  if (missing.length > 0) {
    throw new DataFolderError(
      `the data folder ${dir} is not empty but is not a complete database (missing: ${missing.join(', ')}); ` +
        'it may be damaged, or not a Kirana data folder. Nothing was changed. Restore it from a backup, or set ' +
        'DATA_DIR to an empty or new folder.',
    );
  }
  // Every file must be readable and writable by us before PGlite touches any of them.
  for (const entry of entriesBelow(dir)) {
    const file = path.join(entry.parentPath, entry.name);
    try {
      fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    } catch (error) {
      throw describeFolderError(dir, error, 'read and write');
    }
  }
  return 'existing';
}

/** The folder and its subfolders 0700, its files 0600: contact messages hold names, emails and phones. */
export function restrictModes(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const entry of entriesBelow(dir)) {
      try {
        fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
      } catch (error) {
        // PostgreSQL removes files as it goes (temporary files, old WAL).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  } catch (error) {
    throw describeFolderError(dir, error, 'set the permissions of');
  }
}

/** Copies a file or folder with the modes it has (fs.cp gives new folders the umask's), the files side by side. */
async function copyWithModes(from: string, to: string): Promise<void> {
  const stat = await fs.promises.stat(from);
  if (!stat.isDirectory()) return fs.promises.copyFile(from, to, fs.constants.COPYFILE_FICLONE);
  await fs.promises.mkdir(to);
  await Promise.all((await fs.promises.readdir(from)).map((name) => copyWithModes(path.join(from, name), path.join(to, name))));
  await fs.promises.chmod(to, stat.mode & 0o7777);
}

/**
 * Keeps a copy of an existing database's files while it is opened, so a start that fails leaves the folder byte for
 * byte as it was: PostgreSQL writes as it starts (the control file, WAL, postmaster.pid) and as it stops after a
 * failed migration (a checkpoint), before anyone can tell the database is damaged. `restore` puts the files back (call
 * it once PGlite is closed), `discard` drops the copy once the open succeeded. The copy sits inside the folder, so it
 * needs no other writable place; a copy left by a start that was killed is dropped first. Costs one copy of the
 * database per start (reflinked where the file system can).
 */
export async function keepOpeningCopy(dir: string): Promise<{ restore: () => void; discard: () => void }> {
  const copy = path.join(dir, OPENING_COPY_NAME);
  const databaseEntries = () => fs.readdirSync(dir).filter((name) => !OWN_FILES.has(name));
  try {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.mkdirSync(copy, { mode: 0o700 });
    await Promise.all(databaseEntries().map((name) => copyWithModes(path.join(dir, name), path.join(copy, name))));
  } catch (error) {
    // A full disk should not keep a sound database from opening: it opens without the copy.
    fs.rmSync(copy, { recursive: true, force: true });
    console.error(`[kirana] ${describeFolderError(dir, error, 'copy the database into').message}; opening it without a copy to go back to`);
    return { restore: () => {}, discard: () => {} };
  }
  return {
    restore: () => {
      for (const name of databaseEntries()) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
      for (const name of fs.readdirSync(copy)) fs.renameSync(path.join(copy, name), path.join(dir, name));
      fs.rmSync(copy, { recursive: true, force: true });
    },
    discard: () => fs.rmSync(copy, { recursive: true, force: true }),
  };
}
