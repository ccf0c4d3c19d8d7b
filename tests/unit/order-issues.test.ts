// After delivery (issue 25): how a report's outcome and the return window read to the shopper, and the invoice
// settings' GSTIN check a grocer's typo meets at the build.
import { parse } from 'yaml';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { issueOutcomeText, returnsClosedText, returnsUntilOf } from '../../src/lib/order-issues.ts';
import { storeSettingsSchema } from '../../src/lib/store-settings-schema.ts';

const TZ = 'Asia/Kolkata';

describe('the outcome of a report', () => {
  it('reads the refund to the paisa with the day it was settled, in the shop’s time zone', () => {
    // 20:00 UTC on 25 Dec is 01:30 on 26 Dec in Kolkata.
    expect(issueOutcomeText({ outcome: 'refunded', refundPaise: 7_600, settledAt: '2026-12-25T20:00:00Z' }, TZ)).toBe('Refund of ₹76.00 settled on 26 Dec');
    expect(issueOutcomeText({ outcome: 'replaced', refundPaise: null, settledAt: '2026-12-25T20:00:00Z' }, TZ)).toBe('A replacement is on its way');
    expect(issueOutcomeText({ outcome: 'open', refundPaise: null, settledAt: null }, TZ)).toBe('Reported: the shop will get back to you');
  });

  it('closes the window returnDays after the delivery, and names the day', () => {
    const until = returnsUntilOf('2026-11-25T05:00:00Z', 30);
    expect(until).toBe('2026-12-25T05:00:00.000Z');
    expect(returnsClosedText(until, TZ)).toBe('Returns closed on 25 Dec');
  });
});

describe('the invoice settings', () => {
  const settings = parse(fs.readFileSync('src/content/settings/store.yaml', 'utf8')) as Record<string, Record<string, unknown>>;
  const withGstin = (gstin: string) => storeSettingsSchema.safeParse({ ...settings, invoice: { ...settings.invoice, gstin } });

  it('takes the shop’s file as it is', () => {
    expect(storeSettingsSchema.safeParse(settings).success).toBe(true);
  });

  it.each(['29AAACK1234F1Z', '29aaack1234f1z5', '29AAACK1234F1Z5 ', 'X9AAACK1234F1Z5', '29AAACK1234F0Z5', '29AAACK1234F1Y5'])(
    'refuses %j as a GSTIN, naming the field',
    (gstin) => {
      const checked = withGstin(gstin);
      expect(checked.success).toBe(false);
      expect(checked.error!.issues[0]).toMatchObject({ path: ['invoice', 'gstin'], message: 'invoice.gstin must be a 15-character GSTIN in capitals, e.g. 29AAACK1234F1Z5' });
    },
  );

  it('refuses a GST rate above 28%', () => {
    expect(storeSettingsSchema.safeParse({ ...settings, invoice: { ...settings.invoice, gstPercent: 40 } }).success).toBe(false);
  });
});
