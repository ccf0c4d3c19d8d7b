// Makes sure Debian's Chromium is available for Playwright (see playwright.config.ts).
//
//   node scripts/ensure-browser.ts
//
// Path: $CHROMIUM_PATH, default /usr/bin/chromium. When the default path is
// missing and we run as root on a system with apt-get, installs Debian's
// `chromium` package; otherwise prints what to install and exits 1.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { findOnPath } from './lib/system.ts';

const DEFAULT_PATH = '/usr/bin/chromium';
const customPath = process.env.CHROMIUM_PATH?.trim() || undefined;
const chromiumPath = customPath ?? DEFAULT_PATH;
const APT_PACKAGES = ['chromium', 'fonts-dejavu-core'];

function fail(message: string): never {
  console.error(`ensure-browser: ${message}`);
  process.exit(1);
}

/** `chromium --version`, or undefined when the binary does not run. */
function chromiumVersion(file: string): string | undefined {
  // Debian's /usr/bin/chromium is a shell wrapper that may print noise on
  // stderr; only stdout carries the version.
  const result = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (result.error || result.status !== 0) return undefined;
  const version = result.stdout.trim().split('\n').pop()?.trim();
  return version || undefined;
}

function run(command: string, args: string[]): void {
  console.log(`ensure-browser: $ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`${command} ${args[0] ?? ''} failed (${result.signal ?? `exit code ${result.status}`})`);
  }
}

const installHint =
  `Install Chromium: sudo apt-get install chromium ${APT_PACKAGES.slice(1).join(' ')}` +
  ', or set CHROMIUM_PATH to a Chromium/Chrome binary';

if (existsSync(chromiumPath)) {
  const version = chromiumVersion(chromiumPath);
  if (!version) fail(`${chromiumPath} exists but \`${chromiumPath} --version\` failed. ${installHint}`);
  console.log(`ensure-browser: ${version} at ${chromiumPath}`);
  process.exit(0);
}

if (customPath) {
  fail(`CHROMIUM_PATH=${customPath} does not exist. Fix CHROMIUM_PATH or unset it to use ${DEFAULT_PATH}.`);
}

const aptGet = findOnPath('apt-get');
const isRoot = process.getuid?.() === 0;
if (!aptGet || !isRoot) {
  const why = !aptGet ? 'apt-get is not available' : 'not running as root, so not installing it';
  fail(`Chromium not found at ${chromiumPath} (${why}).\n${installHint}`);
}

console.log(`ensure-browser: Chromium not found at ${chromiumPath}; installing Debian packages: ${APT_PACKAGES.join(' ')}`);
// Wait (up to 5 min) instead of failing when another apt/dpkg process holds the lock.
const lockWait = ['-o', 'DPkg::Lock::Timeout=300'];
run(aptGet, ['update', ...lockWait]);
run(aptGet, ['install', '-y', '--no-install-recommends', ...lockWait, ...APT_PACKAGES]);

if (!existsSync(chromiumPath)) fail(`apt-get finished but ${chromiumPath} still does not exist. ${installHint}`);
const version = chromiumVersion(chromiumPath);
if (!version) fail(`installed ${chromiumPath}, but \`${chromiumPath} --version\` failed`);
console.log(`ensure-browser: installed ${version} at ${chromiumPath}`);
