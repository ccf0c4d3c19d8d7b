// Settings of the API, read once from the environment. README.md documents each one.
import path from 'node:path';
import { z } from 'zod';

/** The default image cache's name inside DATA_DIR (the data folder's checks leave it alone: see data-folder.ts). */
export const IMAGE_CACHE_FOLDER = 'image-cache';
/** Where one-time codes are written inside DATA_DIR when no SMS provider is set. */
export const SMS_OUTBOX_FOLDER = 'sms-outbox';

const settingsSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  JWT_SECRET: z.string().min(16, 'JWT_SECRET must be at least 16 characters').optional(),
  GROCER_TOKEN: z.string().min(16, 'GROCER_TOKEN must be at least 16 characters').optional(),
  SEED_ON_EMPTY: z.enum(['true', 'false']).default('true'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Kirana <no-reply@kirana.local>'),
  SITE_URL: z.url('SITE_URL must be an absolute URL such as https://shop.example.in').optional(),
  PORT: z.string().regex(/^\d+$/, 'PORT must be a number').default('4321'),
  READ_CACHE_SECONDS: z.string().regex(/^\d+$/, 'READ_CACHE_SECONDS must be a whole number of seconds').default('60'),
  IMAGE_CACHE_DIR: z.string().min(1).optional(),
  SMS_PROVIDER: z.enum(['outbox', 'msg91'], 'SMS_PROVIDER must be outbox or msg91').default('outbox'),
  MSG91_AUTH_KEY: z.string().min(8, 'MSG91_AUTH_KEY must be the auth key MSG91 gave you').optional(),
  MSG91_OTP_TEMPLATE_ID: z.string().min(4, 'MSG91_OTP_TEMPLATE_ID must be the id of your approved template').optional(),
  MSG91_API_URL: z.url('MSG91_API_URL must be an absolute URL').default('https://control.msg91.com'),
});

export type ServerSettings = {
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  /** The token of the grocer's routes; unset: made once in `<dataDir>/grocer-token` (required with DATABASE_URL). */
  grocerToken: string | undefined;
  seedOnEmpty: boolean;
  /** Unset: mails are written to `<dataDir>/outbox/` instead of being sent. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where links in mails point: SITE_URL, else this machine's shop; never the Host a request claims. */
  siteOrigin: string;
  /** How long the API keeps a catalogue answer in memory at most (writes through it forget them at once); 0: never. */
  readCacheSeconds: number;
  /** Where the picture sizes made from the originals are kept (made once each); default `<dataDir>/image-cache`. */
  imageCacheDir: string;
  /** How one-time codes are sent: written to `<dataDir>/sms-outbox/`, or through MSG91. */
  sms: { provider: 'outbox' } | { provider: 'msg91'; authKey: string; templateId: string; apiUrl: string };
};

export function readServerSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const parsed = settingsSchema.safeParse({
    ...env,
    DATABASE_URL: env.DATABASE_URL || undefined,
    JWT_SECRET: env.JWT_SECRET || undefined,
    GROCER_TOKEN: env.GROCER_TOKEN || undefined,
    SMTP_URL: env.SMTP_URL || undefined,
    SITE_URL: env.SITE_URL || undefined,
    MAIL_FROM: env.MAIL_FROM || undefined,
    PORT: env.PORT || undefined,
    READ_CACHE_SECONDS: env.READ_CACHE_SECONDS || undefined,
    IMAGE_CACHE_DIR: env.IMAGE_CACHE_DIR || undefined,
    SMS_PROVIDER: env.SMS_PROVIDER || undefined,
    MSG91_AUTH_KEY: env.MSG91_AUTH_KEY || undefined,
    MSG91_OTP_TEMPLATE_ID: env.MSG91_OTP_TEMPLATE_ID || undefined,
    MSG91_API_URL: env.MSG91_API_URL || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid settings: ${problems}`);
  }
  const s = parsed.data;
  // Mails sent for real would carry reset links to http://localhost, which no shopper can open.
  if (s.SMTP_URL && !s.SITE_URL) {
    throw new Error('Invalid settings: SITE_URL is required with SMTP_URL (the links in the mails point at it)');
  }
  if (s.SMS_PROVIDER === 'msg91' && (!s.MSG91_AUTH_KEY || !s.MSG91_OTP_TEMPLATE_ID)) {
    throw new Error('Invalid settings: SMS_PROVIDER=msg91 needs MSG91_AUTH_KEY and MSG91_OTP_TEMPLATE_ID');
  }
  // The auth key travels in a header: only over HTTPS, or to a stand-in on this machine.
  if (s.SMS_PROVIDER === 'msg91' && !/^https:|^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(s.MSG91_API_URL)) {
    throw new Error('Invalid settings: MSG91_API_URL must be https:// (or http:// on 127.0.0.1 for a test)');
  }
  const dataDir = path.resolve(s.DATA_DIR);
  return {
    dataDir,
    databaseUrl: s.DATABASE_URL,
    jwtSecret: s.JWT_SECRET,
    grocerToken: s.GROCER_TOKEN,
    seedOnEmpty: s.SEED_ON_EMPTY === 'true',
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    siteOrigin: new URL(s.SITE_URL ?? `http://localhost:${s.PORT}`).origin,
    readCacheSeconds: Number(s.READ_CACHE_SECONDS),
    imageCacheDir: s.IMAGE_CACHE_DIR ? path.resolve(s.IMAGE_CACHE_DIR) : path.join(dataDir, IMAGE_CACHE_FOLDER),
    sms:
      s.SMS_PROVIDER === 'msg91'
        ? { provider: 'msg91', authKey: s.MSG91_AUTH_KEY!, templateId: s.MSG91_OTP_TEMPLATE_ID!, apiUrl: s.MSG91_API_URL }
        : { provider: 'outbox' },
  };
}
