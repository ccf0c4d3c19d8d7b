// The back office's people, their sessions and the audit log (issue 34). Every change to the staff is written with its
// audit row in one transaction: the log never misses a change that happened, nor holds one that did not.
import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditLog, staff, staffSessions, type StaffRole } from '../db/schema.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors.ts';
import { AUDIT_PAGE, type AuditPageDto, type StaffDto } from '../staff-schemas.ts';
import { uniqueViolation } from './accounts.ts';

/** A session ends after this long without a call (issue 34: 12 h idle). */
export const STAFF_IDLE_SECONDS = 12 * 3600;

/** Who did a back-office action, and from where; the route and status are added per action. */
export interface AuditActor {
  kind: 'staff' | 'grocer_token' | 'command_line';
  staffId?: number;
  /** As a person reads it: 'Asha Rao (owner)'. */
  label: string;
  /** The client's address, or 'command line'. */
  address: string;
}

export interface AuditEntry {
  actor: AuditActor;
  action: string;
  target?: string;
  status: number;
  detail?: unknown;
}

type Writer = Pick<Database, 'insert'>;

/** Appends one row to the audit log (inside the caller's transaction when `db` is one). */
export async function recordAudit(db: Writer, { actor, action, target, status, detail }: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorKind: actor.kind,
    staffId: actor.staffId ?? null,
    actor: actor.label,
    action,
    target: target ?? null,
    status,
    address: actor.address,
    detail: detail ?? null,
  });
}

/** The newest entries first, `limit` of them, older than the id `before` when given. */
export async function auditPage(db: Database, { before, limit = AUDIT_PAGE.default }: { before?: number; limit?: number }): Promise<AuditPageDto> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(before === undefined ? undefined : lt(auditLog.id, before))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit).map((r) => ({ ...r, at: r.at.toISOString(), detail: r.detail ?? null }));
  return { entries, next: rows.length > limit ? entries.at(-1)!.id : null };
}

const columns = { id: staff.id, name: staff.name, phone: staff.phone, role: staff.role, createdAt: staff.createdAt };
const toDto = (row: { id: number; name: string; phone: string; role: StaffRole; createdAt: Date }): StaffDto => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

/** 'Asha Rao (owner)': how the audit log names a member. */
export const staffLabel = (member: Pick<StaffDto, 'name' | 'role'>) => `${member.name} (${member.role})`;

export async function listStaff(db: Database): Promise<StaffDto[]> {
  return (await db.select(columns).from(staff).orderBy(staff.name, staff.id)).map(toDto);
}

export async function findStaffByPhone(db: Database, phone: string) {
  const [row] = await db.select({ ...columns, passwordHash: staff.passwordHash }).from(staff).where(eq(staff.phone, phone));
  return row;
}

export async function findStaff(db: Database, id: number) {
  const [row] = await db.select({ ...columns, passwordHash: staff.passwordHash }).from(staff).where(eq(staff.id, id));
  return row;
}

const STAFF_PHONE_TAKEN = 'A staff member already has this mobile number';

/** An owner needs a password (their second factor); the other roles have none. */
function checkPassword(role: StaffRole, passwordHash: string | null | undefined) {
  if (role === 'owner' && !passwordHash) throw badRequest('An owner needs a password: it is their second factor at sign-in.');
}

export async function addStaff(
  db: Database,
  input: { name: string; phone: string; role: StaffRole; passwordHash?: string },
  audit: Omit<AuditEntry, 'status' | 'target' | 'detail'>,
): Promise<StaffDto> {
  checkPassword(input.role, input.passwordHash);
  if (input.role !== 'owner' && input.passwordHash) throw badRequest('Only an owner has a password; staff and editors sign in with a code alone.');
  return db
    .transaction(async (tx) => {
      const [row] = await tx.insert(staff).values({ ...input, passwordHash: input.passwordHash ?? null }).returning(columns);
      const added = toDto(row!);
      await recordAudit(tx, { ...audit, status: 200, target: `staff ${added.id}`, detail: { name: added.name, phone: added.phone, role: added.role } });
      return added;
    })
    .catch((error: unknown) => {
      if (uniqueViolation(error) === 'staff_phone_key') throw conflict(STAFF_PHONE_TAKEN);
      throw error;
    });
}

