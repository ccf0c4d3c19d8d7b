// Settings of the API, read once from the environment. README.md documents each one.
import path from 'node:path';
import { z } from 'zod';

const settingsSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  JWT_SECRET: z.string().min(16, 'JWT_SECRET must be at least 16 characters').optional(),
  SEED_ON_EMPTY: z.enum(['true', 'false']).default('true'),
});

export type ServerSettings = {
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  seedOnEmpty: boolean;
};

export function readServerSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const parsed = settingsSchema.safeParse({
    ...env,
    DATABASE_URL: env.DATABASE_URL || undefined,
    JWT_SECRET: env.JWT_SECRET || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid settings: ${problems}`);
  }
  const s = parsed.data;
  return {
    dataDir: path.resolve(s.DATA_DIR),
    databaseUrl: s.DATABASE_URL,
    jwtSecret: s.JWT_SECRET,
    seedOnEmpty: s.SEED_ON_EMPTY === 'true',
  };
}
