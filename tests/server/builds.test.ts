// The builds folder (scripts/lib/builds.ts): `dist` switched from one build to the next, a plain `dist` left by an
// older checkout taken in, and a build pruned only once it is not current and no live process names it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, onTestFinished } from 'vitest';
import { BUILD_RECORD } from '../../scripts/lib/build-record.ts';
import { allBuilds, buildFolder, currentBuild, pruneBuilds, switchCurrentBuild } from '../../scripts/lib/builds.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder (real path) holding complete builds with these ids. */
function project(ids: string[]): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-builds-lib-')));
  folders.push(root);
  for (const id of ids) {
    const dir = buildFolder(root, id);
    fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'server/entry.mjs'), `export const id = '${id}';\n`);
    fs.writeFileSync(path.join(dir, BUILD_RECORD), '{"site":"http://127.0.0.1:4321/"}\n');
  }
  return root;
}

/** Names `id` as the build of a process: a live one (stopped after the test) or one that has exited. */
async function userOf(root: string, id: string, alive: boolean): Promise<void> {
  const child = spawn(process.execPath, ['-e', alive ? 'setInterval(() => {}, 1000)' : ''], { stdio: 'ignore' });
  await once(child, 'spawn');
  fs.mkdirSync(path.join(root, 'builds/.users'), { recursive: true });
  fs.writeFileSync(path.join(root, 'builds/.users', String(child.pid)), id);
  if (alive) onTestFinished(() => void child.kill('SIGKILL'));
  else await once(child, 'exit');
}

it('points dist at each new build in turn, as a symlink whose target a reader resolves', () => {
  const root = project(['a', 'b']);
  switchCurrentBuild(root, buildFolder(root, 'a'));
  expect(currentBuild(root)).toBe(buildFolder(root, 'a'));
  switchCurrentBuild(root, buildFolder(root, 'b'));
  expect(fs.lstatSync(path.join(root, 'dist')).isSymbolicLink()).toBe(true);
  expect(currentBuild(root)).toBe(buildFolder(root, 'b'));
  expect(fs.readFileSync(path.join(root, 'dist/server/entry.mjs'), 'utf8')).toContain("'b'");
  // No temporary pointer is left behind.
  expect(fs.readdirSync(root).filter((name) => name.startsWith('dist'))).toEqual(['dist']);
});

it('takes a plain dist folder (an older checkout) into builds/ when it switches, where it can be pruned', () => {
  const root = project(['b']);
  fs.mkdirSync(path.join(root, 'dist/server'), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist/server/entry.mjs'), "export const id = 'old';\n");
  switchCurrentBuild(root, buildFolder(root, 'b'));
  expect(currentBuild(root)).toBe(buildFolder(root, 'b'));
  const old = allBuilds(root).find((dir) => dir.endsWith('-unversioned'));
  expect(old && fs.readFileSync(path.join(old, 'server/entry.mjs'), 'utf8')).toContain("'old'");
  expect(pruneBuilds(root)).toEqual([old]);
});

it('prunes the builds that are not current and that no live process names, and keeps the others', async () => {
  const root = project(['1-served', '2-unused', '3-left-by-a-dead-shop', '4-current']);
  switchCurrentBuild(root, buildFolder(root, '4-current'));
  await userOf(root, '1-served', true);
  await userOf(root, '3-left-by-a-dead-shop', false);
  const removed = pruneBuilds(root);
  expect(removed.sort()).toEqual([buildFolder(root, '2-unused'), buildFolder(root, '3-left-by-a-dead-shop')]);
  expect(allBuilds(root)).toEqual([buildFolder(root, '4-current'), buildFolder(root, '1-served')]);
  // The dead process's record is forgotten with it.
  expect(fs.readdirSync(path.join(root, 'builds/.users'))).toHaveLength(1);
});
