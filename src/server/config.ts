// The shop's settings, all of them, read from the environment and checked in one place: the shop, `npm run api` and the
// commands read them here, never from process.env, so a typo stops the start with the setting's name instead of
// quietly meaning the default (PAGE_CACHE_SECONDS=6o used to turn the page cache off). README.md's Settings table is
// this list. Variables only the tests or the bench read (CHROMIUM_PATH, E2E_PORT, TEST_PG_*, BENCH_*) are not here.
import path from 'node:path';
import { z } from 'zod';
import { openableOrigin } from '../lib/listen-origin.ts';

/** The default image cache's name inside DATA_DIR (the data folder's checks leave it alone: see data-folder.ts). */
export const IMAGE_CACHE_FOLDER = 'image-cache';
/** Where one-time codes are written inside DATA_DIR when no SMS provider is set. */
export const SMS_OUTBOX_FOLDER = 'sms-outbox';

const seconds = (name: string) => z.string().regex(/^\d+$/, `${name} must be a whole number of seconds`);
const port = (name: string) =>
  z.string().regex(/^\d+$/, `${name} must be a port number`).refine((p) => Number(p) <= 65_535, `${name} must be a port number (0 to 65535)`);
const httpUrl = (name: string, example: string) =>
  z.url({ protocol: /^https?$/, message: `${name} must be an absolute http(s) URL such as ${example}` });
const trueOrFalse = (name: string) => z.enum(['true', 'false'], `${name} must be true or false`);

