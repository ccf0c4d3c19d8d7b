// The Kirana API: a Hono app serving SPEC §7 under /api, embedded in the Astro server or run alone.
import os from 'node:os';
import path from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { Database } from './db/client.ts';
import { ApiError, errorBody, isDatabaseUnreachable, isWellEncoded, MALFORMED_URL_MESSAGE, sendError, UNAVAILABLE_RETRY_SECONDS } from './errors.ts';
import { registerCatalogueRoutes } from './routes/catalogue.ts';
import { bodyLimit } from 'hono/body-limit';
import { memoryLimiterStore, type LimiterStore, type WriteLimit } from './rate-limit.ts';
import { registerContactRoutes } from './routes/contact.ts';
import { registerImageRoutes } from './routes/images.ts';
import { registerReviewRoutes } from './routes/reviews.ts';
import { registerAuthRoutes, type AccountDeps } from './routes/auth.ts';
import { registerCartRoutes } from './routes/cart.ts';
import { registerOrderRoutes } from './routes/orders.ts';
import type { StoreSettingsData } from '../lib/store-settings-schema.ts';
import { logServerError } from '../lib/error-log.ts';
import { registerAddressRoutes } from './routes/addresses.ts';
import { registerDeliveryAreaRoutes } from './routes/delivery-area.ts';
import { registerWishlistRoutes } from './routes/wishlist.ts';
import { registerGrocerRoutes } from './routes/grocer.ts';
import { describeSharedAnswers } from './routes/openapi.ts';
import { catalogueReads, type CatalogueReads } from './catalogue-reads.ts';
import { inProcessBus, type InvalidationBus } from './cache/invalidation-bus.ts';
import { payNowRules } from './payments/provider.ts';
import { isUploadPath, MAX_API_BODY_BYTES, tooLargeMessage } from './body-limits.ts';
import { registerAfterDeliveryRoutes } from './routes/after-delivery.ts';
import { orderNotices, type OrderNotices } from './services/notices.ts';
import { registerStaffRoutes } from './routes/staff.ts';
import { checkGrocerRules } from './routes/grocer-access.ts';
import { STAFF_IDLE_SECONDS } from './services/staff.ts';
import { OWASP_SCRYPT } from './auth/passwords.ts';

export interface AppDeps {
  db: Database;
  /** Where unexpected errors are reported (each one once a minute, with a count); never sent to the client. */
  logError?: (error: unknown) => void;
  contactLimit?: WriteLimit;
  reviewLimit?: WriteLimit;
  /** Token secret, mailer, link origin and limits of the account and cart routes (src/server/auth/setup.ts). */
  accounts: AccountDeps;
  /** The offers and delivery rules (readStoreSettings(), once at start): the cart, the slots and the orders use them. */
  store: StoreSettingsData;
  /** The clock delivery slots are judged by; tests set it. */
  now?: () => Date;
  /** Orders one shopper may place per window. */
  orderLimit?: WriteLimit;
  /** The token of the grocer's routes (`npm run orders`); none: they answer 401. */
  grocerToken?: string;
  /** The catalogue's reads (catalogue-reads.ts), through the shop's read cache when it has one; none: every call reads. */
  catalogue?: CatalogueReads;
  /** Where a write announces what it made stale (src/server/cache/stale-after.ts), for every instance's caches. */
  stale?: InvalidationBus;
  /** Where the picture sizes are kept (settings.imageCacheDir); tests and tools that leave it out share one in the
   * system's temporary folder (the files are named by the original's SHA-256, so sharing is safe). */
  imageCacheDir?: string;
  /** Where the rate limits count: this process's memory unless given (with DATABASE_URL: limiterStoreFor, shared). */
  rateLimits?: LimiterStore;
  /** The mails and texts of an order's events (services/notices.ts); default: through the accounts' mailer and sender. */
  notices?: OrderNotices;
  /** A back-office session ends after this long without a call (default 12 h, issue 34). */
  staffIdleSeconds?: number;
}

