// The slow-phone section of the bench (issue 26): a signed-in shopper's first taps on a phone like the ones many
// shoppers have, Chromium with 4× CPU throttling, 400 ms latency and 400 kbit/s each way (DevTools protocol), on a
// first visit (nothing cached). Three figures, each the median of a few runs, with the previous run's beside them
// (bench-results/slow-phone.json, kept like the cache-miss section's):
// - first tap to count: 'Add to cart' tapped as soon as it is visible → the form shows it is busy, or the count;
// - first tap to answer: → the server's answer shown (the stepper with its count);
// - first suggestion: the first keystroke in the header's search box → the first suggestion visible.
// And three impatient taps (0, 1.5 and 3 s on whatever button is under the finger) should make three in the cart.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchBrowser } from './js-bytes.ts';
import { median } from './stats.ts';

export const SLOW_PHONE_PROFILE = { cpuSlowdown: 4, latencyMs: 400, kbitPerSecond: 400 } as const;
/** The goals of issue 26 on that profile. */
export const SLOW_PHONE_TARGETS = { firstTapToCountMs: 100, firstTapToAnswerMs: 1500, firstSuggestionMs: 1000 } as const;

export type SlowPhoneFigures = {
  firstTapToCountMs: number | null;
  firstTapToAnswerMs: number | null;
  firstSuggestionMs: number | null;
  /** In the cart after three taps at 0, 1.5 and 3 s (3 is right). */
  threeTapsQty: number | null;
};

export type SlowPhoneResult = {
  measuredAt: string;
  runs: number;
  figures: SlowPhoneFigures;
  /** Each run's, in order. */
  samples: { tapToCountMs: Array<number | null>; tapToAnswerMs: Array<number | null>; suggestionMs: Array<number | null> };
  previous: { measuredAt: string; figures: SlowPhoneFigures } | null;
  notes: string[];
};

export const SLOW_PHONE_FILE = 'slow-phone.json';

export function readPreviousSlowPhone(outDir: string): SlowPhoneResult['previous'] {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(outDir, SLOW_PHONE_FILE), 'utf8')) as SlowPhoneResult;
    return { measuredAt: saved.measuredAt, figures: saved.figures };
  } catch {
    return null;
  }
}

export function writeLatestSlowPhone(outDir: string, result: SlowPhoneResult): void {
  fs.mkdirSync(outDir, { recursive: true });
  const { previous: _previous, ...kept } = result;
  fs.writeFileSync(path.join(outDir, SLOW_PHONE_FILE), JSON.stringify(kept, null, 2) + '\n');
}

type Session = { token: string; refreshToken: string; user: { id: number } };

/** A new shopper, registered through the API with the code the shop texts (its outbox in the data folder). */
async function registerShopper(baseUrl: string, dataDir: string): Promise<Session> {
  const stamp = Date.now().toString(36);
  const phone = `97${String(Date.now()).slice(-8)}`;
  const shopper = { name: 'Bench Shopper', email: `bench.${stamp}@example.in`, phone, password: 'green-mango-42' };
  const post = (p: string, body: unknown) =>
    fetch(baseUrl + p, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: baseUrl }, body: JSON.stringify(body) });
  const registered = await post('/api/Authenticate/Register', shopper);
  if (registered.status !== 202) throw new Error(`Register answered HTTP ${registered.status}: ${await registered.text()}`);
  const { challenge } = (await registered.json()) as { challenge: string };
  const outbox = path.join(dataDir, 'sms-outbox');
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    const file = fs.existsSync(outbox) ? fs.readdirSync(outbox).find((f) => f.endsWith(`-${phone}.txt`)) : undefined;
    if (file) code = /\b(\d{6}) is your Kirana/.exec(fs.readFileSync(path.join(outbox, file), 'utf8'))?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error(`no code texted to ${phone}`);
  const verified = await post('/api/Authenticate/VerifyCode', { phone, code, challenge });
  if (!verified.ok) throw new Error(`VerifyCode answered HTTP ${verified.status}`);
  return (await verified.json()) as Session;
}

/** The hot products, each tapped once by one run (a product not yet in the cart). */
async function hotProductIds(baseUrl: string): Promise<number[]> {
  const res = await fetch(`${baseUrl}/api/app/Products/LoadProductsByPriorityTag`);
  const list = (await res.json()) as Array<{ id: number; inStock?: boolean }>;
  return list.map((p) => p.id);
}

/** A suggestion on screen: the search box's own, or one drawn before it woke (src/client/early-suggestions.ts). */
const SUGGESTION_SHOWN = '[role="listbox"]:not([hidden]) [role="option"], [data-early-suggestions] a';

