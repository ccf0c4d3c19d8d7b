// Accounts: register, sign in and out, token refresh, password reset and change, the shopper's profile.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ChangePasswordSchema,
  CodeSentSchema,
  ForgotPasswordSchema,
  LoginSchema,
  LogoutSchema,
  MessageSchema,
  RefreshTokenSchema,
  RegisterSchema,
  RequestCodeSchema,
  ResetPasswordSchema,
  SessionSchema,
  UpdateProfileSchema,
  ProfileSavedSchema,
  UserSchema,
  VerifyCodeSchema,
  VerifyPhoneSchema,
  type CodeSentDto,
  type SessionDto,
  type UserDto,
} from '../account-schemas.ts';
import { normalizeIndianMobile } from '../../lib/form-limits.ts';
import { BEARER, bearerAuth } from '../auth/bearer.ts';
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword, OWASP_SCRYPT, refuseWhenHashingBusy, verifyPassword, type ScryptCost } from '../auth/passwords.ts';
import { AccessTokens, RESET_TOKEN_MINUTES } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { ApiError, badRequest, conflict, notFound, unauthorized } from '../errors.ts';
import type { Mailer } from '../mail.ts';
import { addressKey, clientAddress, clientNetwork, keyedLimiter, memoryLimiterStore, networkOf, targetLimiter, waitText, type LimiterStore, type WriteLimit } from '../rate-limit.ts';
import type { SmsSender } from '../sms.ts';
import * as codes from '../services/phone-codes.ts';
import { ErrorSchema } from '../schemas.ts';
import * as accounts from '../services/accounts.ts';
import { json, PUBLIC } from './openapi.ts';

/** Limits of each of Register, Login, RefreshToken and ForgotPassword, counted apart (docs/security.md). */
export interface AuthLimits {
  /** Per address (an IPv6 address counts as its /64); an IPv4 /24 gets NETWORK_FACTOR times as much, a softer bucket. */
  perAddress: WriteLimit;
  /** Per account (or email) from one network: a third party elsewhere cannot spend it. */
  perAccount: WriteLimit;
  /** Failures per account (or email) from every network; past it, only networks that have not failed on it get in. */
  accountCeiling?: WriteLimit;
  /** Texts per mobile number asked for from one network, beside the 30 s between two. */
  codesPerPhone?: WriteLimit;
  /** Texts per mobile number from every network (past it, only networks that have not asked for it get one). */
  textsPerPhone?: WriteLimit;
  /** Texts a signed-in account may ask for (its own number, or a new one). */
  textsPerAccount?: WriteLimit;
  /** Texts of codes the whole shop may send in an hour; past it the log raises an alarm. */
  textsPerHour?: number;
  /** Wrong codes tried against one number from one network. */
  guessesPerPhone?: WriteLimit;
  /** Wrong codes tried against one number from every network (past it, only networks that have not failed on it). */
  guessesCeiling?: WriteLimit;
}

/** An IPv4 /24 holds many shoppers of one carrier or office: its bucket is this many addresses' worth. */
export const NETWORK_FACTOR = 4;

export const DEFAULT_AUTH_LIMITS: Required<AuthLimits> = {
  perAddress: { writes: 30, windowSeconds: 900 },
  perAccount: { writes: 10, windowSeconds: 900 },
  accountCeiling: { writes: 50, windowSeconds: 900 },
  codesPerPhone: { writes: 5, windowSeconds: 3600 },
  textsPerPhone: { writes: 10, windowSeconds: 3600 },
  textsPerAccount: { writes: 5, windowSeconds: 3600 },
  textsPerHour: 300,
  guessesPerPhone: { writes: 10, windowSeconds: 3600 },
  guessesCeiling: { writes: 20, windowSeconds: 86_400 },
};

