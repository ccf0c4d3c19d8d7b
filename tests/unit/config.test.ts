// Every setting of the shop through one checked schema (src/server/config.ts): a typo names the setting.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServerSettings, SETTING_NAMES } from '../../src/server/config.ts';

describe('the settings', () => {
  it('have the defaults README gives', () => {
    expect(readServerSettings({})).toMatchObject({
      host: 'localhost',
      port: 4321,
      apiPort: 4322,
      apiUrl: undefined,
      trustProxy: false,
      corsOrigins: [],
      siteUrl: undefined,
      pageCacheSeconds: 60,
      readCacheSeconds: 60,
      seedOnEmpty: true,
    });
  });

  it('read what is set, and take an empty value as unset', () => {
    const settings = readServerSettings({
      HOST: '0.0.0.0',
      PORT: '8080',
      API_PORT: '0',
      API_URL: 'http://api.internal:4322/api',
      TRUST_PROXY: 'true',
      CORS_ORIGIN: 'https://shop.example.in, https://www.shop.example.in',
      SITE_URL: 'https://shop.example.in',
      PAGE_CACHE_SECONDS: '0',
    });
    expect(settings).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      apiPort: 0,
      apiUrl: 'http://api.internal:4322/api',
      trustProxy: true,
      corsOrigins: ['https://shop.example.in', 'https://www.shop.example.in'],
      siteUrl: 'https://shop.example.in',
      pageCacheSeconds: 0,
    });
    expect(readServerSettings({ API_URL: '', PAGE_CACHE_SECONDS: '' })).toMatchObject({ apiUrl: undefined, pageCacheSeconds: 60 });
    expect(readServerSettings({ ACCOUNT_WRITES_PER_ADDRESS: '500' })).toMatchObject({ accountWritesPerAddress: 500 });
    expect(readServerSettings({})).toMatchObject({ accountWritesPerAddress: 30 });
  });

  // README: links in texts and mails go to SITE_URL, else http://HOST:PORT, an address a shopper's browser can open.
  it.each([
    [{}, 'http://localhost:4321'],
    [{ HOST: '127.0.0.1', PORT: '4720' }, 'http://127.0.0.1:4720'],
    [{ HOST: 'shop.lan', PORT: '80' }, 'http://shop.lan'],
    [{ HOST: '::1', PORT: '4720' }, 'http://[::1]:4720'],
    [{ HOST: '0.0.0.0', PORT: '4720' }, 'http://localhost:4720'],
    [{ HOST: '::', PORT: '4720' }, 'http://localhost:4720'],
    [{ HOST: '127.0.0.1', PORT: '4720', SITE_URL: 'https://shop.example.in/some/path' }, 'https://shop.example.in'],
  ])('link texts and mails for %o to %s', (env, origin) => {
    expect(readServerSettings(env).siteOrigin).toBe(origin);
  });

  it.each([
    ['PAGE_CACHE_SECONDS', '6o'],
    ['READ_CACHE_SECONDS', '-1'],
    ['ACCOUNT_WRITES_PER_ADDRESS', '0'],
    ['ACCOUNT_WRITES_PER_ADDRESS', 'many'],
    ['PORT', 'http'],
    ['PORT', '70000'],
    ['API_PORT', '43 22'],
    ['TRUST_PROXY', 'yes'],
    ['SEED_ON_EMPTY', 'False'],
    ['API_URL', 'kirana-api:4322'],
    ['SITE_URL', 'kirana.example'],
    ['PUBLIC_API_URL', 'kirana-api'],
    ['CORS_ORIGIN', 'https://shop.example.in/'],
    ['DATABASE_URL', 'mysql://db'],
  ])('refuse %s=%s in one line that starts with its name', (name, value) => {
    let message = '';
    try {
      readServerSettings({ [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^Invalid settings: ${name}\\b`));
    expect(message).not.toContain('\n');
    // The value itself is not repeated: some settings are secrets.
    expect(message).not.toContain(value);
  });

  it("are README's Settings table, no more and no fewer (the test-only CHROMIUM_PATH aside)", () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Settings'), readme.indexOf('###', readme.indexOf('## Settings')));
    const documented = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]).filter((n) => n !== 'CHROMIUM_PATH');
    expect([...SETTING_NAMES].sort()).toEqual(documented.sort());
  });
});
