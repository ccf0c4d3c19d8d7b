// ETag and If-None-Match for the reads a page polls (issue 25's live status): the open order page and Order Tracking
// ask every few seconds, and while nothing changed the answer is a bodiless 304. The tag is a digest of the answer's
// JSON, so it changes exactly when what the shopper sees does; the answers stay `no-store` (they are personal), and
// the page keeps the last body and sends the tag itself.
import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';

/** The request header a poll sends (OpenAPI). */
export const IfNoneMatchHeader = z.object({
  'if-none-match': z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { in: 'header' }, description: 'The ETag of the answer the page holds: 304 while it is still the answer', example: 'W/"3q2-7w"' }),
});

export const NOT_MODIFIED = { 304: { description: 'Not modified: the If-None-Match tag is still the answer (no body)' } } as const;

/** The ETag header of a 200 (OpenAPI). */
export const ETAG_HEADER = { ETag: { schema: { type: 'string' as const }, description: 'The answer’s tag, for If-None-Match' } };

/** A weak tag of a JSON body: the same JSON, the same tag. */
export function etagOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** True when the request's If-None-Match names this tag (a list of tags, or `*`, as HTTP allows). */
export function stillFresh(c: Context, etag: string): boolean {
  const given = c.req.header('if-none-match');
  if (!given) return false;
  return given.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t.replace(/^W\//, '') === etag.replace(/^W\//, '');
  });
}
