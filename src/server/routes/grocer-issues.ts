// The grocer's side of the issue reports (issue 25), among the grocer routes (routes/grocer.ts registers these behind
// the door of /grocer/*: the grocer's token or a staff session, and the caller's role): every report, open ones first, its shopper's photo (issue 32), and
// settling one with a refund of the line's total or a replacement. `npm run orders -- issues` and `-- settle N` use them while the shop runs.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { GrocerIssueListSchema, GrocerIssueSchema, SettleIssueSchema } from '../after-delivery-schemas.ts';
import type { Database } from '../db/client.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { notFound } from '../errors.ts';
import { readIssuePhoto } from '../services/issue-photos.ts';
import { listIssues, settleIssue } from '../services/order-issues.ts';
import { json, jsonBody } from './openapi.ts';

const GROCER: { [scheme: string]: string[] }[] = [{ grocer: [] }, { staffSession: [] }];
const IssueIdParam = z.object({ id: positiveId('id') });
const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'No grocer token or staff session, or an ended one'),
  403: json(ErrorSchema, "The caller's role may not do this; a shopper's token; or a write from another site"),
} as const;

export function registerGrocerIssueRoutes(app: OpenAPIHono, db: Database, now: () => Date = () => new Date()) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Issues',
      tags: ['Grocer'],
      summary: 'The issues shoppers reported on delivered orders: open ones first (longest waiting first), then the settled',
      security: GROCER,
      responses: { 200: json(GrocerIssueListSchema, 'Every report'), ...errors },
    }),
    async (c) => c.json(await listIssues(db), 200),
  );

  for (const size of ['photo', 'thumbnail'] as const) {
    app.openapi(
      createRoute({
        method: 'get',
        path: size === 'photo' ? '/grocer/IssuePhotos/{id}' : '/grocer/IssuePhotos/{id}/Thumbnail',
        tags: ['Grocer'],
        summary: size === 'photo' ? 'A shopper’s issue photo (the photoUrl of the list)' : 'A shopper’s issue photo as a small square JPEG',
        security: GROCER,
        request: { params: IssueIdParam },
        responses: {
          200: { content: { 'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) } }, description: 'The photo' },
          ...errors,
          404: json(ErrorSchema, 'No such photo'),
        },
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        const bytes = await readIssuePhoto(db, id, size);
        if (!bytes) throw notFound(`There is no photo ${id}`);
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': 'image/jpeg',
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Issues/{id}/Settle',
      tags: ['Grocer'],
      summary: "Settle an open issue: 'refunded' (the line's total) or 'replaced', with a note the shopper reads",
      security: GROCER,
      request: { params: IssueIdParam, ...jsonBody(SettleIssueSchema) },
      responses: {
        200: json(GrocerIssueSchema, 'Settled'),
        ...errors,
        404: json(ErrorSchema, 'No such issue'),
        409: json(ErrorSchema, 'Already settled'),
      },
    }),
    async (c) => {
      const { outcome, note } = c.req.valid('json');
      return c.json(await settleIssue(db, c.req.valid('param').id, outcome, note, now), 200);
    },
  );
}
