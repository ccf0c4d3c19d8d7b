// After delivery (issue 25), the shopper's side: upload a photo of a delivered item, report an issue with one line of
// a delivered order, and read the order's tax invoice. Another shopper's order is 404, as everywhere.
// The photo goes by itself first (its id is then named in the report): the report stays a small JSON body under the
// API's 16 KB limit and its one zod schema, while only the photo's fixed path takes a photo's size, a limit the shop's
// server can check before reading a byte (body-limits.ts); a report refused for its note keeps the uploaded photo.
// The photo is the shopper's alone (issue 32): served with their bearer token only (and to the grocer, grocer-issues.ts),
// 404 to anyone else, so that its id confirms nothing.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ISSUE_PHOTO_TYPES, MAX_ISSUE_PHOTO_BYTES } from '../../lib/order-issues.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import { IssuePhotoSchema, InvoiceSchema, ReportIssueSchema } from '../after-delivery-schemas.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import { sizeText, tooLargeMessage } from '../body-limits.ts';
import type { Database } from '../db/client.ts';
import { notFound, sendError } from '../errors.ts';
import { OrderIdParam, OrderSchema } from '../order-schemas.ts';
import { keyedLimiter, memoryLimiterStore, type LimiterStore, type WriteLimit } from '../rate-limit.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { invoiceOf } from '../services/invoice.ts';
import {
  ISSUE_PHOTO_BYTES_PER_ACCOUNT,
  ISSUE_PHOTO_MAX_SIDE,
  ISSUE_PHOTOS_PER_DAY,
  issuePhotoUrls,
  PhotoQuotaError, readIssuePhoto, saveIssuePhoto } from '../services/issue-photos.ts';
import { reportIssue } from '../services/order-issues.ts';
import { orderNotFound, orderOf } from '../services/orders.ts';
import { json, jsonBody } from './openapi.ts';

/** Photos one shopper may upload per window: a few per report, far below a script filling the database. */
export const DEFAULT_ISSUE_PHOTO_LIMIT: WriteLimit = { writes: 20, windowSeconds: 3600 };

const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'Not signed in'),
  404: json(ErrorSchema, 'No such order of yours (another shopper’s order is 404 too), or no such line in it'),
} as const;

export interface AfterDeliveryDeps {
  store: Pick<StoreSettingsData, 'offers' | 'delivery' | 'address' | 'invoice'>;
  /** The clock the return window is judged by (tests set it). */
  now: () => Date;
  photoLimit?: WriteLimit;
  limiters?: LimiterStore;
}

