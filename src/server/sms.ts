// Text messages the shop sends (one-time codes): through MSG91 when configured, or written to an outbox folder.
//
// MSG91 because every commercial SMS to an Indian number must go through a DLT-registered sender and template (TRAI's
// rules); MSG91 is an Indian provider that registers both with the operators, bills in rupees, and is what many Indian
// grocers and D2C shops already use. Its Flow API sends one approved template with the code as a variable.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writtenBefore } from './mail.ts';

export interface TextMessage {
  /** A 10-digit Indian mobile number (no +91). */
  to: string;
  /** The whole message, as the outbox keeps it and a template would read. */
  text: string;
  /** The template's variables (a one-time code's `otp`). */
  variables: Record<string, string>;
  /** Which DLT template: an order notice's event (services/notices.ts); none: the one-time code's. */
  template?: string;
  /** The same for every send of one message (an order's notice): the outbox writes it once. */
  idempotencyKey?: string;
}

export interface SmsSender {
  send(message: TextMessage): Promise<void>;
}

/**
 * Writes each message to `<dir>/<time>-<to>.txt`, readable by the shop's user alone (it holds a sign-in code), and logs
 * where: how a shop without an SMS provider, and the tests, read what was sent.
 */
export function outboxSms(dir: string, log: (message: string) => void): SmsSender {
  return {
    async send(message) {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.chmod(dir, 0o700);
      if (await writtenBefore(dir, message.idempotencyKey)) return log(`text message to +91${message.to} was written before: not again`);
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.idempotencyKey ?? randomBytes(3).toString('hex')}-${message.to}.txt`);
      await fs.writeFile(file, `To: +91${message.to}\nDate: ${new Date().toUTCString()}\n\n${message.text}\n`, { mode: 0o600, flag: 'wx' });
      log(`text message to +91${message.to} written to ${file}`);
    },
  };
}

export interface Msg91Settings {
  authKey: string;
  /** The DLT-approved template of the one-time code message; its variable is `otp`. */
  templateId: string;
  /** The approved template of each order notice, by its event (MSG91_NOTICE_TEMPLATES); one missing: that text is not sent. */
  noticeTemplateIds?: Record<string, string>;
  /** https://control.msg91.com; a test's stand-in on 127.0.0.1. */
  apiUrl: string;
}

/** MSG91's Flow API (POST /api/v5/flow): one template, one recipient, the variables beside the number. */
export function msg91Sms({ authKey, templateId: codeTemplateId, noticeTemplateIds = {}, apiUrl }: Msg91Settings): SmsSender {
  const endpoint = new URL('/api/v5/flow', apiUrl).href;
  return {
    async send(message) {
      // DLT: an operator drops a text that matches no approved template, so a notice without its own is not sent.
      const templateId = message.template === undefined ? codeTemplateId : noticeTemplateIds[message.template];
      if (!templateId) throw new Error(`no MSG91 template for the '${message.template}' notice (MSG91_NOTICE_TEMPLATES)`);
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { authkey: authKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ template_id: templateId, short_url: '0', recipients: [{ mobiles: `91${message.to}`, ...message.variables }] }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json().catch(() => ({}))) as { type?: string; message?: string };
      // MSG91 answers 200 with type 'error' for a refused send (a wrong key, a template not approved).
      if (!res.ok || body.type !== 'success') {
        throw new Error(`MSG91 did not send the text message (HTTP ${res.status}${body.message ? `: ${body.message}` : ''})`);
      }
    },
  };
}
