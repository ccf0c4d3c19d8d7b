// /api/openapi.json against Redocly's `recommended` rules: any error or warning fails, but for the two below.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
let doc: string;
beforeAll(async () => {
  api = await startTestApi({ products: 5 });
  doc = await (await api.get('/api/openapi.json')).text();
});
afterAll(() => api.close());

/**
 * Paths of SPEC §7 that Redocly calls ambiguous (a word where the other has a parameter), which no request is: each
 * pair differs in its method (GET the shopper's list, POST or PUT one item's action).
 */
const SPEC_PATH_PAIRS = [
  ['/api/app/Orders/GetOrdersByUser/{userId}', '/api/app/Orders/{id}/Cancel'],
  ['/api/app/Orders/GetOrdersByUser/{userId}', '/api/app/Orders/{id}/Reorder'],
  ['/api/app/Addresses/GetAddressesByUser/{userId}', '/api/app/Addresses/{id}/Default'],
  // Not SPEC §7's, but the same shape: reporting an issue with a delivered order's line (issue 25) is a POST.
  ['/api/app/Orders/GetOrdersByUser/{userId}', '/api/app/Orders/{id}/Issues'],
];

it("passes Redocly's recommended rules", async () => {
  const config = await createConfig({
    extends: ['recommended'],
    // The shop's owner has not chosen a licence for the API (package.json is private and names none).
    rules: { 'info-license': 'off', 'info-license-strict': 'off' },
  });
  const problems = await lintFromString({ source: doc, absoluteRef: 'openapi.json', config });
  const specPaths = SPEC_PATH_PAIRS.map(([a, b]) => `Found two ambiguous paths: \`${a}\` and \`${b}\`.`);
  const found = problems
    .filter((p) => !(p.ruleId === 'no-ambiguous-paths' && specPaths.some((m) => p.message.endsWith(m))))
    .map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
  expect(found).toEqual([]);
  // The exception above is for these pairs, and only while they stand.
  expect(problems.filter((p) => p.ruleId === 'no-ambiguous-paths')).toHaveLength(SPEC_PATH_PAIRS.length);
});

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, unknown>; requestBody?: { content: Record<string, unknown> } };

it('marks the calls that take no token public, and documents the answers given around the routes', async () => {
  const { paths } = JSON.parse(doc) as { paths: Record<string, Record<string, Operation>> };
  const op = (path: string, method: string) => paths[path]![method]!;
  expect(op('/api/app/Products/{id}', 'get')).toMatchObject({ operationId: 'getAppProductsById', security: [] });
  expect(op('/api/Authenticate/Login', 'post').security).toEqual([]);
  expect(op('/api/app/Carts/GetTotalCart/{userId}', 'get').security).toEqual([{ bearer: [] }]);
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const where = `${method} ${path}`;
      // The cross-site write check of src/middleware.ts refuses any write; the back office's door refuses a role (issue 34).
      if (method !== 'get' || path.startsWith('/api/grocer/')) expect(operation.responses, where).toHaveProperty('403');
      else expect(operation.responses, where).not.toHaveProperty('403');
      // @hono/zod-openapi refuses a JSON route's body sent as anything else; app.ts's onError answers it.
      if (operation.requestBody?.content['application/json']) expect(operation.responses, where).toHaveProperty('415');
    }
  }
});

// The 403 comes from the shop in front of the API: tests/server/methods-and-origin.test.ts sends it.
it('answers the 415 the document gives', async () => {
  const text = await api.call('POST', '/api/Authenticate/Login', { body: 'phone=98', headers: { 'content-type': 'text/plain' } });
  expect(text.status).toBe(415);
  expect(await text.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
});
