// The back office's sign-in and people (issue 34): staff sign in with their mobile number and a texted code (an owner
// adds a password) into an HttpOnly, SameSite=Strict cookie; owners keep the staff list; owners read the audit log.
// The code machinery and its limits are the shoppers' (routes/auth.ts); the door of /grocer/* (grocer-access.ts)
// checks the role of every call here as everywhere under /grocer.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { RequestCodeSchema, CodeSentSchema } from '../account-schemas.ts';
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, verifyPassword, type ScryptCost } from '../auth/passwords.ts';
import type { Database } from '../db/client.ts';
import { badRequest, notFound } from '../errors.ts';
import { clientAddress, keyedLimiter, type LimiterStore } from '../rate-limit.ts';
import { ErrorSchema } from '../schemas.ts';
import { CODE_MINUTES } from '../services/phone-codes.ts';
import {
  addStaff,
  auditPage,
  changeStaff,
  endStaffSession,
  findStaff,
  findStaffByPhone,
  listStaff,
  recordAudit,
  removeStaff,
  staffLabel,
  startStaffSession,
} from '../services/staff.ts';
import {
  AddStaffSchema,
  AuditPageSchema,
  AuditQuery,
  ChangeStaffSchema,
  StaffIdParam,
  StaffListSchema,
  StaffSchema,
  StaffSignedInSchema,
  StaffVerifyCodeSchema,
} from '../staff-schemas.ts';
import { WRONG_CODE, type SignInCodes } from './auth.ts';
import { auditedByRoute, principalOf, staffCookieName, type GrocerPrincipal } from './grocer-access.ts';
import { GROCER, grocerErrors } from './grocer.ts';
import { json, jsonBody, PUBLIC } from './openapi.ts';

const GROCER_OR_STAFF = GROCER;
const errors = grocerErrors;

const WRONG_CODE_OR_PASSWORD = 'That code or password is not right, or the code has expired. Please ask for a new code and try again.';

export interface StaffRouteDeps {
  signInCodes: SignInCodes;
  siteOrigin: string;
  idleSeconds: number;
  passwordCost: ScryptCost;
  limiters: LimiterStore;
}