// Set in the page before its own scripts (a function, not text: the page's CSP allows no eval): the time of the first
// press and of what the page showed after it.
function watchFirstTaps(SUGGESTION_SHOWN: string) {
  type Slow = { tap: number | null; count: number | null; answer: number | null; key: number | null; suggestion: number | null };
  const slow: Slow = { tap: null, count: null, answer: null, key: null, suggestion: null };
  (window as unknown as { __slow: Slow }).__slow = slow;
  const now = () => performance.now();
  addEventListener('pointerdown', () => void (slow.tap ??= now()), true);
  addEventListener(
    'keydown',
    (event) => {
      if ((event.target as Element | null)?.getAttribute?.('role') === 'combobox') slow.key ??= now();
    },
    true,
  );
  const check = () => {
    if (slow.tap !== null) {
      const form = document.querySelector('form[data-add-to-cart]');
      const stepper = form?.querySelector('[data-cart-stepper]:not([hidden])');
      const busy = form && (form.getAttribute('aria-busy') === 'true' || form.querySelector('[data-cart-add][aria-disabled="true"]'));
      if (stepper) slow.answer ??= now();
      if (stepper || busy) slow.count ??= now();
    }
    if (slow.key !== null && document.querySelector(SUGGESTION_SHOWN)) slow.suggestion ??= now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

async function slowPage(browser: Browser, baseUrl: string, session: Session): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.addInitScript((s) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('refreshToken', s.refreshToken);
    localStorage.setItem('userid', String(s.user.id));
    localStorage.setItem('user', JSON.stringify(s.user));
  }, session);
  await context.addInitScript(watchFirstTaps, SUGGESTION_SHOWN);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE_PROFILE.cpuSlowdown });
  await cdp.send('Network.enable');
  const bytesPerSecond = (SLOW_PHONE_PROFILE.kbitPerSecond * 1000) / 8;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_PHONE_PROFILE.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  return page;
}

type Marks = { tap: number | null; count: number | null; answer: number | null; key: number | null; suggestion: number | null };
const marks = (page: Page) => page.evaluate(() => (window as unknown as { __slow: Marks }).__slow);
const since = (from: number | null, to: number | null) => (from === null || to === null ? null : Math.round(to - from));

/** A tap where the finger is: the middle of whichever of the form's buttons shows now. */
async function tapWhereShown(page: Page) {
  const target = page.locator('form[data-add-to-cart] >> nth=0').locator('[data-cart-more]:visible, [data-cart-add]:visible').first();
  const box = await target.boundingBox();
  if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

async function firstTap(browser: Browser, baseUrl: string, session: Session, productId: number, taps: 1 | 3) {
  const page = await slowPage(browser, baseUrl, session);
  try {
    await page.goto(`${baseUrl}/product-detail?id=${productId}`, { waitUntil: 'commit' });
    const add = page.locator('form[data-add-to-cart] [data-cart-add]').first();
    await add.waitFor({ state: 'visible', timeout: 60_000 });
    await tapWhereShown(page);
    for (let i = 1; i < taps; i++) {
      await page.waitForTimeout(1500);
      await tapWhereShown(page);
    }
    const qty = page.locator('form[data-add-to-cart] >> nth=0').locator('[data-cart-stepper]:not([hidden]) [data-cart-qty]').first();
    await qty.waitFor({ state: 'visible', timeout: 30_000 });
    // Every post answered: nothing busy, and a moment for a late one.
    await page.waitForFunction(() => !document.querySelector('form[data-add-to-cart][aria-busy="true"], form[data-add-to-cart] [data-cart-add][aria-disabled="true"]'), null, { timeout: 30_000 });
    // A last tap's answer may still be on its way.
    await page.waitForTimeout(taps > 1 ? 4000 : 0);
    const m = await marks(page);
    return { countMs: since(m.tap, m.count), answerMs: since(m.tap, m.answer), qty: Number(await qty.textContent()) };
  } finally {
    await page.context().close();
  }
}

async function firstSuggestion(browser: Browser, baseUrl: string, session: Session) {
  const page = await slowPage(browser, baseUrl, session);
  try {
    await page.goto(baseUrl + '/', { waitUntil: 'commit' });
    const box = page.getByRole('combobox').first();
    await box.waitFor({ state: 'visible', timeout: 60_000 });
    await box.tap();
    await page.keyboard.type('rice', { delay: 150 });
    await page.locator(SUGGESTION_SHOWN).first().waitFor({ state: 'visible', timeout: 30_000 });
    const m = await marks(page);
    return since(m.key, m.suggestion);
  } finally {
    await page.context().close();
  }
}

export async function measureSlowPhone(
  baseUrl: string,
  dataDir: string,
  outDir: string,
  runs: number,
  log: (message: string) => void,
): Promise<SlowPhoneResult> {
  const notes: string[] = [];
  const samples: SlowPhoneResult['samples'] = { tapToCountMs: [], tapToAnswerMs: [], suggestionMs: [] };
  let threeTapsQty: number | null = null;
  const session = await registerShopper(baseUrl, dataDir);
  const products = await hotProductIds(baseUrl);
  if (products.length < runs + 1) throw new Error(`only ${products.length} hot products for ${runs + 1} first taps`);
  const browser = await launchBrowser();
  const errorText = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));
  try {
    for (let i = 0; i < runs; i++) {
      log(`slow phone: first tap, run ${i + 1} of ${runs}…`);
      try {
        const r = await firstTap(browser, baseUrl, session, products[i]!, 1);
        samples.tapToCountMs.push(r.countMs);
        samples.tapToAnswerMs.push(r.answerMs);
      } catch (error) {
        notes.push(`First tap, run ${i + 1}: ${errorText(error)}`);
      }
      log(`slow phone: first suggestion, run ${i + 1} of ${runs}…`);
      try {
        samples.suggestionMs.push(await firstSuggestion(browser, baseUrl, session));
      } catch (error) {
        notes.push(`First suggestion, run ${i + 1}: ${errorText(error)}`);
      }
    }
    log('slow phone: three taps at 0, 1.5 and 3 s…');
    try {
      threeTapsQty = (await firstTap(browser, baseUrl, session, products[runs]!, 3)).qty;
    } catch (error) {
      notes.push(`Three taps: ${errorText(error)}`);
    }
  } finally {
    await browser.close();
  }
  const mid = (xs: Array<number | null>) => {
    const middle = median(xs);
    return middle === null ? null : Math.round(middle);
  };
  return {
    measuredAt: new Date().toISOString(),
    runs,
    figures: {
      firstTapToCountMs: mid(samples.tapToCountMs),
      firstTapToAnswerMs: mid(samples.tapToAnswerMs),
      firstSuggestionMs: mid(samples.suggestionMs),
      threeTapsQty,
    },
    samples,
    previous: readPreviousSlowPhone(outDir),
    notes,
  };
}

