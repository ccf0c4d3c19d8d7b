// The secret that signs access tokens (JWT_SECRET, or one generated once and kept in the data folder), and the
// grocer's token (GROCER_TOKEN), kept the same way. With DATABASE_URL both must be set: every instance needs the same.
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
  return dataFolderSecret(settings.dataDir, 'jwt-secret');
}

/** The file in the data folder holding the token of the grocer's routes (`npm run orders` reads it). */
export const GROCER_TOKEN_FILE = 'grocer-token';

/** The grocer's token: GROCER_TOKEN, else made once in the data folder, readable by the shop's user alone, like the JWT secret. */
export function resolveGrocerToken(settings: Pick<ServerSettings, 'dataDir' | 'databaseUrl' | 'grocerToken'>): string {
  if (settings.grocerToken) return settings.grocerToken;
  if (settings.databaseUrl) {
    // Each instance would make its own in its own data folder: a grocer's call would pass on one and get 401 on the next.
    throw new Error(
      'GROCER_TOKEN is required with DATABASE_URL: set the same random token (16+ characters) on every instance, e.g. `openssl rand -base64 32`.',
    );
  }
  return dataFolderSecret(settings.dataDir, GROCER_TOKEN_FILE);
}

/** A random secret made once in the data folder (0600) and read back ever after. */
function dataFolderSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
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