const settingsSchema = z.object({
  HOST: z.string().default('localhost'),
  PORT: port('PORT').default('4321'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  JWT_SECRET: z.string().min(16, 'JWT_SECRET must be at least 16 characters').optional(),
  GROCER_TOKEN: z.string().min(16, 'GROCER_TOKEN must be at least 16 characters').optional(),
  SEED_ON_EMPTY: trueOrFalse('SEED_ON_EMPTY').default('true'),
  API_URL: httpUrl('API_URL', 'http://api.internal:4322/api').optional(),
  // Read by the build (the browser bundle); checked here too so that `npm start`, which builds, refuses a typo.
  PUBLIC_API_URL: z
    .string()
    .regex(/^(\/|https?:\/\/)/, 'PUBLIC_API_URL must be a path such as /api or an absolute http(s) URL')
    .optional(),
  API_PORT: port('API_PORT').default('4322'),
  TRUST_PROXY: trueOrFalse('TRUST_PROXY').default('false'),
  CORS_ORIGIN: z
    .string()
    .refine(
      (list) => list.split(',').every((o) => /^https?:\/\/[^/]+$/.test(o.trim())),
      'CORS_ORIGIN must be origins such as https://shop.example.in, separated by commas',
    )
    .optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Kirana <no-reply@kirana.local>'),
  SITE_URL: httpUrl('SITE_URL', 'https://shop.example.in').optional(),
  PAGE_CACHE_SECONDS: seconds('PAGE_CACHE_SECONDS').default('60'),
  READ_CACHE_SECONDS: seconds('READ_CACHE_SECONDS').default('60'),
  SHUTDOWN_GRACE_SECONDS: seconds('SHUTDOWN_GRACE_SECONDS').default('0'),
  ACCOUNT_WRITES_PER_ADDRESS: z
    .string()
    .regex(/^[1-9]\d{0,6}$/, 'ACCOUNT_WRITES_PER_ADDRESS must be a whole number from 1')
    .default('30'),
  TEXTS_PER_HOUR: z.string().regex(/^[1-9]\d{0,6}$/, 'TEXTS_PER_HOUR must be a whole number from 1').default('300'),
  IMAGE_CACHE_DIR: z.string().optional(),
  SMS_PROVIDER: z.enum(['outbox', 'msg91'], 'SMS_PROVIDER must be outbox or msg91').default('outbox'),
  MSG91_AUTH_KEY: z.string().min(8, 'MSG91_AUTH_KEY must be the auth key MSG91 gave you').optional(),
  MSG91_OTP_TEMPLATE_ID: z.string().min(4, 'MSG91_OTP_TEMPLATE_ID must be the id of your approved template').optional(),
  MSG91_API_URL: z.url('MSG91_API_URL must be an absolute URL').default('https://control.msg91.com'),
  MSG91_NOTICE_TEMPLATES: z
    .string()
    .regex(
      /^\s*[a-z_]+\s*=\s*[\w-]{4,}\s*(,\s*[a-z_]+\s*=\s*[\w-]{4,}\s*)*$/,
      'MSG91_NOTICE_TEMPLATES must be event=template id pairs separated by commas, e.g. placed=64f0…,packed=64f1…',
    )
    .optional(),
});

/** The names of every setting, as README.md's Settings table lists them. */
export const SETTING_NAMES = Object.keys(settingsSchema.shape) as (keyof typeof settingsSchema.shape)[];

export type ServerSettings = {
  /** Where the shop listens (HOST, PORT); `npm run api` listens on HOST and apiPort. */
  host: string;
  port: number;
  apiPort: number;
  /** An API host elsewhere: the storefront is then a pure front end of it. Unset: the API runs inside the shop. */
  apiUrl: string | undefined;
  /** The shop and `npm run api` behind a proxy of ours: take the client's address from X-Forwarded-For's last entry. */
  trustProxy: boolean;
  /** `npm run api`: storefront origins allowed to call it from browsers; empty: none. */
  corsOrigins: string[];
  /** SITE_URL as set, or undefined (then pages name the address the server listens on: src/lib/server/site.ts). */
  siteUrl: string | undefined;
  /** How long the server keeps a shared page in memory (src/http/page-cache.ts); 0: never. */
  pageCacheSeconds: number;
  /** After SIGTERM, how long /readyz answers 503 while the listener still accepts, so a load balancer stops sending
   * before it closes (src/http/shutdown.ts). */
  shutdownGraceSeconds: number;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  /** The token of the grocer's routes; unset: made once in `<dataDir>/grocer-token` (required with DATABASE_URL). */
  grocerToken: string | undefined;
  seedOnEmpty: boolean;
  /** Unset: mails are written to `<dataDir>/outbox/` instead of being sent. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where links in texts and mails point: SITE_URL, else http://HOST:PORT (openableOrigin); never the Host a request claims. */
  siteOrigin: string;
  /** How long the API keeps a catalogue answer in memory at most (writes through it forget them at once); 0: never. */
  readCacheSeconds: number;
  /** Registrations, failed sign-ins, code and reset requests one address may make in 15 minutes. */
  accountWritesPerAddress: number;
  /** Code texts the whole shop may send in an hour (a cost ceiling against pumping); past it, an alarm in the log. */
  textsPerHour: number;
  /** Where the picture sizes made from the originals are kept (made once each); default `<dataDir>/image-cache`. */
  imageCacheDir: string;
  /** How one-time codes are sent: written to `<dataDir>/sms-outbox/`, or through MSG91. */
  sms:
    | { provider: 'outbox' }
    | { provider: 'msg91'; authKey: string; templateId: string; apiUrl: string; noticeTemplateIds: Record<string, string> };
};

export function readServerSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  // An empty value is an unset one (`API_URL= npm start`), as in README's table.
  const parsed = settingsSchema.safeParse(Object.fromEntries(SETTING_NAMES.map((name) => [name, env[name] || undefined])));
  if (!parsed.success) {
    // One line, each problem starting with the setting's name; values are not repeated (some are secrets).
    const problems = parsed.error.issues.map((i) => {
      const name = String(i.path[0] ?? '');
      return i.message.startsWith(name) ? i.message : `${name}: ${i.message}`;
    });
    throw new Error(`Invalid settings: ${problems.join('; ')}`);
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
    host: s.HOST,
    port: Number(s.PORT),
    apiPort: Number(s.API_PORT),
    apiUrl: s.API_URL,
    trustProxy: s.TRUST_PROXY === 'true',
    corsOrigins: s.CORS_ORIGIN ? s.CORS_ORIGIN.split(',').map((o) => o.trim()) : [],
    siteUrl: s.SITE_URL,
    pageCacheSeconds: Number(s.PAGE_CACHE_SECONDS),
    shutdownGraceSeconds: Number(s.SHUTDOWN_GRACE_SECONDS),
    dataDir,
    databaseUrl: s.DATABASE_URL,
    jwtSecret: s.JWT_SECRET,
    grocerToken: s.GROCER_TOKEN,
    seedOnEmpty: s.SEED_ON_EMPTY === 'true',
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    siteOrigin: (s.SITE_URL ? new URL(s.SITE_URL) : openableOrigin(s.HOST, s.PORT)).origin,
    readCacheSeconds: Number(s.READ_CACHE_SECONDS),
    accountWritesPerAddress: Number(s.ACCOUNT_WRITES_PER_ADDRESS),
    textsPerHour: Number(s.TEXTS_PER_HOUR),
    imageCacheDir: s.IMAGE_CACHE_DIR ? path.resolve(s.IMAGE_CACHE_DIR) : path.join(dataDir, IMAGE_CACHE_FOLDER),
    sms:
      s.SMS_PROVIDER === 'msg91'
        ? {
            provider: 'msg91',
            authKey: s.MSG91_AUTH_KEY!,
            templateId: s.MSG91_OTP_TEMPLATE_ID!,
            apiUrl: s.MSG91_API_URL,
            // Each order notice's own approved template (services/notices.ts); one not given is not texted.
            noticeTemplateIds: Object.fromEntries(
              (s.MSG91_NOTICE_TEMPLATES ?? '').split(',').filter((pair) => pair.includes('=')).map((pair) => pair.split('=').map((part) => part.trim())),
            ),
          }
        : { provider: 'outbox' },
  };
}

let ofThisProcess: ServerSettings | undefined;

/** This process's settings (process.env), read and checked once; throws, naming the setting, when one is invalid. */
export function shopSettings(): ServerSettings {
  return (ofThisProcess ??= readServerSettings());
}