export interface AccountDeps {
  /** Signs access tokens (HS256). */
  jwtSecret: string;
  /** Sends password reset links. */
  mailer: Mailer;
  /** Sends one-time codes. */
  sms: SmsSender;
  /** Origin of the links in mails, e.g. https://shop.example.in: from the settings, never from a request's Host. */
  linkOrigin: string;
  limits?: AuthLimits;
  /** scrypt's cost; OWASP's unless a test wants cheaper hashes. */
  passwordCost?: ScryptCost;
}

export const EMAIL_TAKEN = 'An account with this email already exists. Please sign in, or choose a new password.';
export const PHONE_TAKEN = 'An account with this phone number already exists';
const WRONG_LOGIN = 'The email, phone or password is not right';
const SESSION_ENDED = 'Your session has ended. Please sign in again.';
export const WRONG_CODE = 'That code is not right, or it has expired. Please check it, or ask for a new one.';

const body = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

export function registerAuthRoutes(
  app: OpenAPIHono,
  db: Database,
  deps: AccountDeps,
  logError: (error: unknown) => void,
  limiters: LimiterStore = memoryLimiterStore,
) {
  const { mailer, sms, linkOrigin, passwordCost = OWASP_SCRYPT } = deps;
  const limits: Required<AuthLimits> = { ...DEFAULT_AUTH_LIMITS, ...deps.limits };
  const tokens = new AccessTokens(deps.jwtSecret);
  const authenticate = bearerAuth(tokens, db);

  /**
   * One point per request from each of the address's buckets: its own (an IPv6 /64) and its IPv4 /24 (softer);
   * `refundAddress` gives them back. `name` keeps each call's counts apart from the others' in a shared store.
   */
  const limitedByAddress = (name: string, what: string, perAddress: WriteLimit = limits.perAddress) => {
    const byAddress = keyedLimiter(perAddress, what, { store: limiters, name: `${name}:address` });
    const byNetwork = keyedLimiter({ ...perAddress, writes: perAddress.writes * NETWORK_FACTOR }, what, { store: limiters, name: `${name}:network` });
    // The address's own key (an IPv6 /64) and, for IPv4, its /24.
    const keysOf = (c: Context) => {
      const network = networkOf(clientAddress(c));
      return { address: addressKey(c), v4Network: network.kind === 'v4' ? network.key : undefined };
    };
    return {
      address: async (c: Context) => {
        const keys = keysOf(c);
        await byAddress(c, keys.address);
        if (keys.v4Network) await byNetwork(c, keys.v4Network).catch(async (error: unknown) => {
          await byAddress.refund(keys.address);
          throw error;
        });
      },
      refundAddress: async (c: Context) => {
        const keys = keysOf(c);
        await byAddress.refund(keys.address);
        if (keys.v4Network) await byNetwork.refund(keys.v4Network);
      },
    };
  };
  /**
   * The address's buckets, and the account's from this network; `refundAccount` gives its point back (for calls that
   * count only when they fail), `failed` counts a failure against the account's ceiling.
   */
  const limited = (name: string, what: string, own: Partial<Pick<AuthLimits, 'perAddress' | 'perAccount'>> = {}) => {
    const byAccount = targetLimiter({ perSource: own.perAccount ?? limits.perAccount, ceiling: limits.accountCeiling }, what, { store: limiters, name: `${name}:account` });
    return {
      ...limitedByAddress(name, what, own.perAddress),
      account: (c: Context, account: string) => byAccount.attempt(c, clientNetwork(c), account),
      refundAccount: (c: Context, account: string) => byAccount.refund(clientNetwork(c), account),
      failed: (c: Context, account: string) => byAccount.failed(clientNetwork(c), account),
    };
  };
  const limitRegister = limited('register', 'registrations');
  const limitLogin = limited('login', 'sign-in attempts');
  const limitRefresh = limited('refresh', 'token refreshes');
  const limitForgot = limited('forgot', 'password reset requests');
  // Each hashes a new password (scrypt, 128 MiB): a few a second would tie up the hashing pool.
  const limitReset = limited('reset', 'password changes');
  const limitChange = limited('change', 'password changes');
  // Codes: requests per address; texts per number from each network, per number from all, per signed-in account, and
  // for the whole shop; wrong tries per address, per number from each network and per number from all. A code names a
  // number, not an account: the number's and the signed-in account's own buckets below stand for limited()'s account.
  const limitCodes = limitedByAddress('codes', 'code requests');
  const textsToPhone = targetLimiter({ perSource: limits.codesPerPhone, ceiling: limits.textsPerPhone }, 'codes sent to this number', { store: limiters, name: 'codes:phone' });
  const textsOfAccount = keyedLimiter(limits.textsPerAccount, 'codes sent', { store: limiters, name: 'codes:signed-in-account' });
  const textsOfShop = keyedLimiter({ writes: limits.textsPerHour, windowSeconds: 3600 }, 'codes sent by the shop', { store: limiters, name: 'codes:shop' });
  const limitVerify = limitedByAddress('verify', 'code attempts');
  const guessesOfPhone = targetLimiter({ perSource: limits.guessesPerPhone, ceiling: limits.guessesCeiling }, 'wrong codes for this number', { store: limiters, name: 'verify:phone' });
  let lastAlarm = 0;

  // An unknown account is checked against this hash, so it answers in about the time a wrong password does.
  let dummyHash: Promise<string> | undefined;
  // A failed one (the hashing queue full: a 503) is forgotten, or every later unknown login would answer 503 too.
  const dummy = () => (dummyHash ??= hashPassword('not anyone’s password', passwordCost).catch((error: unknown) => ((dummyHash = undefined), Promise.reject(error))));

  async function startSession(user: UserDto, familyId?: string): Promise<SessionDto> {
    const issued = await accounts.issueRefreshToken(db, user.id, familyId);
    const token = await tokens.sign({ userId: user.id, sessionId: issued.familyId });
    return { token, refreshToken: issued.refreshToken, user };
  }

  function refuseCommon(password: string) {
    if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE);
  }

  async function newPasswordHash(password: string) {
    refuseCommon(password);
    return hashPassword(password, passwordCost);
  }

  /** A registration or a new number that meets the unique indexes (taken meanwhile): a 409. */
  function rethrowTaken(error: unknown): never {
    const index = accounts.uniqueViolation(error);
    if (index === 'users_phone_key') throw conflict(PHONE_TAKEN);
    if (index !== undefined) throw conflict(EMAIL_TAKEN);
    throw error;
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });

  /**
   * Sends a code to a number, or says when the next may be sent. Every request leaves a row and waits the same 30 s,
   * and the text goes out after the answer: neither the answer nor its time tells whether the number has an account.
   */
  async function sendCode(
    c: Context,
    request: Parameters<typeof codes.issueCode>[2],
    text: ((code: string) => string) | undefined,
    signedIn?: number,
  ): Promise<string> {
    // Texts per number are counted per network: keyed on the number alone, anyone could spend them and keep its owner
    // from getting a code. The number's own ceiling refuses only networks that have already asked for it.
    const network = clientNetwork(c);
    await textsToPhone.attempt(c, network, request.phone);
    if (signedIn !== undefined) await textsOfAccount(c, String(signedIn));
    if (text) {
      await textsOfShop(c, 'shop').catch((error: unknown) => {
        // Once a minute at most: the alarm is for the grocer reading the log, not a line per refused shopper.
        if (Date.now() - lastAlarm > 60_000) {
          lastAlarm = Date.now();
          logError(new Error(`ALARM: the shop has sent ${limits.textsPerHour} code texts this hour, its limit; more are refused until the hour is over. Someone may be pumping texts: see docs/security.md.`));
        }
        throw error;
      });
    }
    const issued = await codes.issueCode(db, deps.jwtSecret, request);
    if (!issued.ok) {
      await textsToPhone.refund(network, request.phone);
      c.header('Retry-After', String(issued.retryAfterSeconds));
      throw new ApiError(429, 'too_many_requests', `A code was sent a moment ago. You can ask for a new one in ${waitText(issued.retryAfterSeconds)}.`);
    }
    await textsToPhone.failed(network, request.phone);
    if (text) sms.send({ to: request.phone, text: text(issued.code), variables: { otp: issued.code } }).catch(logError);
    return issued.challenge;
  }

  const codeSent = (phone: string, challenge: string, what: string): CodeSentDto => ({
    challenge,
    message: `We have sent a ${codes.CODE_DIGITS}-digit code to ${codes.maskedPhone(phone)}. ${what}`,
    phone: codes.maskedPhone(phone),
    resendAfterSeconds: codes.RESEND_SECONDS,
    codeMinutes: codes.CODE_MINUTES,
  });

  /** A sign-in code asked for (a shopper's here, a staff member's at /grocer/Authenticate): limits, the row, the text. */
  async function requestSignInCode(c: Context, request: Parameters<typeof codes.issueCode>[2], text: ((code: string) => string) | undefined): Promise<string> {
    await limitCodes.address(c);
    return sendCode(c, request, text);
  }

  /**
   * A code given back with its challenge: per address, and per number from this network; a number's ceiling of wrong
   * codes refuses only networks that have guessed wrong on it, so nobody can spend it and keep the owner out. The code
   * spent, or a wrong try counted and WRONG_CODE thrown; only failures count against an address and a number.
   */
  async function checkSignInCode(
    c: Context,
    { phone, code, challenge, purposes }: { phone: string; code: string; challenge: string; purposes: codes.UsedCode['purpose'][] },
  ): Promise<codes.UsedCode> {
    await limitVerify.address(c);
    await guessesOfPhone.attempt(c, clientNetwork(c), phone);
    const used = await codes.useCode(db, deps.jwtSecret, { phone, code, challenge, purposes });
    if (!used.ok) {
      await guessesOfPhone.failed(clientNetwork(c), phone);
      throw badRequest(WRONG_CODE);
    }
    await Promise.all([limitVerify.refundAddress(c), guessesOfPhone.refund(clientNetwork(c), phone)]);
    return used;
  }

  const signInText = (code: string) =>
    `${code} is your Kirana sign-in code. It works for ${codes.CODE_MINUTES} minutes. Never share it: Kirana will never ask for it.`;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/Register',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Open an account: a code is sent to the mobile number, and VerifyCode finishes it',
      description:
        'The same answer whether or not the email or the number already has an account: a new number gets a code that ' +
        'makes the account; a number with an account gets a sign-in code; an email with an account gets a mail saying ' +
        'someone tried to register with it.',
      request: body(RegisterSchema),
      responses: {
        202: json(CodeSentSchema, 'A code is on its way (VerifyCode with it)'),
        400: json(ErrorSchema, 'Bad input, or a common password'),
        429: json(ErrorSchema, 'Too many registrations, or a code was sent under 30 s ago; Retry-After says when to try again'),
        503: json(ErrorSchema, 'Password hashing is busy (a burst of sign-ins); Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      await limitRegister.address(c);
      // Counted per email from each network (every registration counts): one network cannot lock an email's owner out.
      await limitRegister.account(c, input.email.toLowerCase());
      await limitRegister.failed(c, input.email.toLowerCase());
      // Hashed whatever follows, so an existing account answers in the time a new one does.
      const passwordHash = await newPasswordHash(input.password);
      const [emailOwner, numberOwner] = await Promise.all([accounts.findUserByEmail(db, input.email), accounts.findUserByPhone(db, input.phone)]);
      // Only a verified number signs its account in by code (an account's unverified number may be someone else's).
      const phoneOwner = numberOwner?.phoneVerified ? numberOwner : undefined;
      // Always a 'register' code, so the 30 s wait is the same whether or not the number has an account; the code of a
      // number with one signs that account in. The registration is kept with this request's challenge alone: a code
      // finishes only the registration it was sent for, and a second registration for the number changes nothing.
      const challenge = await sendCode(
        c,
        phoneOwner
          ? { phone: input.phone, purpose: 'register', userId: phoneOwner.id }
          : { phone: input.phone, purpose: 'register', registration: { name: input.name, email: input.email, passwordHash } },
        phoneOwner
          ? (code) => `${code} is your Kirana sign-in code. Someone tried to open an account with this number; you already have one, and this code signs you in. Never share it.`
          : (code) => `${code} is your Kirana code to finish opening your account. It works for ${codes.CODE_MINUTES} minutes. Never share it.`,
      );
      if (emailOwner && emailOwner.id !== phoneOwner?.id) {
        mailer
          .send({
            to: emailOwner.email,
            subject: 'Someone tried to open a Kirana account with your email',
            text:
              `Hello ${emailOwner.name},\n\nSomeone tried to open a new Kirana account with this email address. You already have an account: ` +
              `sign in at ${new URL('/login', linkOrigin).href}, or choose a new password at ${new URL('/forgotpassword', linkOrigin).href}.\n\n` +
              `If it was not you, you need do nothing: no account was opened and your password stays as it is.\n`,
          })
          .catch(logError);
      }
      return c.json(codeSent(input.phone, challenge, 'Enter it to finish.'), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/RequestCode',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Send a sign-in code to a mobile number (sign in without a password)',
      description: 'The same answer whether or not the number has an account; only an account’s number gets a text.',
      request: body(RequestCodeSchema),
      responses: {
        202: json(CodeSentSchema, 'If the number has an account, a code is on its way'),
        400: json(ErrorSchema, 'Bad input'),
        429: json(ErrorSchema, 'Too many requests, or a code was sent under 30 s ago; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { phone } = c.req.valid('json');
      const numberOwner = await accounts.findUserByPhone(db, phone);
      // An unverified number may be someone else's (an account opened with another's email keeps the opener's number
      // until the email's owner resets the password): only a verified one signs its account in by code.
      const owner = numberOwner?.phoneVerified ? numberOwner : undefined;
      const challenge = await requestSignInCode(c, { phone, purpose: 'signin', userId: owner?.id }, owner ? signInText : undefined);
      return c.json(codeSent(phone, challenge, 'Enter it to sign in. No code? Check the number, or create an account.'), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/VerifyCode',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Sign in (or finish registering) with the code sent to the mobile number; the number is then verified',
      description: `A code works once, for ${codes.CODE_MINUTES} minutes and ${codes.CODE_TRIES} tries; it signs its owner in even while password sign-ins are locked.`,
      request: body(VerifyCodeSchema),
      responses: {
        200: json(SessionSchema, 'Signed in'),
        400: json(ErrorSchema, 'Bad input, or a wrong, used or expired code (the same answer for each)'),
        409: json(ErrorSchema, 'Registering: the email already has an account'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { phone, code, challenge } = c.req.valid('json');
      const used = await checkSignInCode(c, { phone, code, challenge, purposes: ['register', 'signin'] });
      if (used.purpose === 'register' && used.registration) {
        const { name, email, passwordHash } = used.registration;
        const user = await accounts.createUser(db, { name, email, phone, passwordHash, phoneVerified: true }).catch(rethrowTaken);
        return c.json(await startSession(user), 200);
      }
      // A sign-in code, or a registration's code for a number that already had an account: that account signs in.
      const user = used.userId !== null ? await accounts.findUser(db, used.userId) : undefined;
      if (!user?.phoneVerified || user.phone !== phone) throw badRequest(WRONG_CODE);
      return c.json(await startSession(user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/Login',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Sign in with an email or a mobile number',
      request: body(LoginSchema),
      responses: {
        200: json(SessionSchema, 'Signed in'),
        400: json(ErrorSchema, 'Bad input'),
        401: json(ErrorSchema, 'Wrong login or password (the same answer for both)'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
        503: json(ErrorSchema, 'Password hashing is busy (a burst of sign-ins); Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { login, password } = c.req.valid('json');
      await limitLogin.address(c);
      // A full hashing queue answers before the account is looked up: refused sign-ins by the hundred cost the pages
      // next to nothing, and the answer (a 503) is the same whoever is named.
      refuseWhenHashingBusy();
      const user = await accounts.findUserForLogin(db, login);
      // One bucket per account, whether named by email or phone; an unknown one by what was typed.
      const account = user ? `user:${user.id}` : `login:${login.includes('@') ? login.toLowerCase() : normalizeIndianMobile(login)}`;
      await limitLogin.account(c, account).catch((error: unknown) => {
        // A lock on the password never keeps the owner out: the code sent to their mobile still signs them in.
        if (error instanceof ApiError && error.status === 429) throw new ApiError(429, error.code, `${error.message} Or sign in with a code sent to your mobile number.`);
        throw error;
      });
      const matches = await verifyPassword(password, user?.passwordHash ?? (await dummy()));
      if (!user || !matches) {
        await limitLogin.failed(c, account);
        throw unauthorized(WRONG_LOGIN);
      }
      // Each sign-in costs a 128 MiB hash, so an account's successes count too; shoppers behind one carrier address
      // still sign in freely (the address counts only failures).
      await limitLogin.refundAddress(c);
      const { passwordHash: _, ...profile } = user;
      return c.json(await startSession(profile), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/RefreshToken',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Trade a refresh token (once) for a new access token and refresh token (SPEC §7)',
      description: 'A refresh token presented a second time ends its whole sign-in: every token issued from it stops working.',
      request: body(RefreshTokenSchema),
      responses: {
        200: json(SessionSchema, 'A new pair'),
        400: json(ErrorSchema, 'Bad input'),
        401: json(ErrorSchema, 'Unknown, used, revoked or expired refresh token'),
        429: json(ErrorSchema, 'Too many refreshes; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { refreshToken, expiredToken } = c.req.valid('json');
      await limitRefresh.address(c);
      const owner = await accounts.refreshTokenOwner(db, refreshToken);
      if (!owner) throw unauthorized(SESSION_ENDED);
      await limitRefresh.account(c, String(owner.userId));
      // The expired access token is optional; when sent it must be ours and the same shopper's.
      if (expiredToken) {
        const claims = await tokens.verifyIgnoringExpiry(expiredToken);
        if (claims?.userId !== owner.userId) throw unauthorized(SESSION_ENDED);
      }
      const used = await accounts.useRefreshToken(db, refreshToken);
      if (!used.ok) throw unauthorized(SESSION_ENDED);
      const user = await accounts.findUser(db, used.userId);
      if (!user) throw unauthorized(SESSION_ENDED);
      // Only failures count (guessed, used or revoked tokens): shoppers behind one carrier address refresh freely.
      await Promise.all([limitRefresh.refundAddress(c), limitRefresh.refundAccount(c, String(owner.userId))]);
      return c.json(await startSession(user, used.familyId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/Logout',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Sign out: the refresh token and every token of its sign-in stop working',
      request: body(LogoutSchema),
      responses: { 204: { description: 'Signed out (also when the token was unknown)' }, 400: json(ErrorSchema, 'Bad input') },
    }),
    async (c) => {
      const owner = await accounts.refreshTokenOwner(db, c.req.valid('json').refreshToken);
      if (owner) await accounts.revokeFamily(db, owner.familyId);
      return c.body(null, 204);
    },
  );

  async function mailResetLink(email: string) {
    const user = await accounts.findUserByEmail(db, email);
    if (!user) return;
    const token = await accounts.createPasswordReset(db, user.id);
    const link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, linkOrigin).href;
    await mailer.send({
      to: user.email,
      subject: 'Choose a new Kirana password',
      text: `Hello ${user.name},\n\nTo choose a new password for your Kirana account, open this link within ${RESET_TOKEN_MINUTES} minutes:\n\n${link}\n\nIf you did not ask for it, ignore this mail: your password stays as it is.\n`,
      link,
    });
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/ForgotPassword',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: `Mail a link to choose a new password (valid ${RESET_TOKEN_MINUTES} minutes); the same answer whether or not the email has an account`,
      request: body(ForgotPasswordSchema),
      responses: {
        202: json(MessageSchema, 'Accepted'),
        400: json(ErrorSchema, 'Bad input'),
        429: json(ErrorSchema, 'Too many requests; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      await limitForgot.address(c);
      await limitForgot.account(c, email.toLowerCase());
      await limitForgot.failed(c, email.toLowerCase());
      // After the answer, lookup and link alike: the answer's time is the same whether or not the email has an account.
      setImmediate(() => void mailResetLink(email).catch(logError));
      return c.json(
        { message: `If an account uses ${email}, we have sent it a link to choose a new password. The link works for ${RESET_TOKEN_MINUTES} minutes.` },
        202,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/ResetPassword',
      security: PUBLIC,
      tags: ['Accounts'],
      summary: 'Choose a new password with a mailed link (once); signs out every session',
      request: body(ResetPasswordSchema),
      responses: {
        200: json(MessageSchema, 'Password changed'),
        400: json(ErrorSchema, 'Bad input, a common password, or a used or expired link'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
        503: json(ErrorSchema, 'Password hashing is busy (a burst of sign-ins); Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { token, password } = c.req.valid('json');
      await limitReset.address(c);
      // The cheap checks first, the link used up, and only then the costly hash: a bad link never hashes.
      refuseCommon(password);
      const userId = await accounts.usePasswordReset(db, token);
      if (userId === undefined) throw badRequest('This link has expired or was already used. Please ask for a new one.');
      await accounts.setPasswordHash(db, userId, await hashPassword(password, passwordCost));
      // The link proved the email. If nobody had proved it before, the account's number is the registrant's, not
      // necessarily the email's owner's: it stops signing in by code until the owner verifies a number of their own.
      await accounts.markEmailVerified(db, userId);
      await accounts.revokeAllSessions(db, userId);
      return c.json({ message: 'Your password has been changed. Please sign in with it.' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Authenticate/ChangePassword',
      tags: ['Accounts'],
      summary: 'Change the password; every other session is signed out, this one gets new tokens',
      security: BEARER,
      request: body(ChangePasswordSchema),
      responses: {
        200: json(SessionSchema, 'Changed; the new tokens of this session'),
        400: json(ErrorSchema, 'Bad input, a wrong current password, or a common new password'),
        401: json(ErrorSchema, 'Not signed in'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
        503: json(ErrorSchema, 'Password hashing is busy (a burst of sign-ins); Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { currentPassword, newPassword } = c.req.valid('json');
      await limitChange.account(c, String(userId));
      refuseCommon(newPassword);
      const stored = await accounts.passwordHashOf(db, userId);
      if (!stored) throw unauthorized(SESSION_ENDED);
      // 400, not 401: the shopper is signed in and typed a wrong password; a 401 would look like an expired token.
      if (!(await verifyPassword(currentPassword, stored))) throw badRequest('The current password is not right');
      await accounts.setPasswordHash(db, userId, await newPasswordHash(newPassword));
      await accounts.revokeAllSessions(db, userId);
      const user = await accounts.findUser(db, userId);
      if (!user) throw unauthorized(SESSION_ENDED);
      return c.json(await startSession(user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Users/Me',
      tags: ['Accounts'],
      summary: "The signed-in shopper's profile",
      security: BEARER,
      responses: { 200: json(UserSchema, 'Profile'), 401: json(ErrorSchema, 'Not signed in') },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const user = await accounts.findUser(db, userId);
      if (!user) throw notFound('This account no longer exists');
      return c.json(user, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/app/Users/Me',
      tags: ['Accounts'],
      summary: 'Change the name and whether order notices are texted (smsNotices); a new mobile number is texted a code, and becomes the account’s when VerifyPhone gets it',
      description:
        'A new number is not saved until its code comes back: saved at once, anyone could claim a number, and its real ' +
        'owner signing in with a code would then be signed in to their account. The answer does not say whether another ' +
        'account has the number (then no text is sent).',
      security: BEARER,
      request: body(UpdateProfileSchema),
      responses: {
        200: json(ProfileSavedSchema, 'Saved; codeSent when the number changes'),
        400: json(ErrorSchema, 'Bad input'),
        401: json(ErrorSchema, 'Not signed in'),
        429: json(ErrorSchema, 'A code was sent to that number under 30 s ago, or too many; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { name, phone, smsNotices, pincode } = c.req.valid('json');
      if (pincode !== undefined) await accounts.setPincode(db, userId, pincode);
      const user = await accounts.updateName(db, userId, name, smsNotices);
      if (!user) throw notFound('This account no longer exists');
      if (phone === user.phone) return c.json({ ...user, codeSent: null }, 200);
      await limitCodes.address(c);
      const owner = await accounts.findUserByPhone(db, phone);
      // Counted per account too: a signed-in script changing its number again and again must not pump texts.
      const challenge = await sendCode(
        c,
        { phone, purpose: 'verify', userId },
        owner ? undefined : (code) => `${code} is your Kirana code to make this your account's number. It works for ${codes.CODE_MINUTES} minutes. Never share it.`,
        userId,
      );
      return c.json({ ...user, codeSent: codeSent(phone, challenge, 'Enter it to change your number.') }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Users/Me/PhoneCode',
      tags: ['Accounts'],
      summary: 'Send a code to the signed-in shopper’s mobile number, to verify it (needed before the first order)',
      security: BEARER,
      responses: {
        202: json(CodeSentSchema, 'A code is on its way (VerifyPhone with it)'),
        401: json(ErrorSchema, 'Not signed in'),
        429: json(ErrorSchema, 'Too many requests, or a code was sent under 30 s ago; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const user = await accounts.findUser(db, userId);
      if (!user) throw notFound('This account no longer exists');
      await limitCodes.address(c);
      const challenge = await sendCode(
        c,
        { phone: user.phone, purpose: 'verify', userId },
        (code) => `${code} is your Kirana code to verify this number. It works for ${codes.CODE_MINUTES} minutes. Never share it.`,
        userId,
      );
      return c.json(codeSent(user.phone, challenge, 'Enter it to verify your number.'), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Users/Me/VerifyPhone',
      tags: ['Accounts'],
      summary: 'Verify the signed-in shopper’s mobile number with the code sent to it',
      security: BEARER,
      request: body(VerifyPhoneSchema),
      responses: {
        200: json(UserSchema, 'Verified'),
        400: json(ErrorSchema, 'Bad input, or a wrong, used or expired code'),
        401: json(ErrorSchema, 'Not signed in'),
        429: json(ErrorSchema, 'Too many attempts; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { code } = c.req.valid('json');
      await limitVerify.address(c);
      // The account's newest code: to its own number, or to a new one it asked for (which then becomes its number). A
      // sign-in code for this account verifies its number too: either proves the shopper holds it.
      const used = await codes.useCode(db, deps.jwtSecret, { code, purposes: ['verify', 'signin'], userId });
      if (!used.ok) {
        // A wrong code for a number counts against it, whoever guessed (another account may be trying to claim it).
        if (used.phone) await guessesOfPhone.failed(clientNetwork(c), used.phone);
        throw badRequest(WRONG_CODE);
      }
      await limitVerify.refundAddress(c);
      const verified = await accounts.setVerifiedPhone(db, userId, used.phone).catch(rethrowTaken);
      if (!verified) throw notFound('This account no longer exists');
      return c.json(verified, 200);
    },
  );

  return { authenticate, signInCodes: { request: requestSignInCode, check: checkSignInCode, codeSent } };
}

/** The sign-in by texted code the shoppers' routes use, lent to the staff's (routes/staff-auth.ts): one set of limits. */
export type SignInCodes = ReturnType<typeof registerAuthRoutes>['signInCodes'];
