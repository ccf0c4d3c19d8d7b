// Shared pieces of the routes' OpenAPI definitions.
import type { z } from '@hono/zod-openapi';

/** A JSON response of `schema`, as createRoute wants it. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A required JSON request body of `schema`, as createRoute wants it. */
export const jsonBody = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });
