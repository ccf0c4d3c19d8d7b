// The CSRF rule of src/middleware.ts (Astro's checkOrigin, which is off): which writes are refused, and how.
// tests/server/methods-and-origin.test.ts checks the same at the built server.
import { describe, expect, it } from 'vitest';
import { crossSiteWriteRefused, isCrossSiteWrite } from '../../src/lib/server/cross-site-writes.ts';

const SHOP = 'http://127.0.0.1:4321';
const request = (method: string, headers: Record<string, string> = {}) => new Request(`${SHOP}/api/app/Carts/1`, { method, headers });

describe('isCrossSiteWrite', () => {
  it.each([
    ['a body-less write without an Origin', request('DELETE')],
    ['a body-less write from another Origin', request('POST', { origin: 'https://evil.example' })],
    ['a form post from another site', request('POST', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' })],
    ['a multipart form from another site', request('PUT', { 'content-type': 'multipart/form-data; boundary=x' })],
    ['a text/plain post from another site', request('POST', { origin: 'null', 'content-type': 'Text/Plain;charset=UTF-8' })],
  ])('refuses %s', (_what, req) => expect(isCrossSiteWrite(req, SHOP)).toBe(true));

  it.each([
    ['a read', request('GET')],
    ['OPTIONS (a CORS preflight)', request('OPTIONS', { origin: 'https://evil.example' })],
    ['the shop’s own form post', request('POST', { origin: SHOP, 'content-type': 'application/x-www-form-urlencoded' })],
    ['the shop’s own body-less write', request('DELETE', { origin: SHOP })],
    ['a JSON body (no form can send one; a script from another site needs CORS)', request('POST', { 'content-type': 'application/json' })],
  ])('lets %s through', (_what, req) => expect(isCrossSiteWrite(req, SHOP)).toBe(false));
});

describe('crossSiteWriteRefused', () => {
  it('answers the API’s JSON error shape under /api', async () => {
    const answer = crossSiteWriteRefused(request('DELETE'), '/api/app/Carts/1');
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ error: { code: 'forbidden', message: expect.stringMatching(/DELETE.*Origin/) } });
  });

  it('answers pages as Astro did', async () => {
    const answer = crossSiteWriteRefused(request('POST'), '/product-detail');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toBe('Cross-site POST form submissions are forbidden');
    // '/apiary' is a page, not the API.
    expect(crossSiteWriteRefused(request('POST'), '/apiary').headers.get('content-type')).toMatch(/^text\/plain/);
  });
});
