// zod schemas of the back office's own calls (issue 34): staff sign-in, the staff list kept by owners, the audit log.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS } from '../lib/form-limits.ts';
import { NUMERIC_ID_PATTERN } from '../lib/ids.ts';
import { mobile, VerifyCodeSchema } from './account-schemas.ts';
import { positiveId, shopperText } from './schemas.ts';
import { STAFF_ROLES } from './db/schema.ts';

export const StaffRoleSchema = z.enum(STAFF_ROLES).openapi({
  description: 'owner: everything, and the staff; staff: orders, issues, stock; editor: content pages',
});

/** An owner's password (the second factor): the shoppers' bounds; the server also refuses common ones. */
const password = z
  .string({ error: 'password is required' })
  .min(ACCOUNT_LIMITS.password.min, `password must be at least ${ACCOUNT_LIMITS.password.min} characters`)
  .max(ACCOUNT_LIMITS.password.max, `password must be at most ${ACCOUNT_LIMITS.password.max} characters`);

export const StaffSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    phone: z.string().openapi({ description: 'ten digits' }),
    role: StaffRoleSchema,
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Staff');
export type StaffDto = z.infer<typeof StaffSchema>;

export const StaffListSchema = z.object({ staff: z.array(StaffSchema) }).openapi('StaffList');
export type StaffListDto = z.infer<typeof StaffListSchema>;

export const AddStaffSchema = z
  .object({
    name: shopperText('name', ACCOUNT_LIMITS.name),
    phone: mobile,
    role: StaffRoleSchema,
    password: password.optional().openapi({ description: "an owner's second factor: required for an owner, refused for the other roles" }),
  })
  .openapi('AddStaff');
export type AddStaffInput = z.infer<typeof AddStaffSchema>;

export const ChangeStaffSchema = z
  .object({
    role: StaffRoleSchema,
    password: password.optional().openapi({ description: 'a new owner needs one; an owner staying owner may change theirs' }),
  })
  .openapi('ChangeStaff');

export const StaffIdParam = z.object({ id: positiveId('id') });

/** VerifyCode of the shoppers, and an owner's password. */
export const StaffVerifyCodeSchema = VerifyCodeSchema.extend({
  password: z.string().max(ACCOUNT_LIMITS.password.max).optional().openapi({ description: "an owner's password (the second factor); others leave it out" }),
}).openapi('StaffVerifyCode');

export const StaffSignedInSchema = z
  .object({ staff: StaffSchema, idleMinutes: z.number().int().openapi({ description: 'the session ends after this long without a call' }) })
  .openapi('StaffSignedIn');

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string().openapi({ format: 'date-time' }),
    actorKind: z.enum(['staff', 'grocer_token', 'command_line']),
    staffId: z.number().int().nullable(),
    actor: z.string(),
    action: z.string().openapi({ example: 'POST /grocer/Orders/{id}/Cancel' }),
    target: z.string().nullable(),
    status: z.number().int(),
    address: z.string(),
    detail: z.unknown().nullable(),
  })
  .openapi('AuditEntry');
export type AuditEntryDto = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z
  .object({
    entries: z.array(AuditEntrySchema),
    next: z.number().int().nullable().openapi({ description: 'pass as `before` for the older entries; null: none' }),
  })
  .openapi('AuditPage');
export type AuditPageDto = z.infer<typeof AuditPageSchema>;

export const AUDIT_PAGE = { default: 50, max: 200 } as const;
export const AuditQuery = z.object({
  before: z
    .string()
    .regex(NUMERIC_ID_PATTERN, 'before must be a positive whole number')
    .transform(Number)
    .optional()
    .openapi({ description: 'entries older than this id' }),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `limit must be 1 to ${AUDIT_PAGE.max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= AUDIT_PAGE.max, `limit must be 1 to ${AUDIT_PAGE.max}`)
    .optional(),
});