export function createApp({
  db,
  logError = (e) => logServerError('[api]', e),
  contactLimit,
  reviewLimit,
  accounts,
  store,
  now = () => new Date(),
  orderLimit,
  grocerToken,
  catalogue,
  stale = inProcessBus(),
  imageCacheDir = path.join(os.tmpdir(), 'kirana-image-cache'),
  rateLimits = memoryLimiterStore,
  staffIdleSeconds = STAFF_IDLE_SECONDS,
  notices = orderNotices({ db, mailer: accounts.mailer, sms: accounts.sms, linkOrigin: accounts.linkOrigin, timeZone: store.delivery.timeZone, textsPerNumberPerHour: store.limits.orderTextsPerNumberPerHour }),
}: AppDeps) {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) {
        const issue = result.error.issues[0];
        const message = issue ? issue.message : 'Invalid input';
        return sendError(c, 400, 'bad_request', message);
      }
    },
  }).basePath('/api');

  // Hono reads a broken %-escape as it stands ('%zz'); refuse it as the bad input it is, before any route.
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    if (!isWellEncoded(url.pathname + url.search)) return sendError(c, 400, 'bad_request', MALFORMED_URL_MESSAGE);
    await next();
  });

  // Every write the API takes is a small form; refuse anything larger before reading it. The grocer's import uploads
  // set their own limits (routes/grocer.ts), after checking the grocer's token.
  const smallBody = bodyLimit({
    maxSize: MAX_API_BODY_BYTES,
    onError: (c) => sendError(c, 413, 'payload_too_large', tooLargeMessage(MAX_API_BODY_BYTES)),
  });
  app.use('*', (c, next) => (isUploadPath(c.req.path) ? next() : smallBody(c, next)));
  const reads = catalogue ?? catalogueReads(db, undefined)();
  registerCatalogueRoutes(app, reads);
  registerImageRoutes(app, db, { cacheDir: imageCacheDir, logError });
  registerContactRoutes(app, db, contactLimit, rateLimits);
  // Tokens, profiles and carts are one shopper's: no browser, proxy or CDN may keep them (errors included).
  for (const personal of [
    '/Authenticate/*',
    '/app/Users/*',
    '/app/Carts/*',
    '/Carts',
    '/app/Orders',
    '/app/Orders/*',
    '/app/DeliverySlots',
    '/app/Addresses/*',
    '/app/Wishlists/*',
    '/app/StockAlerts',
    '/grocer/*',
  ]) {
    app.use(personal, async (c, next) => {
      await next();
      c.res.headers.set('Cache-Control', 'no-store');
    });
  }
  const { authenticate, signInCodes } = registerAuthRoutes(app, db, accounts, logError, rateLimits);
  // A review may carry the shopper's token (issue 24), so its routes come after the sign-in's.
  registerReviewRoutes(app, db, reads, stale, authenticate, reviewLimit, rateLimits);
  registerCartRoutes(app, db, authenticate, { ...store, now });
  registerOrderRoutes(app, db, authenticate, { offers: store.offers, delivery: store.delivery, limits: store.limits, area: store.area, coupons: store.coupons, now, stale, notices, payNow: payNowRules(store) }, orderLimit, rateLimits);
  // Addresses, the wishlist and the grocer's routes (issue 11, GROCER).
  registerAddressRoutes(app, db, authenticate, store.area);
  registerDeliveryAreaRoutes(app, db, { area: store.area, offers: store.offers, delivery: store.delivery, now });
  registerWishlistRoutes(app, db, authenticate);
  // After delivery (issue 25): issue reports with their photos, and the invoice.
  registerAfterDeliveryRoutes(app, db, authenticate, { store, now, limiters: rateLimits });
  // The grocer's routes and the back office's (issue 34), behind one door: the grocer's token or a staff session, the
  // caller's role checked on every call (routes/grocer-access.ts), which refuses to start with a route it has no rule for.
  registerGrocerRoutes(app, db, { token: grocerToken, delivery: store.delivery, stale, notices, siteOrigin: accounts.linkOrigin, idleSeconds: staffIdleSeconds });
  registerStaffRoutes(app, db, {
    signInCodes,
    siteOrigin: accounts.linkOrigin,
    idleSeconds: staffIdleSeconds,
    passwordCost: accounts.passwordCost ?? OWASP_SCRYPT,
    limiters: rateLimits,
  });
  checkGrocerRules(app.routes);
  describeSharedAnswers(app);

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Kirana API',
      version: '1.0.0',
      description:
        'Catalogue, reviews, pictures, accounts, carts, delivery slots and orders of the Kirana grocery storefront. Errors are { error: { code, message } }. ' +
        'Account, cart and order calls take `Authorization: Bearer <token>` (an HS256 JWT valid 15 minutes; RefreshToken renews it).',
    },
    // The paths carry their /api, so the server is the origin that served this document (the shop or `npm run api`).
    servers: [{ url: '/', description: 'The shop, or `npm run api`, that served this document' }],
  });

  app.notFound((c) => sendError(c, 404, 'not_found', `No API route for ${c.req.method} ${c.req.path}`));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
      return sendError(c, error.status, error.code, error.message);
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's own client errors, e.g. a body that is not JSON.
      const message = error.status === 415 ? 'Content-Type must be application/json' : error.message || 'Bad request';
      return c.json(errorBody(error.status === 415 ? 'unsupported_media_type' : 'bad_request', message), error.status);
    }
    if (isDatabaseUnreachable(error)) {
      // Not a bug: the database is stopped or restarting. Every request tries it again, so the shop recovers by itself.
      const reason = error.cause instanceof Error ? error.cause.message : error.message; // not Drizzle's whole query
      console.error(`[kirana] ${c.req.method} ${c.req.path}: the database is out of reach (${reason})`);
      c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
      return sendError(c, 503, 'unavailable', 'The shop cannot reach its database right now. Please try again shortly.');
    }
    logError(error);
    return sendError(c, 500, 'internal', 'Something went wrong on our side. Please try again.');
  });

  return app;
}

export type KiranaApi = ReturnType<typeof createApp>;
