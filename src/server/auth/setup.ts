// What the account routes need from the settings: the signing secret, a mailer, a text message sender and the origin
// of mailed links.
import path from 'node:path';
import { SMS_OUTBOX_FOLDER, type ServerSettings } from '../config.ts';
import { outboxMailer, smtpMailer, type Mailer } from '../mail.ts';
import { msg91Sms, outboxSms, type SmsSender } from '../sms.ts';
import { DEFAULT_AUTH_LIMITS, type AccountDeps } from '../routes/auth.ts';
import { resolveJwtSecret } from './secret.ts';

/** The shop's mailer and text sender: SMTP_URL or the outbox folder, MSG91 or the sms-outbox folder. */
export async function messengersFromSettings(settings: ServerSettings, log: (message: string) => void): Promise<{ mailer: Mailer; sms: SmsSender }> {
  const outbox = path.join(settings.dataDir, 'outbox');
  const mailer = settings.smtpUrl ? await smtpMailer(settings.smtpUrl, settings.mailFrom) : outboxMailer(outbox, settings.mailFrom, log);
  if (!settings.smtpUrl) log(`mail: no SMTP_URL, so mails are written to ${outbox}`);
  const smsOutbox = path.join(settings.dataDir, SMS_OUTBOX_FOLDER);
  const sms = settings.sms.provider === 'msg91' ? msg91Sms(settings.sms) : outboxSms(smsOutbox, log);
  if (settings.sms.provider === 'outbox') log(`text messages: no SMS_PROVIDER, so one-time codes and order notices are written to ${smsOutbox}`);
  return { mailer, sms };
}

export async function accountDepsFromSettings(settings: ServerSettings, log: (message: string) => void): Promise<AccountDeps> {
  const jwtSecret = resolveJwtSecret(settings);
  const { mailer, sms } = await messengersFromSettings(settings, log);
  const limits = {
    ...DEFAULT_AUTH_LIMITS,
    perAddress: { ...DEFAULT_AUTH_LIMITS.perAddress, writes: settings.accountWritesPerAddress },
    textsPerHour: settings.textsPerHour,
  };
  return { jwtSecret, mailer, sms, linkOrigin: settings.siteOrigin, limits };
}
