// Shared pieces of the routes' OpenAPI definitions.
import type { OpenAPIHono, z } from '@hono/zod-openapi';
import { MAX_API_BODY_BYTES, sizeText } from '../body-limits.ts';
import { ErrorSchema } from '../schemas.ts';

/** A JSON response of `schema`, as createRoute wants it. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A required JSON request body of `schema`, as createRoute wants it. */
export const jsonBody = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

/** OpenAPI: the routes anyone may call, with no token (Redocly's `security-defined`: every operation says which). */
export const PUBLIC: { [scheme: string]: string[] }[] = [];

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** `get /app/Products/{id}` → `getAppProductsById`: the method, then the path's words, so an id is read off its path. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      const word = (param ?? segment).replace(/[^A-Za-z0-9]/g, '');
      const pascal = word.charAt(0).toUpperCase() + word.slice(1);
      return param ? `By${pascal}` : pascal;
    });
  return method.toLowerCase() + words.join('');
}

/**
 * Fills in, once for every registered route, what every route shares: its operationId (unless it names one), and the
 * answers no route handler gives but the API does around it (each kept when the route documents its own):
 * - 403 on every write: the shop's CSRF check (src/lib/server/cross-site-writes.ts) refuses a form-like or empty
 *   body whose Origin is not the shop's, in the API's error shape;
 * - 413 and 415 on every JSON body: app.ts refuses a body over MAX_API_BODY_BYTES, and a body sent as anything but
 *   JSON is a 415 from @hono/zod-openapi's media type check, answered by app.ts's onError.
 * Call it after the routes are registered.
 */
export function describeSharedAnswers(app: OpenAPIHono): void {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    route.operationId ??= operationIdOf(route.method, route.path);
    const shared: Record<string, ReturnType<typeof json>> = {};
    if (WRITES.has(route.method)) {
      shared[403] = json(ErrorSchema, "A write from another site: a form-like or empty body without the shop's Origin (the shop's /api; `npm run api` alone has no such check)");
    }
    if (route.request?.body?.content['application/json']) {
      shared[413] = json(ErrorSchema, `A body over ${sizeText(MAX_API_BODY_BYTES)}`);
      shared[415] = json(ErrorSchema, 'A body that is not sent as application/json');
    }
    route.responses = { ...shared, ...route.responses };
  }
}
