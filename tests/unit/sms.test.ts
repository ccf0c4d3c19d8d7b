// The text message senders (issue 22): MSG91's Flow API driven for real against a stand-in on 127.0.0.1, the outbox,
// and the settings that choose between them.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDepsFromSettings } from '../../src/server/auth/setup.ts';
import { readServerSettings } from '../../src/server/config.ts';
import { msg91Sms, outboxSms } from '../../src/server/sms.ts';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

let server: http.Server;
let apiUrl: string;
const received: Received[] = [];
/** What the stand-in answers next: MSG91 answers 200 with type 'error' for a refused send. */
let answer: { status: number; body: unknown } = { status: 200, body: { type: 'success', message: '3763646c3058313930373432' } };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: JSON.parse(text) as unknown });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('MSG91', () => {
  it("posts the approved template with the number and the code to the Flow API, the key in MSG91's header", async () => {
    const sms = msg91Sms({ authKey: 'test-auth-key-123', templateId: 'otp-template-1', apiUrl });
    await sms.send({ to: '9845012345', text: '123456 is your Kirana sign-in code.', variables: { otp: '123456' } });
    const request = received.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v5/flow');
    expect(request.headers.authkey).toBe('test-auth-key-123');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ template_id: 'otp-template-1', short_url: '0', recipients: [{ mobiles: '919845012345', otp: '123456' }] });
  });

  it("fails when MSG91 refuses, with MSG91's reason and never the key", async () => {
    const sms = msg91Sms({ authKey: 'test-auth-key-123', templateId: 'otp-template-1', apiUrl });
    answer = { status: 200, body: { type: 'error', message: 'Template not approved' } };
    await expect(sms.send({ to: '9845012345', text: 'x', variables: { otp: '1' } })).rejects.toThrow(/Template not approved/);
    answer = { status: 401, body: { type: 'error', message: 'Authentication failure' } };
    const error = (await sms.send({ to: '9845012345', text: 'x', variables: { otp: '1' } }).then(() => new Error('sent'), (e: unknown) => e)) as Error;
    expect(error.message).toMatch(/HTTP 401: Authentication failure/);
    expect(error.message).not.toContain('test-auth-key-123');
    answer = { status: 200, body: { type: 'success', message: 'ok' } };
  });

  it('is chosen by SMS_PROVIDER=msg91, which needs its key and template, and HTTPS off this machine', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-sms-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: 'a-test-secret-of-32-characters!!', SMS_PROVIDER: 'msg91', MSG91_AUTH_KEY: 'test-auth-key-123', MSG91_OTP_TEMPLATE_ID: 'otp-template-1', MSG91_API_URL: apiUrl };
    const deps = await accountDepsFromSettings(readServerSettings(env), () => {});
    await deps.sms.send({ to: '9000012345', text: 'x', variables: { otp: '654321' } });
    expect(received.at(-1)!.body).toMatchObject({ recipients: [{ mobiles: '919000012345', otp: '654321' }] });
    expect(fs.existsSync(path.join(dataDir, 'sms-outbox'))).toBe(false);
    expect(() => readServerSettings({ ...env, MSG91_AUTH_KEY: '' })).toThrow(/SMS_PROVIDER=msg91 needs MSG91_AUTH_KEY and MSG91_OTP_TEMPLATE_ID/);
    expect(() => readServerSettings({ ...env, MSG91_API_URL: 'http://sms.example.in' })).toThrow(/MSG91_API_URL must be https/);
    expect(() => readServerSettings({ ...env, SMS_PROVIDER: 'twilio' })).toThrow(/SMS_PROVIDER must be outbox or msg91/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('MSG91 order notices (issue 25)', () => {
  it('sends each notice with its own DLT template from MSG91_NOTICE_TEMPLATES, and refuses one without a template', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-sms-'));
    const env = {
      DATA_DIR: dataDir,
      JWT_SECRET: 'a-test-secret-of-32-characters!!',
      SMS_PROVIDER: 'msg91',
      MSG91_AUTH_KEY: 'test-auth-key-123',
      MSG91_OTP_TEMPLATE_ID: 'otp-template-1',
      MSG91_API_URL: apiUrl,
      MSG91_NOTICE_TEMPLATES: 'placed = placed-tpl-1, packed=packed-tpl-2',
    };
    const { sms } = await accountDepsFromSettings(readServerSettings(env), () => {});
    const variables = { order: '12', slot: 'Thu 26 Nov, 6–8 pm', total: '₹245', link: 'https://kirana.example.in/orderdetails?id=12' };
    await sms.send({ to: '9845012345', text: 'Kirana: Your order #12 is packed…', variables, template: 'packed' });
    expect(received.at(-1)!.body).toEqual({ template_id: 'packed-tpl-2', short_url: '0', recipients: [{ mobiles: '919845012345', ...variables }] });
    const count = received.length;
    await expect(sms.send({ to: '9845012345', text: 'x', variables, template: 'delivered' })).rejects.toThrow(
      "no MSG91 template for the 'delivered' notice (MSG91_NOTICE_TEMPLATES)",
    );
    expect(received.length).toBe(count);
    expect(() => readServerSettings({ ...env, MSG91_NOTICE_TEMPLATES: 'placed' })).toThrow(/MSG91_NOTICE_TEMPLATES must be event=template id pairs/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('the outbox', () => {
  it('writes each message to a file of its own, readable by the shop alone, and logs where', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-sms-')), 'sms-outbox');
    const logged: string[] = [];
    await outboxSms(dir, (m) => logged.push(m)).send({ to: '9845012345', text: '123456 is your Kirana sign-in code.', variables: { otp: '123456' } });
    const [file] = fs.readdirSync(dir);
    expect(file).toMatch(/-9845012345\.txt$/);
    expect(fs.readFileSync(path.join(dir, file!), 'utf8')).toMatch(/^To: \+919845012345\n[^]*\n\n123456 is your Kirana sign-in code\.\n$/);
    expect(fs.statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(logged).toEqual([`text message to +919845012345 written to ${path.join(dir, file!)}`]);
  });
});
