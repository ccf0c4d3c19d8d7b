// zod schemas of what follows a delivery (issue 25): a shopper's report about a line (its photo uploaded first), how
// the grocer settles it, and the tax invoice. The order's DTO carries each line's report (order-schemas.ts).
import { z } from '@hono/zod-openapi';
import { NO_CONTROL_CHARACTERS } from '../lib/control-characters.ts';
import { NO_CONTROL_EXCEPT_LINES } from '../lib/form-limits.ts';
import { ISSUE_KIND_VALUES, ISSUE_NOTE_LIMITS, SETTLE_NOTE_LIMITS } from '../lib/order-issues.ts';
import { shopperText } from './schemas.ts';

const ISSUE_OUTCOME_VALUES = ['open', 'refunded', 'replaced'] as const;
/** A line's report as the shopper and the grocer see it. */
export const OrderIssueSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(ISSUE_KIND_VALUES),
    note: z.string(),
    photoUrl: z.string().nullable().openapi({
      description: 'The shopper’s photo: answers only with their bearer token (the grocer’s list: the grocer’s token); null: none',
    }),
    thumbnailUrl: z.string().nullable().openapi({ description: `The photo as a small square JPEG, under the same rule; null: none` }),
    outcome: z.enum(ISSUE_OUTCOME_VALUES).openapi({ description: "'open' until the grocer settles it" }),
    settleNote: z.string().nullable().openapi({ description: 'What the grocer wrote when settling; null: nothing' }),
    refundPaise: z.number().int().nullable().openapi({ description: "The line's total when refunded; null otherwise" }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    settledAt: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('OrderIssue');

export const ReportIssueSchema = z
  .object({
    orderLineId: z
      .number({ error: 'orderLineId is required: the line the issue is about' })
      .int()
      .positive('orderLineId must be positive')
      .max(2_147_483_647),
    kind: z.enum(ISSUE_KIND_VALUES, { error: "kind must be 'missing', 'damaged', 'wrong_item' or 'quality'" }),
    note: shopperText('note', ISSUE_NOTE_LIMITS, NO_CONTROL_EXCEPT_LINES).default(''),
    photoId: z
      .number({ error: 'photoId must be the photoId POST /api/app/IssuePhotos answered' })
      .int('photoId must be the photoId POST /api/app/IssuePhotos answered')
      .positive('photoId must be the photoId POST /api/app/IssuePhotos answered')
      .max(2_147_483_647)
      .nullable()
      .default(null)
      .openapi({ description: 'From POST /api/app/IssuePhotos (one of your own uploads); leave out for no photo' }),
  })
  .openapi('ReportIssue');

export const IssuePhotoSchema = z
  .object({
    photoId: z.number().int().openapi({ description: 'Name it in the report (photoId) within a day, or the upload is deleted' }),
    photoUrl: z.string().openapi({ example: '/api/app/IssuePhotos/12', description: 'Answers only with your bearer token' }),
  })
  .openapi('IssuePhoto');

/** One report in the grocer's list (`npm run orders -- issues`). */
export const GrocerIssueSchema = OrderIssueSchema.extend({
  orderId: z.number().int(),
  orderLineId: z.number().int(),
  /** The line: name (pack), qty and total. */
  item: z.string(),
  qty: z.number().int(),
  lineTotalPaise: z.number().int(),
  customerName: z.string(),
}).openapi('GrocerIssue');

export const GrocerIssueListSchema = z.object({ issues: z.array(GrocerIssueSchema) }).openapi('GrocerIssueList');

export const SettleNoteSchema = shopperText('note', SETTLE_NOTE_LIMITS, NO_CONTROL_CHARACTERS);

export const SettleIssueSchema = z
  .object({
    outcome: z.enum(['refunded', 'replaced'], { error: "outcome must be 'refunded' or 'replaced'" }),
    note: SettleNoteSchema.default(''),
  })
  .openapi('SettleIssue');

// --- The invoice ---------------------------------------------------------------------------------------------

const InvoiceLineSchema = z.object({
  name: z.string(),
  pack: z.string().nullable(),
  qty: z.number().int(),
  unitPricePaise: z.number().int(),
  totalPaise: z.number().int(),
  /** The GST this line's total includes. */
  taxPaise: z.number().int(),
});

export const InvoiceSchema = z
  .object({
    /** e.g. 'KIR-000012': the order's number, so one order has one invoice. */
    number: z.string(),
    orderId: z.number().int(),
    /** The day it was delivered (the invoice's date). */
    date: z.string().openapi({ format: 'date-time' }),
    timeZone: z.string(),
    seller: z.object({ legalName: z.string(), addressLines: z.array(z.string()), gstin: z.string() }),
    customer: z.object({ name: z.string(), phone: z.string(), addressLines: z.array(z.string()) }),
    lines: z.array(InvoiceLineSchema),
    subtotalPaise: z.number().int(),
    discounts: z.array(z.object({ label: z.string(), amountPaise: z.number().int() })),
    deliveryPaise: z.number().int(),
    totalPaise: z.number().int(),
    /** Prices include GST at this rate (store.yaml invoice.gstPercent). */
    gstPercent: z.number(),
    /** The GST the total includes, and the value it is charged on (total − tax). */
    taxPaise: z.number().int(),
    taxableValuePaise: z.number().int(),
  })
  .openapi('Invoice');

export type OrderIssueDto = z.infer<typeof OrderIssueSchema>;
export type ReportIssueInput = z.input<typeof ReportIssueSchema>;
export type GrocerIssueDto = z.infer<typeof GrocerIssueSchema>;
export type GrocerIssueListDto = z.infer<typeof GrocerIssueListSchema>;
export type InvoiceDto = z.infer<typeof InvoiceSchema>;
export type IssuePhotoDto = z.infer<typeof IssuePhotoSchema>;
