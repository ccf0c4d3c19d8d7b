// Messages from the contact page: validated, stored, and rate-limited per client address.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/client.ts';
import { contactMessages } from '../db/schema.ts';
import { memoryLimiterStore, writeLimiter, type LimiterStore, type WriteLimit } from '../rate-limit.ts';
import { ContactMessageReceiptSchema, ErrorSchema, NewContactMessageSchema } from '../schemas.ts';
import { json, PUBLIC } from './openapi.ts';

export const DEFAULT_CONTACT_LIMIT: WriteLimit = { writes: 5, windowSeconds: 600 };

export function registerContactRoutes(
  app: OpenAPIHono,
  db: Database,
  limit: WriteLimit = DEFAULT_CONTACT_LIMIT,
  limiters: LimiterStore = memoryLimiterStore,
) {
  const limitMessages = writeLimiter(limit, 'messages', { store: limiters, name: 'contact' });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/ContactMessages',
      security: PUBLIC,
      tags: ['Contact'],
      summary: `Send a message to the shop (at most ${limit.writes} per ${limit.windowSeconds / 60} minutes per address)`,
      request: { body: { content: { 'application/json': { schema: NewContactMessageSchema } }, required: true } },
      responses: {
        201: json(ContactMessageReceiptSchema, 'Received'),
        400: json(ErrorSchema, 'Bad input'),
        429: json(ErrorSchema, 'Too many messages; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const message = c.req.valid('json');
      await limitMessages(c);
      const [row] = await db
        .insert(contactMessages)
        .values({ name: message.name, email: message.email, phone: message.phone ?? null, message: message.message })
        .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
      if (!row) throw new Error('Contact message insert returned no row');
      return c.json({ id: row.id, receivedAt: row.createdAt.toISOString() }, 201);
    },
  );
}