export function registerStaffRoutes(app: OpenAPIHono, db: Database, { signInCodes, siteOrigin, idleSeconds, passwordCost, limiters }: StaffRouteDeps) {
  const secure = new URL(siteOrigin).protocol === 'https:';
  const cookieName = staffCookieName(secure);
  const cookieOptions = { httpOnly: true, secure, sameSite: 'Strict', path: '/' } as const;
  // Wrong owner passwords, per owner: the code already limits tries, this keeps a stolen phone from guessing on.
  const passwordTries = keyedLimiter({ writes: 10, windowSeconds: 3600 }, 'password attempts', { store: limiters, name: 'staff:password' });

  app.openAPIRegistry.registerComponent('securitySchemes', 'staffSession', {
    type: 'apiKey',
    in: 'cookie',
    name: cookieName,
    description: 'The back office’s session (POST /api/grocer/Authenticate/VerifyCode sets it): HttpOnly, SameSite=Strict, ended after 12 h idle',
  });

  const principal = (c: Context): GrocerPrincipal => {
    const found = principalOf(c);
    if (!found) throw new Error('a grocer route ran without the door of /grocer/*');
    return found;
  };

  async function newPasswordHash(password: string | undefined) {
    if (password === undefined) return undefined;
    if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE);
    return hashPassword(password, passwordCost);
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Authenticate/RequestCode',
      security: PUBLIC,
      tags: ['Back office'],
      summary: 'Send a back-office sign-in code to a staff member’s mobile number',
      description: 'The same answer whether or not the number is a staff member’s; only a staff member’s number gets a text.',
      request: jsonBody(RequestCodeSchema),
      responses: {
        202: json(CodeSentSchema, 'If the number is a staff member’s, a code is on its way'),
        400: json(ErrorSchema, 'Bad input'),
        403: json(ErrorSchema, 'Not sent from the shop’s own pages (Origin)'),
        429: json(ErrorSchema, 'Too many requests, or a code was sent under 30 s ago; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { phone } = c.req.valid('json');
      const member = await findStaffByPhone(db, phone);
      const challenge = await signInCodes.request(
        c,
        { phone, purpose: 'staff', staffId: member?.id },
        member ? (code) => `${code} is your Kirana back-office sign-in code. It works for ${CODE_MINUTES} minutes. Never share it.` : undefined,
      );
      return c.json(signInCodes.codeSent(phone, challenge, 'Enter it to sign in to the back office.'), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Authenticate/VerifyCode',
      security: PUBLIC,
      tags: ['Back office'],
      summary: 'Sign in to the back office with the texted code (and an owner’s password): sets the staff session cookie',
      description:
        'The cookie is HttpOnly, SameSite=Strict, Path=/, Secure on https; the session ends after 12 h without a call, on Logout, and ' +
        'when the member’s role changes or the member is removed. An owner sends their password too (two factors).',
      request: jsonBody(StaffVerifyCodeSchema),
      responses: {
        200: json(StaffSignedInSchema, 'Signed in (Set-Cookie)'),
        400: json(ErrorSchema, 'Bad input, or a wrong, used or expired code, or an owner’s wrong password'),
        403: json(ErrorSchema, 'Not sent from the shop’s own pages (Origin)'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { phone, code, challenge, password } = c.req.valid('json');
      const used = await signInCodes.check(c, { phone, code, challenge, purposes: ['staff'] });
      const member = used.staffId === null ? undefined : await findStaff(db, used.staffId);
      if (!member || member.phone !== phone) throw badRequest(WRONG_CODE);
      const actor = { kind: 'staff' as const, staffId: member.id, label: staffLabel(member), address: clientAddress(c) };
      if (member.role === 'owner') {
        await passwordTries(c, String(member.id));
        if (!password || !member.passwordHash || !(await verifyPassword(password, member.passwordHash))) {
          await recordAudit(db, { actor, action: 'POST /grocer/Authenticate/VerifyCode', target: `staff ${member.id}`, status: 400, detail: { refused: 'wrong password' } });
          throw badRequest(WRONG_CODE_OR_PASSWORD);
        }
        await passwordTries.refund(String(member.id));
      }
      const token = await startStaffSession(db, member.id, idleSeconds);
      setCookie(c, cookieName, token, cookieOptions);
      await recordAudit(db, { actor, action: 'POST /grocer/Authenticate/VerifyCode', target: `staff ${member.id}`, status: 200, detail: { signedIn: true } });
      const { passwordHash: _, ...staff } = member;
      return c.json({ staff: { ...staff, createdAt: staff.createdAt.toISOString() }, idleMinutes: Math.round(idleSeconds / 60) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Authenticate/Logout',
      security: PUBLIC,
      tags: ['Back office'],
      summary: 'Sign out of the back office: the session ends and the cookie is cleared',
      responses: { 204: { description: 'Signed out (also when there was no session)' }, 403: json(ErrorSchema, 'Not sent from the shop’s own pages (Origin)') },
    }),
    async (c) => {
      const token = getCookie(c, cookieName);
      const ended = token ? await endStaffSession(db, token) : undefined;
      if (ended) {
        await recordAudit(db, {
          actor: { kind: 'staff', staffId: ended.id, label: staffLabel(ended), address: clientAddress(c) },
          action: 'POST /grocer/Authenticate/Logout',
          target: `staff ${ended.id}`,
          status: 204,
        });
      }
      deleteCookie(c, cookieName, cookieOptions);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Staff/Me',
      tags: ['Back office'],
      summary: 'The signed-in staff member (name, role)',
      security: GROCER_OR_STAFF,
      responses: { 200: json(StaffSchema, 'The member'), ...errors, 404: json(ErrorSchema, 'The grocer’s token is no staff member') },
    }),
    async (c) => {
      const who = principal(c);
      if (who.kind !== 'staff') throw notFound('The grocer’s token is not a staff member: it acts as an owner.');
      return c.json(who.member, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Staff',
      tags: ['Back office'],
      summary: 'Everyone who may sign in to the back office, with their role (owners)',
      security: GROCER_OR_STAFF,
      responses: { 200: json(StaffListSchema, 'By name'), ...errors },
    }),
    async (c) => c.json({ staff: await listStaff(db) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Staff',
      tags: ['Back office'],
      summary: 'Add a staff member (owners); an owner needs a password',
      security: GROCER_OR_STAFF,
      request: jsonBody(AddStaffSchema),
      responses: { 201: json(StaffSchema, 'Added'), ...errors, 409: json(ErrorSchema, 'The number is a staff member’s already') },
    }),
    async (c) => {
      const { name, phone, role, password } = c.req.valid('json');
      const passwordHash = await newPasswordHash(password);
      const added = await addStaff(db, { name, phone, role, passwordHash }, { actor: principal(c).actor, action: 'POST /grocer/Staff' });
      auditedByRoute(c);
      return c.json(added, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/grocer/Staff/{id}',
      tags: ['Back office'],
      summary: 'Change a member’s role (owners); their sessions end, and a new owner needs a password',
      security: GROCER_OR_STAFF,
      request: { params: StaffIdParam, ...jsonBody(ChangeStaffSchema) },
      responses: {
        200: json(StaffSchema, 'Changed'),
        ...errors,
        404: json(ErrorSchema, 'No such member'),
        409: json(ErrorSchema, 'The last owner cannot stop being one'),
      },
    }),
    async (c) => {
      const { role, password } = c.req.valid('json');
      const passwordHash = await newPasswordHash(password);
      const changed = await changeStaff(db, c.req.valid('param').id, { role, passwordHash }, { actor: principal(c).actor, action: 'PUT /grocer/Staff/{id}' });
      auditedByRoute(c);
      return c.json(changed, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/grocer/Staff/{id}',
      tags: ['Back office'],
      summary: 'Remove a staff member (owners): their sessions end at once; their audit rows stay',
      security: GROCER_OR_STAFF,
      request: { params: StaffIdParam },
      responses: {
        200: json(StaffSchema, 'Removed'),
        ...errors,
        404: json(ErrorSchema, 'No such member'),
        409: json(ErrorSchema, 'The last owner cannot be removed'),
      },
    }),
    async (c) => {
      const removed = await removeStaff(db, c.req.valid('param').id, { actor: principal(c).actor, action: 'DELETE /grocer/Staff/{id}' });
      auditedByRoute(c);
      return c.json(removed, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Audit',
      tags: ['Back office'],
      summary: 'The audit log, newest first (owners): who did what, when, from where; nobody can change or delete it',
      security: GROCER_OR_STAFF,
      request: { query: AuditQuery },
      responses: { 200: json(AuditPageSchema, 'A page of entries'), ...errors },
    }),
    async (c) => c.json(await auditPage(db, c.req.valid('query')), 200),
  );
}
