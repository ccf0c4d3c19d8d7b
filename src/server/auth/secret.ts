// The secret that signs access tokens: JWT_SECRET, or one generated once and kept in the data folder.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServerSettings } from '../config.ts';

export function resolveJwtSecret(settings: ServerSettings): string {
  if (settings.jwtSecret) return settings.jwtSecret;
  if (settings.databaseUrl) {
    // Instances sharing one database must share one secret, or a token signed by one is refused by another.
    throw new Error(
      'JWT_SECRET is required with DATABASE_URL: set the same random secret (16+ characters) on every instance, e.g. `openssl rand -base64 32`.',
    );
  }
  const file = path.join(settings.dataDir, 'jwt-secret');
  fs.mkdirSync(settings.dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so a secret is made once and never overwritten.
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 16) throw new Error(`${file} holds a secret shorter than 16 characters; delete it to make a new one.`);
  return secret;
}
