// Immutable builds (docs/architecture.md, "Builds"): every build is written to a folder of its own, builds/<id>/, and
// `dist` is a symlink to the newest complete one, switched atomically (a new symlink renamed over it). A shop resolves
// the build it serves once, at start, and says so in builds/.users/<pid>; a build that is neither `dist` nor named by a
// live process (a shop serving it, an `astro build` writing it) is removed. So a build, a refused start or a publish
// beside a running shop never changes the files that shop imports and sends.
import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../src/server/db/data-folder.ts';
import { readBuildRecord } from './build-record.ts';

/** The folder of the builds, and the pointer to the current one, both at the project's root. */
export const BUILDS_FOLDER = 'builds';
export const CURRENT_BUILD = 'dist';
/** builds/.users/<pid>: the id of the build that process serves or writes. */
const USERS_FOLDER = '.users';

/** Sortable by time, unique per process. */
export function newBuildId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${process.pid}`;
}

export function buildFolder(root: string, id: string): string {
  return path.join(root, BUILDS_FOLDER, id);
}

/** A build is complete once its record is written, the build's last step (src/integrations/build-folder.ts). */
export function isComplete(buildDir: string): boolean {
  return readBuildRecord(buildDir) !== undefined && fs.existsSync(path.join(buildDir, 'server/entry.mjs'));
}

/** The real folder `dist` points to now (a plain folder left by an older checkout counts), or undefined. */
export function currentBuild(root: string): string | undefined {
  try {
    return fs.realpathSync(path.join(root, CURRENT_BUILD));
  } catch {
    return undefined;
  }
}

/** Every build folder, newest first. */
export function allBuilds(root: string): string[] {
  let folder: string;
  try {
    // Real, as currentBuild's answer is.
    folder = fs.realpathSync(path.join(root, BUILDS_FOLDER));
  } catch {
    return [];
  }
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== USERS_FOLDER)
    .map((entry) => entry.name)
    .sort()
    .reverse()
    .map((name) => path.join(folder, name));
}

/** Records that this process uses `buildDir` (serves it, or is writing it) until it exits. */
export function useBuild(root: string, buildDir: string): void {
  const users = path.join(root, BUILDS_FOLDER, USERS_FOLDER);
  fs.mkdirSync(users, { recursive: true });
  const file = path.join(users, String(process.pid));
  fs.writeFileSync(file, path.basename(buildDir));
  if (!usedBuildFiles.has(file)) {
    usedBuildFiles.add(file);
    process.once('exit', () => fs.rmSync(file, { force: true }));
  }
}
const usedBuildFiles = new Set<string>();

/** The builds live processes use, by folder name; forgets the records of processes that are gone. */
function buildsInUse(root: string): Set<string> {
  const users = path.join(root, BUILDS_FOLDER, USERS_FOLDER);
  const used = new Set<string>();
  for (const name of fs.existsSync(users) ? fs.readdirSync(users) : []) {
    const file = path.join(users, name);
    if (!isAlive(Number(name))) {
      fs.rmSync(file, { force: true });
      continue;
    }
    try {
      used.add(fs.readFileSync(file, 'utf8').trim());
    } catch {
      // Removed by its process as it exited.
    }
  }
  return used;
}

/**
 * Points `dist` at `buildDir` in one step: a new symlink renamed over the old one (rename is atomic on POSIX), so a
 * reader sees the old build or the new one, never none. A plain `dist` folder (made before builds had folders of their
 * own) is first moved into builds/, where it is pruned like any other.
 */
export function switchCurrentBuild(root: string, buildDir: string): void {
  const pointer = path.join(root, CURRENT_BUILD);
  const stat = fs.lstatSync(pointer, { throwIfNoEntry: false });
  if (stat?.isDirectory()) fs.renameSync(pointer, buildFolder(root, `${newBuildId()}-unversioned`));
  const temporary = `${pointer}.${process.pid}.tmp`;
  fs.rmSync(temporary, { force: true });
  fs.symlinkSync(path.relative(root, buildDir), temporary);
  fs.renameSync(temporary, pointer);
}

/** Removes every build that is not current and that no live process uses; returns the folders removed. */
export function pruneBuilds(root: string): string[] {
  const current = currentBuild(root);
  const used = buildsInUse(root);
  const removed: string[] = [];
  for (const build of allBuilds(root)) {
    if (build === current || used.has(path.basename(build))) continue;
    fs.rmSync(build, { recursive: true, force: true });
    removed.push(build);
  }
  return removed;
}
