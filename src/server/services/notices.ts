// Order notices (issue 25): a mail, and a text message when the shopper has not turned them off, each time an order is
// placed, packed, out for delivery, delivered or cancelled, and when its payment is confirmed. Each names the order,
// its slot, its total and links to the order page. Each step of an order is told at most once (its row in order_notices),
// and one number gets at most store.yaml's limits.orderTextsPerNumberPerHour texts an hour: place-and-cancel in a loop
// must not text a shopper (or a stranger's number) forty times a second at the shop's cost.
//
// A transactional outbox (issue 33): the write that makes a step records its notice in its own transaction
// (recordNotice), and a drainer sends it after the commit: at once (`later`, the fast path: a route's answer never waits
// for a mail server), and at each shop's start and every 30 s (`sendPending`: what a shop killed before its send left,
// and what failed). A drainer claims a row with FOR UPDATE SKIP LOCKED and a lease, sends it, then marks it sent: sent
// at least once, and two shops never send the same notice twice. The lease is renewed while a send runs (a slow mail
// server is no reason for another shop to send it again), and every mark after the send holds only while the claim is
// still this drainer's; the senders get an idempotency key per notice, for a provider that can tell a second send of
// one notice (a claim lost all the same: the database out of reach longer than the lease). A send that fails is
// logged in one line for the shop, never shown to the shopper, and tried again later (NOTICE_ATTEMPTS in all).
// `npm run orders` on a stopped shop or PostgreSQL awaits its sends, so the notice leaves before its process ends.
//
// Every text is a DLT template with variables (TRAI's rules for a commercial SMS to an Indian number): the wording
// below is what the grocer registers, word for word, with {#var#} where a variable goes (docs/notices.md).
import { and, asc, count, eq, gt, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { deliverySlots, orderNotices as sentNotices, orders, users } from '../db/schema.ts';
import { LIMIT_DEFAULTS } from '../../lib/store-settings-schema.ts';
import type { Mailer } from '../mail.ts';
import type { SmsSender } from '../sms.ts';
import { formatRupees } from '../../lib/money.ts';
import { urls } from '../../lib/urls.ts';
import { startRepeatingTask } from '../repeating-task.ts';

/** What happened to an order that the shopper is told of. */
export const NOTICE_EVENTS = ['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled', 'payment_confirmed'] as const;
export type NoticeEvent = (typeof NOTICE_EVENTS)[number];

/** What a notice says of its order: read once, after the write committed. */
export interface NoticeFacts {
  orderId: number;
  slotStartsAt: Date;
  slotEndsAt: Date;
  totalPaise: number;
  cancelledBy: 'shopper' | 'shop' | 'payment_expired' | null;
  cancelReason: string | null;
}

export interface NoticeMessages {
  subject: string;
  /** The mail's text. */
  mail: string;
  /** The text message, exactly as its DLT template reads with the variables filled in. */
  text: string;
  /** The template's variables (MSG91 Flow sends these beside the number). */
  variables: Record<string, string>;
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
function hourFormat(timeZone: string) {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-IN', { timeZone, hour: 'numeric', minute: '2-digit', hour12: true });
    hourFormats.set(timeZone, format);
  }
  return format;
}

/** '6 pm' or '6:30 pm': a text message is short, and a slot's minutes are mostly :00. */
function clock(at: Date, timeZone: string): { time: string; period: string } {
  const parts = hourFormat(timeZone).formatToParts(at);
  const hour = parts.find((p) => p.type === 'hour')?.value ?? '';
  const minute = parts.find((p) => p.type === 'minute')?.value ?? '00';
  const period = (parts.find((p) => p.type === 'dayPeriod')?.value ?? '').toLowerCase();
  return { time: minute === '00' ? hour : `${hour}:${minute}`, period };
}

/** A slot as a notice says it: 'Thu 26 Nov, 6–8 pm' ('Thu 26 Nov, 11 am–1 pm' across noon), in the shop's time zone. */
export function slotNoticeText(startsAt: Date, endsAt: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-IN', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).formatToParts(startsAt);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const from = clock(startsAt, timeZone);
  const to = clock(endsAt, timeZone);
  const range = from.period === to.period ? `${from.time}–${to.time} ${to.period}` : `${from.time} ${from.period}–${to.time} ${to.period}`;
  return `${part('weekday')} ${part('day')} ${part('month')}, ${range}`;
}

/** Who cancelled, as the shopper reads it. */
function cancelledText(facts: NoticeFacts): string {
  if (facts.cancelledBy === 'shop') return facts.cancelReason ? `by the shop: ${facts.cancelReason}` : 'by the shop';
  if (facts.cancelledBy === 'payment_expired') return 'as payment was not received in time';
  return 'by you';
}

/** The words of each notice: pure, so a test and docs/notices.md read the same text. */
export function noticeMessages(event: NoticeEvent, facts: NoticeFacts, link: string, timeZone: string): NoticeMessages {
  const order = String(facts.orderId);
  const slot = slotNoticeText(facts.slotStartsAt, facts.slotEndsAt, timeZone);
  const total = formatRupees(facts.totalPaise);
  const variables: Record<string, string> = { order, slot, total, link };
  const what = {
    placed: { subject: `Order #${order} placed`, line: `Your order #${order} is placed. We deliver it ${slot}.` },
    packed: { subject: `Order #${order} is packed`, line: `Your order #${order} is packed, for delivery ${slot}.` },
    out_for_delivery: { subject: `Order #${order} is out for delivery`, line: `Your order #${order} is out for delivery (slot ${slot}).` },
    delivered: { subject: `Order #${order} is delivered`, line: `Your order #${order} is delivered (slot ${slot}). Thank you!` },
    cancelled: { subject: `Order #${order} is cancelled`, line: `Your order #${order} (slot ${slot}) is cancelled ${cancelledText(facts)}.` },
    payment_confirmed: { subject: `Payment received for order #${order}`, line: `We received your payment for order #${order}. We deliver it ${slot}.` },
  }[event];
  if (event === 'cancelled') variables.reason = cancelledText(facts);
  const text = `Kirana: ${what.line} Total ${total}. See your order: ${link}`;
  const mail = [`${what.line}`, '', `Total: ${total}`, `Delivery slot: ${slot}`, '', `See your order: ${link}`, '', 'Kirana'].join('\n');
  return { subject: `${what.subject}: ${slot}`, mail, text, variables };
}

export interface NoticeDeps {
  db: Database;
  mailer: Mailer;
  sms: SmsSender;
  /** The shop's public origin (SITE_URL, or where the shop runs): the order's link starts with it. */
  linkOrigin: string;
  timeZone: string;
  /** Where a failed send is reported, one line, for the shop's log. */
  log?: (message: string) => void;
  /** Texts about orders one number gets in an hour (store.yaml limits.orderTextsPerNumberPerHour); past it, mail only. */
  textsPerNumberPerHour?: number;
  /** How long a claim holds without being renewed (CLAIM_LEASE_SECONDS; a test's shorter one). */
  leaseSeconds?: number;
}

export interface OrderNotices {
  /** Records the notice (if its write did not) and sends it now, unless it was sent or is being sent; never throws. */
  send(orderId: number, event: NoticeEvent): Promise<void>;
  /** Sends a recorded notice and returns at once: a route's answer never waits for a mail server (the fast path). */
  later(orderId: number, event: NoticeEvent): void;
  /** Sends every pending notice due now (at start, then on a timer: what a killed shop or a failed send left); how many it took up. */
  sendPending(): Promise<number>;
  /** Waits for the notices started by `later`: the shop closes its database only after them, so a stop loses none. */
  drain(): Promise<void>;
}

/** Sends of one notice before it is given up (logged); each failure waits longer before the next. */
export const NOTICE_ATTEMPTS = 5;
/** A claim lapses after this unless renewed: a sender killed mid-send leaves its notice to another (sent at least once). */
export const CLAIM_LEASE_SECONDS = 120;
/** A running send renews its claim this many times a lease, so a late renewal or two still keep it. */
const RENEWALS_PER_LEASE = 4;
/** The wait after a failed send, times the attempts so far. */
const RETRY_AFTER_SECONDS = 30;
/** How often each shop process sends what is pending (and how soon a failed send is tried again, at the least). */
export const NOTICE_OUTBOX_INTERVAL_MS = 30_000;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Records an order step's notice in the write's own transaction (the outbox): committed with the step, or not at all.
 * A step recorded before (a replay) keeps its row.
 */
export async function recordNotice(tx: Database, orderId: number, event: NoticeEvent): Promise<void> {
  await tx.insert(sentNotices).values({ orderId, event }).onConflictDoNothing();
}

/** A notice claimed for sending: the facts its words need, and what was sent of it before. */
interface ClaimedNotice {
  orderId: number;
  event: NoticeEvent;
  /** Counted by every claim: the claim is still this drainer's while the row's attempts are these. */
  attempts: number;
  texted: boolean;
  textSent: boolean;
  mailSent: boolean;
  phone: string;
  email: string;
  facts: NoticeFacts;
}

/** The notices of a shop: its mailer and text sender (src/server/auth/setup.ts), its origin and time zone. */
export function orderNotices({
  db,
  mailer,
  sms,
  linkOrigin,
  timeZone,
  log = (m) => console.error(m),
  textsPerNumberPerHour = LIMIT_DEFAULTS.orderTextsPerNumberPerHour,
  leaseSeconds = CLAIM_LEASE_SECONDS,
}: NoticeDeps): OrderNotices {
  const due = and(
    isNull(sentNotices.sentAt),
    lt(sentNotices.attempts, NOTICE_ATTEMPTS),
    or(isNull(sentNotices.retryAt), lte(sentNotices.retryAt, sql`now()`)),
  );

  /**
   * Claims one pending notice (this one, or the oldest due), or null: FOR UPDATE SKIP LOCKED, so two shops draining at
   * once never take the same row, and a lease (retry_at) that keeps it theirs after the commit while they send. The
   * first claim decides text or mail only, under the lock on the shopper's row, so notices racing for one number count
   * its texts one after the other; past the hour's texts it is mailed only (the order page shows every step anyway).
   */
  async function claim(only?: { orderId: number; event: NoticeEvent }): Promise<ClaimedNotice | 'gone' | null> {
    return db.transaction(async (tx) => {
      const [pending] = await tx
        .select({
          orderId: sentNotices.orderId,
          event: sentNotices.event,
          attempts: sentNotices.attempts,
          phone: sentNotices.phone,
          texted: sentNotices.texted,
          claimedAt: sentNotices.claimedAt,
          textSentAt: sentNotices.textSentAt,
          mailSentAt: sentNotices.mailSentAt,
        })
        .from(sentNotices)
        .where(only ? and(due, eq(sentNotices.orderId, only.orderId), eq(sentNotices.event, only.event)) : due)
        .orderBy(asc(sentNotices.recordedAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!pending) return null;
      const [row] = await tx
        .select({
          userId: users.id,
          email: users.email,
          phone: users.phone,
          smsNotices: users.smsNotices,
          slotStartsAt: deliverySlots.startsAt,
          slotEndsAt: deliverySlots.endsAt,
          totalPaise: orders.totalPaise,
          cancelledBy: orders.cancelledBy,
          cancelReason: orders.cancelReason,
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .innerJoin(deliverySlots, eq(deliverySlots.id, orders.slotId))
        .where(eq(orders.id, pending.orderId));
      const key = and(eq(sentNotices.orderId, pending.orderId), eq(sentNotices.event, pending.event));
      if (!row) {
        // Its order is gone (a row is deleted with its order, so this is a slot gone): nothing to say, never again.
        await tx.update(sentNotices).set({ attempts: NOTICE_ATTEMPTS, lastError: 'the order or its slot is gone' }).where(key);
        log(`[notices] order ${pending.orderId} ${pending.event}: no such order, nothing sent`);
        return 'gone';
      }
      let { phone, texted } = pending;
      if (pending.claimedAt === null) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, row.userId)).for('update');
        const [texts] = await tx
          .select({ count: count() })
          .from(sentNotices)
          .where(and(eq(sentNotices.phone, row.phone), eq(sentNotices.texted, true), gt(sentNotices.claimedAt, sql`now() - interval '1 hour'`)));
        phone = row.phone;
        texted = row.smsNotices && (texts?.count ?? 0) < textsPerNumberPerHour;
      }
      await tx
        .update(sentNotices)
        .set({
          phone,
          texted,
          claimedAt: pending.claimedAt ?? sql`now()`,
          retryAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
          attempts: pending.attempts + 1,
        })
        .where(key);
      return {
        orderId: pending.orderId,
        event: pending.event as NoticeEvent,
        attempts: pending.attempts + 1,
        texted,
        textSent: pending.textSentAt !== null,
        mailSent: pending.mailSentAt !== null,
        phone: phone ?? row.phone,
        email: row.email,
        facts: { orderId: pending.orderId, ...row },
      };
    });
  }

  /**
   * Renews the claim every so often while its notice is sent; the stop waits for a renewal under way, so none lands
   * after the marks that follow the send. A renewal that finds the claim another's (it lapsed: the database was out of
   * reach) stops renewing; the marks then say so.
   */
  function keepClaim(notice: ClaimedNotice, ours: SQL | undefined): () => Promise<void> {
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = db
        .update(sentNotices)
        .set({ retryAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
        .where(and(ours, isNull(sentNotices.sentAt)))
        .returning({ attempts: sentNotices.attempts })
        .then(
          (renewed) => renewed.length === 0 && clearInterval(timer),
          (error: unknown) => log(`[notices] order ${notice.orderId} ${notice.event}: its claim was not renewed (${reasonOf(error)})`),
        );
    }, (leaseSeconds * 1000) / RENEWALS_PER_LEASE);
    // A send in flight keeps the process alive, not its renewals.
    timer.unref();
    return async () => {
      clearInterval(timer);
      await renewing;
    };
  }

  /**
   * Sends what is left of a claimed notice, then marks it sent, or due again later with its error: each mark only while
   * the claim is still ours, so a drainer whose claim lapsed never marks (or postpones) what another now sends.
   */
  async function deliver(notice: ClaimedNotice): Promise<void> {
    const { orderId, event } = notice;
    const ours = and(eq(sentNotices.orderId, orderId), eq(sentNotices.event, event), eq(sentNotices.attempts, notice.attempts));
    let lost = false;
    const mark = async (set: PgUpdateSetSource<typeof sentNotices>) => {
      if (lost) return;
      const marked = await db.update(sentNotices).set(set).where(ours).returning({ attempts: sentNotices.attempts });
      lost = marked.length === 0;
      if (lost) log(`[notices] order ${orderId} ${event}: another drainer took it over while this one sent it (its claim lapsed)`);
    };
    const link = new URL(urls.orderDetails(orderId), linkOrigin).href;
    const messages = noticeMessages(event, notice.facts, link, timeZone);
    // The same for every send of this notice, by any drainer: a second one is the same message to the provider.
    const idempotencyKey = `kirana-order-${orderId}-${event}`;
    const failures: string[] = [];
    const stopRenewing = keepClaim(notice, ours);
    try {
      // The text first, then the mail, one after the other: by the time the mail is in the outbox, so is any text.
      if (notice.texted && !notice.textSent) {
        const texted = await sms.send({ to: notice.phone, text: messages.text, variables: messages.variables, template: event, idempotencyKey }).then(
          () => true,
          (error: unknown) => void failures.push(`the text to ${notice.phone} was not sent (${reasonOf(error)})`),
        );
        if (texted) await mark({ textSentAt: sql`now()` });
      }
      if (!notice.mailSent) {
        const mailed = await mailer.send({ to: notice.email, subject: messages.subject, text: messages.mail, link, idempotencyKey }).then(
          () => true,
          (error: unknown) => void failures.push(`the mail to ${notice.email} was not sent (${reasonOf(error)})`),
        );
        if (mailed) await mark({ mailSentAt: sql`now()` });
      }
    } finally {
      await stopRenewing();
    }
    for (const failure of failures) log(`[notices] order ${orderId} ${event}: ${failure}`);
    if (failures.length === 0) return mark({ sentAt: sql`now()`, retryAt: null, lastError: null });
    await mark({ lastError: failures.join('; '), retryAt: sql`now() + make_interval(secs => ${RETRY_AFTER_SECONDS * notice.attempts})` });
    if (notice.attempts >= NOTICE_ATTEMPTS) log(`[notices] order ${orderId} ${event}: given up after ${NOTICE_ATTEMPTS} attempts`);
  }

  /** Claims and sends one notice; false when none was due. Never throws (a failure is logged, the notice stays pending). */
  async function sendOne(only?: { orderId: number; event: NoticeEvent }): Promise<boolean> {
    try {
      const notice = await claim(only);
      if (!notice) return false;
      if (notice !== 'gone') await deliver(notice);
      return true;
    } catch (error) {
      const which = only ? `order ${only.orderId} ${only.event}` : 'a pending notice';
      log(`[notices] ${which}: not sent (${reasonOf(error)})`);
      return false;
    }
  }

  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    return tracked;
  };
  return {
    send: (orderId, event) =>
      track(
        (async () => {
          try {
            await recordNotice(db, orderId, event);
          } catch (error) {
            return log(`[notices] order ${orderId} ${event}: not recorded (${reasonOf(error)})`);
          }
          await sendOne({ orderId, event });
        })(),
      ),
    later: (orderId, event) => void track(sendOne({ orderId, event })),
    sendPending: () =>
      track(
        (async () => {
          let sent = 0;
          // One at a time, oldest first, until none is due (a failed one waits for its retry time, so this ends).
          while (await sendOne()) sent++;
          return sent;
        })(),
      ),
    drain: async () => {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}

/**
 * Sends the shop's pending notices at start and every `intervalMs`: those a killed shop left between its commit and its
 * send, and those whose send failed. Returns the stop, which waits for a run in progress.
 */
export function startNoticeOutbox(
  notices: OrderNotices,
  { intervalMs = NOTICE_OUTBOX_INTERVAL_MS, logError }: { intervalMs?: number; logError: (error: unknown) => void },
): () => Promise<void> {
  return startRepeatingTask(() => notices.sendPending(), intervalMs, logError);
}

/** No notices (a tool or test that sends none): recorded rows stay pending for a shop to send. */
export const NO_NOTICES: OrderNotices = { send: async () => {}, later: () => {}, sendPending: async () => 0, drain: async () => {} };
