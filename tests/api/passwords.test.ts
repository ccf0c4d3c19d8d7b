// The real scrypt cost (the other API tests use a cheap one) and the secret kept in the data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword, isCommonPassword, OWASP_SCRYPT, verifyPassword } from '../../src/server/auth/passwords.ts';
import { resolveJwtSecret } from '../../src/server/auth/secret.ts';
import { readServerSettings } from '../../src/server/config.ts';

describe('password hashes', () => {
  it("use OWASP's scrypt parameters, a random salt, and verify only the right password", async () => {
    const a = await hashPassword('tamarind-rice-42');
    const b = await hashPassword('tamarind-rice-42');
    expect(a).toMatch(new RegExp(`^scrypt\\$${OWASP_SCRYPT.N}\\$8\\$1\\$`));
    expect(OWASP_SCRYPT.N).toBe(2 ** 17);
    expect(a).not.toBe(b);
    expect(await verifyPassword('tamarind-rice-42', a)).toBe(true);
    expect(await verifyPassword('tamarind-rice-43', a)).toBe(false);
    expect(await verifyPassword('tamarind-rice-42', 'bcrypt$whatever')).toBe(false);
  });

  it('knows the common passwords in any letter case', () => {
    expect(isCommonPassword('Password1')).toBe(true);
    expect(isCommonPassword('qwertyuiop')).toBe(true);
    expect(isCommonPassword('tamarind-rice-42')).toBe(false);
  });

  it('checks the form that is hashed (NFKC): a full-width common password is common', async () => {
    expect(isCommonPassword('ｐａｓｓｗｏｒｄ１２３')).toBe(true);
    expect(isCommonPassword('ＱＷＥＲＴＹＵＩＯＰ')).toBe(true);
    // Why it matters: the full-width one is the same password to the hash.
    const hash = await hashPassword('ｐａｓｓｗｏｒｄ１２３', { N: 2 ** 10, r: 8, p: 1 });
    expect(await verifyPassword('password123', hash)).toBe(true);
  });

  it.each([
    ['one character', ['aaaaaaaaaa', '1111111111', 'AaAaAaAaAa', 'ａａａａａａａａ', '..........', '€€€€€€€€']],
    ['only spaces or invisible characters', ['          ', '\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000', ' \t \n \u00a0   ', '\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b']],
    ['a short pattern repeated', ['abcabcabcabc', '1212121212', 'abcdabcd', 'xo xo xo xo ', 'ＡＢＣａｂｃＡＢＣ']],
    // Issue 32: the shop's own name and country with digits and signs, as a guesser tries them first.
    ['a common word or the shop\'s own with digits and signs around it', ['kirana123', 'Kirana@123', 'india@123', 'KIRANA2026!', 'Password@123', '@@bharat1947']],
    ['a straight run', ['1234567890', '9876543210', '7890123456', 'abcdefghij', 'zyxwvutsrq', 'ABCDEFGHIJK', '１２３４５６７８９０']],
  ])('refuses %s', (_kind, passwords) => {
    for (const password of passwords) expect(isCommonPassword(password), JSON.stringify(password)).toBe(true);
  });

  it('keeps passwords that are neither common nor trivial', () => {
    for (const password of ['tamarind-rice-42', 'jaggery and ghee', 'abcabcabcx', '1234567809', 'aaaaaaaaab', 'नमस्ते-दुनिया-7', 'Ｊalebi-2026-rasa'])
      expect(isCommonPassword(password), password).toBe(false);
  });
});

describe('the token secret', () => {
  it('is made once in the data folder, readable by the shop alone', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-secret-'));
    try {
      const settings = readServerSettings({ DATA_DIR: dataDir });
      const first = resolveJwtSecret(settings);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(fs.statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
      expect(resolveJwtSecret(settings)).toBe(first);
      expect(resolveJwtSecret(readServerSettings({ DATA_DIR: dataDir, JWT_SECRET: 'a-configured-secret-123' }))).toBe('a-configured-secret-123');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('must be set with DATABASE_URL: the shop refuses to start without one', () => {
    const settings = readServerSettings({ DATABASE_URL: 'postgres://kirana@db.internal/kirana' });
    expect(() => resolveJwtSecret(settings)).toThrow(/JWT_SECRET is required with DATABASE_URL/);
  });

  it('links in mails point at SITE_URL, else this machine’s shop', () => {
    expect(readServerSettings({ SITE_URL: 'https://shop.example.in/some/path' }).siteOrigin).toBe('https://shop.example.in');
    expect(readServerSettings({ PORT: '8080' }).siteOrigin).toBe('http://localhost:8080');
    expect(readServerSettings({}).siteOrigin).toBe('http://localhost:4321');
    // Mails sent for real with localhost links would reach shoppers broken: the shop refuses to start.
    expect(() => readServerSettings({ SMTP_URL: 'smtps://shop:secret@smtp.example.in:465' })).toThrow(/SITE_URL is required with SMTP_URL/);
    expect(readServerSettings({ SMTP_URL: 'smtps://shop:secret@smtp.example.in:465', SITE_URL: 'https://shop.example.in' }).smtpUrl).toMatch(/^smtps:/);
  });
});
