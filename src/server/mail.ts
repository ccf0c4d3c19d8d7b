// Mails the shop sends (password reset links): through SMTP_URL, or written to an outbox folder when none is set.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries, logged when the mail is only written to the outbox. */
  link?: string;
  /**
   * The same for every send of one message (an order's notice, sent again by a drainer whose claim lapsed): its
   * Message-ID over SMTP, so a mail system can tell the copy; the outbox writes it once.
   */
  idempotencyKey?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Writes each mail to `<dir>/<time>-<to>.eml`, readable by the shop's user alone (it holds a reset link), and logs
 * where. This is how a shop without a mail server, and the tests, read what was sent.
 */
export function outboxMailer(dir: string, from: string, log: (message: string) => void): Mailer {
  return {
    async send(mail) {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.chmod(dir, 0o700);
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      if (await writtenBefore(dir, mail.idempotencyKey)) return log(`mail to ${mail.to} ("${mail.subject}") was written before: not again`);
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.idempotencyKey ?? randomBytes(3).toString('hex')}-${safeTo}.eml`);
      const message = [`From: ${from}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, `Date: ${new Date().toUTCString()}`, '', mail.text, ''];
      await fs.writeFile(file, message.join('\n'), { mode: 0o600, flag: 'wx' });
      log(`mail to ${mail.to} ("${mail.subject}") written to ${file}${mail.link ? `; its link: ${mail.link}` : ''}`);
    },
  };
}

/** Whether the outbox folder holds the message of this idempotency key already (its name carries the key). */
export async function writtenBefore(dir: string, idempotencyKey: string | undefined): Promise<boolean> {
  return idempotencyKey !== undefined && (await fs.readdir(dir)).some((name) => name.includes(`-${idempotencyKey}-`));
}

export async function smtpMailer(url: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(url);
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'kirana.invalid';
  return {
    async send(mail) {
      const messageId = mail.idempotencyKey && `<${mail.idempotencyKey}@${domain}>`;
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, ...(messageId ? { messageId } : {}) });
    },
  };
}
