// The grocer's token: from GROCER_TOKEN, which every instance on one PostgreSQL database must share, else (the embedded
// database, one process) made once in the data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readServerSettings } from '../../src/server/config.ts';
import { resolveGrocerToken } from '../../src/server/auth/secret.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const dataFolder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-grocer-token-'));
  folders.push(dir);
  return dir;
};

describe('the grocer token', () => {
  it('must be set with DATABASE_URL: the shop refuses to start without one, and says which setting', () => {
    const settings = readServerSettings({ DATABASE_URL: 'postgres://kirana@db.internal/kirana', JWT_SECRET: 'a-configured-secret-123' });
    expect(() => resolveGrocerToken(settings)).toThrow(/^GROCER_TOKEN is required with DATABASE_URL/);
  });

  it('is GROCER_TOKEN when set, with PostgreSQL or the embedded database, and nothing is written', () => {
    const token = 'the-grocer-token-of-every-instance';
    const dataDir = dataFolder();
    expect(resolveGrocerToken(readServerSettings({ DATABASE_URL: 'postgres://kirana@db.internal/kirana', GROCER_TOKEN: token }))).toBe(token);
    expect(resolveGrocerToken(readServerSettings({ DATA_DIR: dataDir, GROCER_TOKEN: token }))).toBe(token);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('is made once in the data folder on the embedded database when none is set, readable by the shop alone', () => {
    const settings = readServerSettings({ DATA_DIR: dataFolder() });
    const first = resolveGrocerToken(settings);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(settings.dataDir, 'grocer-token')).mode & 0o777).toBe(0o600);
    expect(resolveGrocerToken(settings)).toBe(first);
  });

  it('is refused when too short to be a secret, naming the setting', () => {
    expect(() => readServerSettings({ GROCER_TOKEN: 'short' })).toThrow(/GROCER_TOKEN must be at least 16 characters/);
  });
});
