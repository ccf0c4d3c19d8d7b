// Order notices (issue 25): a mail, and a text message when the shopper has not turned them off, each time an order is
// placed, packed, out for delivery, delivered or cancelled, and when its payment is confirmed. Each names the order,
// its slot, its total and links to the order page. Each step of an order is told at most once (its row in order_notices),
// and one number gets at most store.yaml's limits.orderTextsPerNumberPerHour texts an hour: place-and-cancel in a loop
// must not text a shopper (or a stranger's number) forty times a second at the shop's cost.
//
// Sent after the write has committed, and never allowed to fail it or hold it up: the routes start a notice and answer
// at once (`later`); a send that fails is logged in one line for the shop, never shown to the shopper. The stopped
// shop's `npm run orders` awaits `send`, so the notice leaves before its process ends.
//
// Every text is a DLT template with variables (TRAI's rules for a commercial SMS to an Indian number): the wording
// below is what the grocer registers, word for word, with {#var#} where a variable goes (docs/notices.md).
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deliverySlots, orderNotices as sentNotices, orders, users } from '../db/schema.ts';
import { LIMIT_DEFAULTS } from '../../lib/store-settings-schema.ts';
import type { Mailer } from '../mail.ts';
import type { SmsSender } from '../sms.ts';
import { formatRupees } from '../../lib/money.ts';
import { urls } from '../../lib/urls.ts';

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
}

export interface OrderNotices {
  /** Sends the notices of one event; never throws (a failure is logged). */
  send(orderId: number, event: NoticeEvent): Promise<void>;
  /** Starts `send` and returns at once: a route's answer never waits for a mail server. */
  later(orderId: number, event: NoticeEvent): void;
  /** Waits for the notices started by `later`: the shop closes its database only after them, so a stop loses none. */
  drain(): Promise<void>;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The notices of a shop: its mailer and text sender (src/server/auth/setup.ts), its origin and time zone. */
export function orderNotices({
  db,
  mailer,
  sms,
  linkOrigin,
  timeZone,
  log = (m) => console.error(m),
  textsPerNumberPerHour = LIMIT_DEFAULTS.orderTextsPerNumberPerHour,
}: NoticeDeps): OrderNotices {
  /**
   * Claims the notice of this order's step before it is sent: false when it was claimed already (a step is told at most
   * once, whoever sends it). Under the lock on the shopper's row, so notices racing for one number count its texts one
   * after the other; past the hour's texts it is mailed only (the order page shows every step anyway).
   */
  async function claim(orderId: number, event: NoticeEvent, userId: number, phone: string, wantsText: boolean) {
    return db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [texts] = await tx
        .select({ count: count() })
        .from(sentNotices)
        .where(and(eq(sentNotices.phone, phone), eq(sentNotices.texted, true), gt(sentNotices.sentAt, sql`now() - interval '1 hour'`)));
      const texted = wantsText && (texts?.count ?? 0) < textsPerNumberPerHour;
      const claimed = await tx
        .insert(sentNotices)
        .values({ orderId, event, phone, texted })
        .onConflictDoNothing()
        .returning({ texted: sentNotices.texted });
      return claimed.length === 0 ? null : { texted };
    });
  }

  async function send(orderId: number, event: NoticeEvent): Promise<void> {
    try {
      const [row] = await db
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
        .where(eq(orders.id, orderId));
      if (!row) return log(`[notices] order ${orderId} ${event}: no such order, nothing sent`);
      const claimed = await claim(orderId, event, row.userId, row.phone, row.smsNotices);
      if (!claimed) return;
      const link = new URL(urls.orderDetails(orderId), linkOrigin).href;
      const messages = noticeMessages(event, { orderId, ...row }, link, timeZone);
      // The text first, then the mail, one after the other: by the time the mail is in the outbox, so is any text.
      if (claimed.texted) {
        await sms.send({ to: row.phone, text: messages.text, variables: messages.variables, template: event }).catch((error: unknown) => {
          log(`[notices] order ${orderId} ${event}: the text to ${row.phone} was not sent (${reasonOf(error)})`);
        });
      }
      await mailer.send({ to: row.email, subject: messages.subject, text: messages.mail, link }).catch((error: unknown) => {
        log(`[notices] order ${orderId} ${event}: the mail to ${row.email} was not sent (${reasonOf(error)})`);
      });
    } catch (error) {
      log(`[notices] order ${orderId} ${event}: not sent (${reasonOf(error)})`);
    }
  }
  const inFlight = new Set<Promise<void>>();
  return {
    send,
    later: (orderId, event) => {
      const sending = send(orderId, event).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    drain: async () => {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}

/** No notices (a tool or test that sends none). */
export const NO_NOTICES: OrderNotices = { send: async () => {}, later: () => {}, drain: async () => {} };