/** The owners left if `id` stopped being one: never none, or nobody could keep the staff in /manage. */
async function refuseLastOwner(tx: Pick<Database, 'select' | 'execute'>, id: number) {
  // One change of owners at a time, so two owners cannot demote each other at once and leave none.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('staff-owners'))`);
  const [others] = await tx.select({ n: count() }).from(staff).where(and(eq(staff.role, 'owner'), ne(staff.id, id)));
  if (!others || others.n === 0) throw new ApiError(409, 'conflict', 'This is the last owner: add another owner first.');
}

/**
 * A new role (and, for an owner, a password). A changed role ends every session of the member: they sign in again
 * with what the new role allows.
 */
export async function changeStaff(
  db: Database,
  id: number,
  change: { role: StaffRole; passwordHash?: string },
  audit: Omit<AuditEntry, 'status' | 'target' | 'detail'>,
): Promise<StaffDto> {
  if (change.role !== 'owner' && change.passwordHash) throw badRequest('Only an owner has a password; staff and editors sign in with a code alone.');
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ role: staff.role, passwordHash: staff.passwordHash }).from(staff).where(eq(staff.id, id)).for('update');
    if (!before) throw notFound(`There is no staff member ${id}`);
    if (before.role === 'owner' && change.role !== 'owner') await refuseLastOwner(tx, id);
    const passwordHash = change.role === 'owner' ? (change.passwordHash ?? (before.role === 'owner' ? before.passwordHash : null)) : null;
    checkPassword(change.role, passwordHash);
    const [row] = await tx.update(staff).set({ role: change.role, passwordHash }).where(eq(staff.id, id)).returning(columns);
    const roleChanged = before.role !== change.role;
    if (roleChanged || change.passwordHash) await tx.delete(staffSessions).where(eq(staffSessions.staffId, id));
    await recordAudit(tx, {
      ...audit,
      status: 200,
      target: `staff ${id}`,
      detail: { from: before.role, role: change.role, passwordChanged: Boolean(change.passwordHash) },
    });
    return toDto(row!);
  });
}

/** Removes a member; their sessions go with them (the foreign key), their audit rows stay. */
export async function removeStaff(db: Database, id: number, audit: Omit<AuditEntry, 'status' | 'target' | 'detail'>): Promise<StaffDto> {
  return db.transaction(async (tx) => {
    const [member] = await tx.select({ role: staff.role }).from(staff).where(eq(staff.id, id)).for('update');
    if (!member) throw notFound(`There is no staff member ${id}`);
    if (member.role === 'owner') await refuseLastOwner(tx, id);
    const [row] = await tx.delete(staff).where(eq(staff.id, id)).returning(columns);
    const removed = toDto(row!);
    await recordAudit(tx, { ...audit, status: 200, target: `staff ${id}`, detail: { name: removed.name, phone: removed.phone, role: removed.role } });
    return removed;
  });
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session of a member: the cookie's token (only its SHA-256 is kept). */
export async function startStaffSession(db: Database, staffId: number, idleSeconds: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Sessions idle past their time are of no use to anyone: each sign-in sweeps them away.
  await db.delete(staffSessions).where(sql`${staffSessions.lastSeenAt} < now() - make_interval(secs => ${idleSeconds})`);
  await db.insert(staffSessions).values({ staffId, tokenHash: tokenDigest(token) });
  return token;
}

/**
 * The member of a live session: one used within `idleSeconds` (the database's clock). Each use moves the idle clock
 * (at most once a minute, so a busy page does not write on every call).
 */
export async function staffOfSession(db: Database, token: string, idleSeconds: number) {
  const [row] = await db
    .select({ sessionId: staffSessions.id, ...columns })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.tokenHash, tokenDigest(token)), sql`${staffSessions.lastSeenAt} > now() - make_interval(secs => ${idleSeconds})`));
  if (!row) return undefined;
  await db
    .update(staffSessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(staffSessions.id, row.sessionId), sql`${staffSessions.lastSeenAt} < now() - interval '1 minute'`));
  const { sessionId, ...member } = row;
  return { sessionId, member: toDto(member) };
}

/** Ends the session of a cookie's token; the member it was of (none when the token is unknown). */
export async function endStaffSession(db: Database, token: string) {
  const [ended] = await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenDigest(token))).returning({ staffId: staffSessions.staffId });
  return ended ? findStaff(db, ended.staffId) : undefined;
}
