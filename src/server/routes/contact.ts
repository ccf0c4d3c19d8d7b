// Messages from the contact page: validated, stored, and rate-limited per client address.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../db/client.ts';
import { contactMessages } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { ContactMessageReceiptSchema, ErrorSchema, NewContactMessageSchema } from '../schemas.ts';
import { json } from './openapi.ts';

/** Set by whatever embeds the API (the Astro route, the standalone server) from the socket's address. */
export const CLIENT_IP_HEADER = 'x-kirana-client-ip';

export interface ContactLimit {
  /** Messages one address may send per window. */
  messages: number;
  windowSeconds: number;
}

export const DEFAULT_CONTACT_LIMIT: ContactLimit = { messages: 5, windowSeconds: 600 };

export function registerContactRoutes(app: OpenAPIHono, db: Database, limit: ContactLimit = DEFAULT_CONTACT_LIMIT) {
  // In memory: one process. Several instances would share a limiter store (rate-limiter-flexible has a PostgreSQL one).
  const limiter = new RateLimiterMemory({ points: limit.messages, duration: limit.windowSeconds });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/ContactMessages',
      tags: ['Contact'],
      summary: `Send a message to the shop (at most ${limit.messages} per ${limit.windowSeconds / 60} minutes per address)`,
      request: { body: { content: { 'application/json': { schema: NewContactMessageSchema } }, required: true } },
      responses: {
        201: json(ContactMessageReceiptSchema, 'Received'),
        400: json(ErrorSchema, 'Bad input'),
        429: json(ErrorSchema, 'Too many messages; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const message = c.req.valid('json');
      const address = c.req.header(CLIENT_IP_HEADER) ?? 'unknown';
      try {
        await limiter.consume(address);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(seconds));
        throw new ApiError(429, 'too_many_requests', `Too many messages. Please try again in ${Math.ceil(seconds / 60)} minutes.`);
      }
      const [row] = await db
        .insert(contactMessages)
        .values({ name: message.name, email: message.email, phone: message.phone ?? null, message: message.message })
        .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
      if (!row) throw new Error('Contact message insert returned no row');
      return c.json({ id: row.id, receivedAt: row.createdAt.toISOString() }, 201);
    },
  );
}
