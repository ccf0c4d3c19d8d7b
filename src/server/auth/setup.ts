// What the account routes need from the settings: the signing secret, a mailer and the origin of mailed links.
import path from 'node:path';
import type { ServerSettings } from '../config.ts';
import { outboxMailer, smtpMailer } from '../mail.ts';
import type { AccountDeps } from '../routes/auth.ts';
import { resolveJwtSecret } from './secret.ts';

export async function accountDepsFromSettings(settings: ServerSettings, log: (message: string) => void): Promise<AccountDeps> {
  const jwtSecret = resolveJwtSecret(settings);
  const outbox = path.join(settings.dataDir, 'outbox');
  const mailer = settings.smtpUrl ? await smtpMailer(settings.smtpUrl, settings.mailFrom) : outboxMailer(outbox, settings.mailFrom, log);
  if (!settings.smtpUrl) log(`mail: no SMTP_URL, so mails are written to ${outbox}`);
  return { jwtSecret, mailer, linkOrigin: settings.siteOrigin };
}