/** The slow-phone table, with the previous run's figures as "before". */
export function renderSlowPhone(m: SlowPhoneResult | null | undefined): string[] {
  const out = ['## Slow phone: the first taps (issue 26)', ''];
  if (!m) return [...out, 'Not measured.'];
  const p = SLOW_PHONE_PROFILE;
  out.push(
    `Chromium at ${p.cpuSlowdown}× CPU, ${p.latencyMs} ms latency, ${p.kbitPerSecond} kbit/s each way, 390×844 touch, signed in, a first visit; ` +
      `median of ${m.runs} run(s). ` +
      (m.previous ? `"Before" is the run of ${m.previous.measuredAt}.` : 'No earlier run to compare with.'),
    '',
  );
  const ms = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${n} ms`);
  const met = (n: number | null, goal: number) => (n === null ? '—' : n <= goal ? '✅' : '❌');
  const f = m.figures;
  const b = m.previous?.figures;
  const t = SLOW_PHONE_TARGETS;
  const rows = [
    ['First tap to count (busy or the count)', ms(f.firstTapToCountMs), `${met(f.firstTapToCountMs, t.firstTapToCountMs)} ≤ ${t.firstTapToCountMs} ms`, ms(b?.firstTapToCountMs)],
    ['First tap to answer ("1 in cart")', ms(f.firstTapToAnswerMs), `${met(f.firstTapToAnswerMs, t.firstTapToAnswerMs)} ≤ ${t.firstTapToAnswerMs} ms`, ms(b?.firstTapToAnswerMs)],
    ['First keystroke to first suggestion', ms(f.firstSuggestionMs), `${met(f.firstSuggestionMs, t.firstSuggestionMs)} ≤ ${t.firstSuggestionMs} ms`, ms(b?.firstSuggestionMs)],
    ['Three taps at 0, 1.5, 3 s: in the cart', f.threeTapsQty === null ? '—' : String(f.threeTapsQty), `${f.threeTapsQty === null ? '—' : f.threeTapsQty === 3 ? '✅' : '❌'} 3`, b?.threeTapsQty == null ? '—' : String(b.threeTapsQty)],
  ];
  out.push('| Measure | Now | Goal | Before |', '|:--|--:|:--|--:|', ...rows.map((r) => `| ${r.join(' | ')} |`));
  out.push('', `Each run: tap to count ${m.samples.tapToCountMs.map(ms).join(', ')}; tap to answer ${m.samples.tapToAnswerMs.map(ms).join(', ')}; suggestion ${m.samples.suggestionMs.map(ms).join(', ')}.`);
  for (const note of m.notes) out.push('', `- ${note}`);
  return out;
}