export function registerAfterDeliveryRoutes(
  app: OpenAPIHono,
  db: Database,
  authenticate: (c: Context) => Promise<AccessClaims>,
  { store, now, photoLimit = DEFAULT_ISSUE_PHOTO_LIMIT, limiters = memoryLimiterStore }: AfterDeliveryDeps,
) {
  const limitPhotos = keyedLimiter(photoLimit, 'photos', { store: limiters, name: 'issue-photos' });
  const rules = { delivery: store.delivery, offers: store.offers };

  app.use(
    '/app/IssuePhotos',
    bodyLimit({
      maxSize: MAX_ISSUE_PHOTO_BYTES,
      onError: (c) => sendError(c, 413, 'payload_too_large', tooLargeMessage(MAX_ISSUE_PHOTO_BYTES)),
    }),
  );
  // One shopper's: no browser, proxy or CDN may keep them (as app.ts does for the orders).
  for (const personal of ['/app/IssuePhotos', '/app/IssuePhotos/*', '/app/Invoices/*']) {
    app.use(personal, async (c, next) => {
      await next();
      c.res.headers.set('Cache-Control', 'private, no-store');
    });
  }

  const photoBody = { schema: z.string().openapi({ format: 'binary' }) };
  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/IssuePhotos',
      tags: ['Orders'],
      summary: `Upload a photo for an issue report (JPEG, PNG or WebP, at most ${sizeText(MAX_ISSUE_PHOTO_BYTES)}); name its photoId in the report`,
      description:
        'The body is the photo’s bytes. Its type is told by the bytes, not the header; an SVG or anything else is a 400. What is kept is ' +
        `a JPEG made from it: upright, at most ${ISSUE_PHOTO_MAX_SIDE} px, without EXIF or GPS. Each account may upload ` +
        `${ISSUE_PHOTOS_PER_DAY} photos a day and keep ${ISSUE_PHOTO_BYTES_PER_ACCOUNT / 1024 / 1024} MB; an upload no report names within a day is deleted.`,
      security: BEARER,
      request: {
        body: { content: Object.fromEntries(ISSUE_PHOTO_TYPES.map((type) => [type, photoBody])), required: true },
      },
      responses: {
        201: json(IssuePhotoSchema, 'Stored; served at photoUrl'),
        400: json(ErrorSchema, 'Empty, or not a JPEG, PNG or WebP photo'),
        401: errors[401],
        413: json(ErrorSchema, `Larger than ${sizeText(MAX_ISSUE_PHOTO_BYTES)}, or the account keeps all the photos it may`),
        429: json(ErrorSchema, 'Too many photos; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      await limitPhotos(c, String(userId));
      try {
        const photoId = await saveIssuePhoto(db, userId, new Uint8Array(await c.req.arrayBuffer()), now());
        return c.json({ photoId, photoUrl: issuePhotoUrls(photoId, 'shopper').photoUrl }, 201);
      } catch (error) {
        if (error instanceof PhotoQuotaError && error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  for (const size of ['photo', 'thumbnail'] as const) {
    app.openapi(
      createRoute({
        method: 'get',
        path: size === 'photo' ? '/app/IssuePhotos/{id}' : '/app/IssuePhotos/{id}/Thumbnail',
        tags: ['Orders'],
        summary: size === 'photo' ? 'One of your issue photos (a JPEG without metadata)' : 'One of your issue photos as a small square JPEG',
        description: 'Only with the bearer token of the shopper who uploaded it; anyone else’s photo (or none) is 404.',
        security: BEARER,
        request: { params: z.object({ id: positiveId('id') }) },
        responses: {
          200: { content: { 'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) } }, description: 'The photo' },
          401: errors[401],
          404: json(ErrorSchema, 'Not a photo of yours'),
        },
      }),
      async (c) => {
        const { userId } = await authenticate(c);
        const { id } = c.req.valid('param');
        const bytes = await readIssuePhoto(db, id, size, userId);
        if (!bytes) throw notFound(`You have no photo ${id}`);
        return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/jpeg', 'X-Content-Type-Options': 'nosniff' });
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Orders/{id}/Issues',
      tags: ['Orders'],
      summary: 'Report an issue with one line of a delivered order (missing, damaged, wrong item, quality), within the return window',
      description:
        `The window is store.yaml's offers.returnDays from the delivery. One report per line. Answers the order, whose line ` +
        'now carries the report (`lines[].issue`), open until the grocer settles it.',
      security: BEARER,
      request: { params: OrderIdParam, ...jsonBody(ReportIssueSchema) },
      responses: {
        201: json(OrderSchema, 'Reported'),
        ...errors,
        409: json(ErrorSchema, 'Not delivered, the return window closed ("Returns closed on 25 Dec"), or the line was already reported'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { id } = c.req.valid('param');
      await reportIssue(db, { returnDays: store.offers.returnDays, timeZone: store.delivery.timeZone, now }, userId, id, c.req.valid('json'));
      const order = await orderOf(db, rules, userId, id);
      if (!order) throw orderNotFound(id);
      return c.json(order, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Invoices/{id}',
      tags: ['Orders'],
      summary: 'The tax invoice of a delivered order ({id} is the order’s number): seller and GSTIN, customer, lines, discounts, delivery, totals, GST included',
      security: BEARER,
      request: { params: OrderIdParam },
      responses: { 200: json(InvoiceSchema, 'The invoice'), ...errors, 409: json(ErrorSchema, 'Not delivered yet') },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      return c.json(await invoiceOf(db, store, userId, c.req.valid('param').id), 200);
    },
  );
}
