// After delivery (issue 25): a shopper reports a problem with a line of a delivered order, within the return window
// (store.yaml offers.returnDays from the delivered event), with an optional photo of their own (issue-photos.ts);
// the grocer lists the reports (open ones first) and settles each once, with a refund of the line's total or a
// replacement. Used by the shopper's and the grocer's routes, and by `npm run orders` with the shop stopped.
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { returnsClosedText, returnsUntilOf } from '../../lib/order-issues.ts';
import type { GrocerIssueDto, GrocerIssueListDto, ReportIssueInput } from '../after-delivery-schemas.ts';
import type { Database } from '../db/client.ts';
import { orderEvents, orderIssues, orderLines, orders } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { issuePhotoUrls, isOwnPhoto, PHOTO_NOT_YOURS } from './issue-photos.ts';
import { orderNotFound } from './orders.ts';

export const NOT_DELIVERED = 'You can report an issue once the order is delivered.';
export const issueAlreadyReported = (item: string) => `You already reported an issue with ${item}.`;
export const issueAlreadySettled = (id: number, outcome: string) => `Issue ${id} is already settled (${outcome}).`;

const itemOf = (line: { name: string; variantName: string | null }) => (line.variantName ? `${line.name} (${line.variantName})` : line.name);

/**
 * Records the shopper's report about one line of their delivered order, inside the return window judged by `now`.
 * Another shopper's order is 404; one line is reported once (the table's unique key settles a double click).
 */
export async function reportIssue(
  db: Database,
  rules: { returnDays: number; timeZone: string; now: () => Date },
  userId: number,
  orderId: number,
  input: Required<Pick<ReportIssueInput, 'orderLineId' | 'kind'>> & { note: string; photoId: number | null },
): Promise<void> {
  const [order] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw orderNotFound(orderId);
  if (order.status !== 'delivered') throw conflict(NOT_DELIVERED);
  const [delivered] = await db
    .select({ at: orderEvents.at })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.status, 'delivered')))
    .orderBy(desc(orderEvents.at))
    .limit(1);
  const until = returnsUntilOf(delivered?.at ?? new Date(0), rules.returnDays);
  if (rules.now().getTime() > new Date(until).getTime()) throw conflict(returnsClosedText(until, rules.timeZone));

  const [line] = await db
    .select({ id: orderLines.id, name: orderLines.name, variantName: orderLines.variantName })
    .from(orderLines)
    .where(and(eq(orderLines.id, input.orderLineId), eq(orderLines.orderId, orderId)));
  if (!line) throw notFound(`Order ${orderId} has no line ${input.orderLineId}`);
  // Only the shopper's own upload: naming another's photo would show it to them on their order.
  if (input.photoId !== null && !(await isOwnPhoto(db, userId, input.photoId))) throw badRequest(PHOTO_NOT_YOURS);
  const added = await db
    .insert(orderIssues)
    .values({ orderId, orderLineId: line.id, kind: input.kind, note: input.note, photoId: input.photoId, createdAt: rules.now() })
    .onConflictDoNothing()
    .returning({ id: orderIssues.id });
  if (added.length === 0) throw conflict(issueAlreadyReported(itemOf(line)));
}

const issueRow = {
  id: orderIssues.id,
  orderId: orderIssues.orderId,
  orderLineId: orderIssues.orderLineId,
  kind: orderIssues.kind,
  note: orderIssues.note,
  photoId: orderIssues.photoId,
  outcome: orderIssues.outcome,
  settleNote: orderIssues.settleNote,
  createdAt: orderIssues.createdAt,
  settledAt: orderIssues.settledAt,
  name: orderLines.name,
  variantName: orderLines.variantName,
  qty: orderLines.qty,
  lineTotalPaise: orderLines.lineTotalPaise,
  customerName: sql<string>`${orders.address}->>'name'`,
};

function grocerIssueOf(row: Awaited<ReturnType<typeof selectIssues>>[number]): GrocerIssueDto {
  const { name, variantName, createdAt, settledAt, photoId, ...rest } = row;
  return {
    ...rest,
    ...(photoId === null ? { photoUrl: null, thumbnailUrl: null } : issuePhotoUrls(photoId, 'grocer')),
    item: itemOf({ name, variantName }),
    refundPaise: row.outcome === 'refunded' ? row.lineTotalPaise : null,
    createdAt: createdAt.toISOString(),
    settledAt: settledAt ? settledAt.toISOString() : null,
  };
}

const selectIssues = (db: Database) =>
  db
    .select(issueRow)
    .from(orderIssues)
    .innerJoin(orderLines, eq(orderLines.id, orderIssues.orderLineId))
    .innerJoin(orders, eq(orders.id, orderIssues.orderId));

/** Every report, open ones first (oldest first: the longest waiting), then the settled ones, latest settled first. */
export async function listIssues(db: Database): Promise<GrocerIssueListDto> {
  const rows = await selectIssues(db).orderBy(
    sql`${orderIssues.outcome} <> 'open'`,
    asc(sql`case when ${orderIssues.outcome} = 'open' then ${orderIssues.createdAt} end`),
    desc(orderIssues.settledAt),
    asc(orderIssues.id),
  );
  return { issues: rows.map(grocerIssueOf) };
}

/** Settles an open report once: refunded (the line's total) or replaced, with a note the shopper reads. */
export async function settleIssue(
  db: Database,
  id: number,
  outcome: 'refunded' | 'replaced',
  note: string,
  now: () => Date = () => new Date(),
): Promise<GrocerIssueDto> {
  const settled = await db
    .update(orderIssues)
    .set({ outcome, settleNote: note || null, settledAt: now() })
    .where(and(eq(orderIssues.id, id), eq(orderIssues.outcome, 'open'), isNull(orderIssues.settledAt)))
    .returning({ id: orderIssues.id });
  const [row] = await selectIssues(db).where(eq(orderIssues.id, id));
  if (!row) throw notFound(`There is no issue ${id}`);
  if (settled.length === 0) throw conflict(issueAlreadySettled(id, row.outcome));
  return grocerIssueOf(row);
}
