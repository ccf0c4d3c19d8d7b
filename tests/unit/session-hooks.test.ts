// The browser's ky session hooks (src/lib/api/session-hooks.ts): bearer token, refresh within 30 s, one shared
// refresh for concurrent 401s, one retry per request, malformed tokens as signed out. The API's side is played
// by a small in-test server function, since these rules are the client's own.
import ky, { isHTTPError } from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionRefreshUnavailable, withSession, type SessionStore } from '../../src/lib/api/session-hooks.ts';
import type { SessionDto } from '../../src/server/account-schemas.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A three-part token that expires `inSeconds` from now (the client never checks the signature). */
const tokenExpiringIn = (inSeconds: number, tag = 'a') =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ user_id: 7, exp: Math.floor(Date.now() / 1000) + inSeconds, tag })}.sig`;

function memoryStore(token: string | undefined, refreshToken: string | undefined = 'refresh-1') {
  const state: { token: string | undefined; refreshToken: string | undefined; cleared: number } = { token, refreshToken, cleared: 0 };
  const store: SessionStore = {
    token: () => state.token,
    refreshToken: () => state.refreshToken,
    save: (s: SessionDto) => {
      state.token = s.token;
      state.refreshToken = s.refreshToken;
    },
    clear: () => {
      state.token = undefined;
      state.refreshToken = undefined;
      state.cleared++;
    },
  };
  return { state, store };
}

interface Seen {
  path: string;
  auth: string | null;
  body: string;
}

/**
 * Plays the API: `valid` is the set of access tokens it accepts; RefreshToken hands out `fresh` once
 * (single use, like the real one) after `refreshDelayMs`.
 */
function fakeApi(options: { valid: Set<string>; fresh: string; refreshStatus?: number; refreshDelayMs?: number; acceptFresh?: boolean }) {
  const seen: Seen[] = [];
  let refreshes = 0;
  const fetch = async (input: Request) => {
    const path = new URL(input.url).pathname.replace('/api/', '');
    const body = input.method === 'GET' ? '' : await input.text();
    seen.push({ path, auth: input.headers.get('authorization'), body });
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (path === 'Authenticate/RefreshToken') {
      refreshes++;
      await new Promise((r) => setTimeout(r, options.refreshDelayMs ?? 5));
      if (options.refreshStatus) return json(options.refreshStatus, { error: { code: 'unauthorized', message: 'refused' } });
      if (refreshes > 1) return json(401, { error: { code: 'unauthorized', message: 'refresh token already used' } });
      if (options.acceptFresh !== false) options.valid.add(options.fresh);
      return json(200, { token: options.fresh, refreshToken: 'refresh-2', user: { id: 7, name: 'A', email: 'a@b.in', phone: '9876543210' } });
    }
    const token = input.headers.get('authorization')?.replace('Bearer ', '') ?? '';
    if (!options.valid.has(token)) return json(401, { error: { code: 'unauthorized', message: 'sign in again' } });
    return json(200, { ok: true, path, body });
  };
  return { fetch, seen, refreshCount: () => refreshes };
}

function client(store: SessionStore, fetch: (r: Request) => Promise<Response>) {
  const base = ky.create({ baseUrl: 'http://shop.test/api/', fetch: fetch as typeof globalThis.fetch, retry: { limit: 2, methods: ['get'] } });
  return withSession(base, store);
}

afterEach(() => vi.restoreAllMocks());

describe('session hooks', () => {
  it('sends the stored token as a bearer token', async () => {
    const token = tokenExpiringIn(600);
    const api = fakeApi({ valid: new Set([token]), fresh: 'unused' });
    const { store } = memoryStore(token);
    await client(store, api.fetch).get('app/Carts/GetTotalCart/7').json();
    expect(api.seen[0]?.auth).toBe(`Bearer ${token}`);
  });

  it('many concurrent 401s share ONE refresh, and each request is retried with the new token', async () => {
    const old = tokenExpiringIn(600, 'old');
    const fresh = tokenExpiringIn(900, 'new');
    const api = fakeApi({ valid: new Set(), fresh, refreshDelayMs: 30 });
    const { store, state } = memoryStore(old);
    const http = client(store, api.fetch);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => http.post('app/Carts', { json: { productsId: i + 1 } }).json<{ body: string }>()),
    );
    expect(api.refreshCount()).toBe(1);
    expect(state.token).toBe(fresh);
    expect(state.refreshToken).toBe('refresh-2');
    // Every POST body survived the retry.
    expect(answers.map((a) => JSON.parse(a.body).productsId).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const cartCalls = api.seen.filter((s) => s.path === 'app/Carts');
    expect(cartCalls).toHaveLength(16);
    expect(cartCalls.filter((s) => s.auth === `Bearer ${fresh}`)).toHaveLength(8);
  });

  it('a 401 met after another request already refreshed retries with the newer token, without a second refresh', async () => {
    const old = tokenExpiringIn(600, 'old');
    const fresh = tokenExpiringIn(900, 'new');
    const api = fakeApi({ valid: new Set(), fresh });
    const { store } = memoryStore(old);
    const http = client(store, api.fetch);
    await http.get('app/Users/Me').json();
    // This request's first try goes out with the old token, as one sent before the refresh would.
    api.seen.length = 0;
    const stale = new Headers({ authorization: `Bearer ${old}` });
    await http.get('app/Users/Me', { hooks: { beforeRequest: [({ request }) => void request.headers.set('authorization', stale.get('authorization')!)] } }).json();
    expect(api.refreshCount()).toBe(1);
    expect(api.seen.map((s) => s.auth)).toEqual([`Bearer ${old}`, `Bearer ${fresh}`]);
  });

  it('refreshes first when a cart call finds the token expiring within 30 seconds', async () => {
    const soon = tokenExpiringIn(20, 'soon');
    const fresh = tokenExpiringIn(900, 'new');
    const api = fakeApi({ valid: new Set([soon]), fresh });
    const { store, state } = memoryStore(soon);
    await client(store, api.fetch).post('app/Carts', { json: { productsId: 1 }, context: { fresh: true } }).json();
    expect(api.seen.map((s) => s.path)).toEqual(['Authenticate/RefreshToken', 'app/Carts']);
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ expiredToken: soon, refreshToken: 'refresh-1' });
    expect(api.seen[1]?.auth).toBe(`Bearer ${fresh}`);
    expect(state.token).toBe(fresh);
  });

  it('does not refresh a token with more than 30 seconds left, nor for calls that do not ask', async () => {
    const later = tokenExpiringIn(45);
    const soon = tokenExpiringIn(10, 'soon');
    const api = fakeApi({ valid: new Set([later, soon]), fresh: 'unused' });
    await client(memoryStore(later).store, api.fetch).get('app/Carts/GetTotalCart/7', { context: { fresh: true } }).json();
    await client(memoryStore(soon).store, api.fetch).get('app/Products/1').json();
    expect(api.refreshCount()).toBe(0);
  });

  it.each([
    ['two parts', 'aaa.bbb', 'JWT must have 3 parts'],
    ['no dots', 'not-a-token', 'JWT must have 3 parts'],
    ['three parts that are not JSON', 'a.b.c', 'Cannot decode the token'],
  ])('a malformed token (%s) counts as signed out: no bearer, the session cleared, the error logged', async (_, token, logged) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ valid: new Set(), fresh: 'unused' });
    const { store, state } = memoryStore(token);
    await expect(client(store, api.fetch).get('app/Carts/GetTotalCart/7').json()).rejects.toSatisfy(
      (e) => isHTTPError(e) && e.response.status === 401,
    );
    expect(api.seen.map((s) => s.auth)).toEqual([null]);
    expect(api.refreshCount()).toBe(0);
    expect(state.cleared).toBeGreaterThan(0);
    expect(state.token).toBeUndefined();
    expect(errors.mock.calls.some((c) => c[0] === logged)).toBe(true);
  });

  it('retries a request at most once: a second 401 goes back to the caller', async () => {
    const old = tokenExpiringIn(600, 'old');
    // The refresh succeeds, but the API still refuses the new token.
    const api = fakeApi({ valid: new Set(), fresh: tokenExpiringIn(900, 'new'), acceptFresh: false });
    const { store } = memoryStore(old);
    await expect(client(store, api.fetch).get('app/Users/Me').json()).rejects.toSatisfy((e) => isHTTPError(e) && e.response.status === 401);
    expect(api.seen.filter((s) => s.path === 'app/Users/Me')).toHaveLength(2);
    expect(api.refreshCount()).toBe(1);
  });

  it('a refused refresh ends the session and the caller gets the 401 (logged only, SPEC §8)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ valid: new Set(), fresh: 'unused', refreshStatus: 401 });
    const { store, state } = memoryStore(tokenExpiringIn(600));
    await expect(client(store, api.fetch).put('app/Carts/3', { json: { qty: 2 } }).json()).rejects.toSatisfy(
      (e) => isHTTPError(e) && e.response.status === 401,
    );
    expect(api.seen.filter((s) => s.path === 'app/Carts/3')).toHaveLength(1);
    expect(state.token).toBeUndefined();
    expect(errors.mock.calls.some((c) => c[0] === 'Cannot refresh token. Try again later...')).toBe(true);
  });

  it('a refused refresh is told (issue 24) once, before the session is cleared, however many calls met the 401', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ valid: new Set(), fresh: 'unused', refreshStatus: 401 });
    const { store, state } = memoryStore(tokenExpiringIn(600));
    const told: (string | undefined)[] = [];
    const base = ky.create({ baseUrl: 'http://shop.test/api/', fetch: api.fetch as typeof globalThis.fetch, retry: 0 });
    const http = withSession(base, store, { onRefused: () => told.push(state.token) });
    const calls = ['app/Users/Me', 'app/Carts/GetTotalCart/7'].map((path) => http.get(path).json());
    for (const call of calls) await expect(call).rejects.toSatisfy((e) => isHTTPError(e) && e.response.status === 401);
    expect(told).toHaveLength(1);
    expect(told[0]).toBeDefined(); // still signed in when told
    expect(state.cleared).toBe(1);
  });

  it('a refresh that fails for a while (503) says nothing: the session stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ valid: new Set(), fresh: 'unused', refreshStatus: 503 });
    const { store } = memoryStore(tokenExpiringIn(600));
    let told = 0;
    const base = ky.create({ baseUrl: 'http://shop.test/api/', fetch: api.fetch as typeof globalThis.fetch, retry: 0 });
    await expect(withSession(base, store, { onRefused: () => told++ }).get('app/Users/Me').json()).rejects.toBeInstanceOf(SessionRefreshUnavailable);
    expect(told).toBe(0);
  });

  it.each([429, 503])('a refresh answered %i keeps the session: the call fails, but not with a 401', async (refreshStatus) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const old = tokenExpiringIn(600, 'old');
    const api = fakeApi({ valid: new Set(), fresh: 'unused', refreshStatus });
    const { store, state } = memoryStore(old);
    const http = client(store, api.fetch);
    await expect(http.post('app/Carts', { json: { productsId: 1 } }).json()).rejects.toBeInstanceOf(SessionRefreshUnavailable);
    // Before the call, too (a token about to expire).
    state.token = tokenExpiringIn(10, 'soon');
    await expect(http.post('app/Carts', { json: { productsId: 1 }, context: { fresh: true } }).json()).rejects.toBeInstanceOf(SessionRefreshUnavailable);
    expect(state.cleared).toBe(0);
    expect(state.refreshToken).toBe('refresh-1');
  });

  it('a refresh that meets no network keeps the session too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = fakeApi({ valid: new Set(), fresh: 'unused' });
    const offline = async (request: Request) => {
      if (request.url.endsWith('/Authenticate/RefreshToken')) throw new TypeError('Failed to fetch');
      return api.fetch(request);
    };
    const { store, state } = memoryStore(tokenExpiringIn(600));
    await expect(client(store, offline).get('app/Users/Me').json()).rejects.toBeInstanceOf(SessionRefreshUnavailable);
    expect(state.cleared).toBe(0);
  });

  it('reads the store inside the refresh: a token another tab stored meanwhile is used, with no refresh', async () => {
    const old = tokenExpiringIn(600, 'old');
    const theirs = tokenExpiringIn(900, 'other-tab');
    const api = fakeApi({ valid: new Set([theirs]), fresh: 'unused' });
    const { store, state } = memoryStore(old);
    // The other tab's refresh lands while this request is out with the old token.
    const racing: SessionStore = { ...store, token: () => (api.seen.length > 0 ? theirs : state.token) };
    await client(racing, api.fetch).get('app/Users/Me').json();
    expect(api.refreshCount()).toBe(0);
    expect(api.seen.map((s) => s.auth)).toEqual([`Bearer ${old}`, `Bearer ${theirs}`]);
  });

  it("a sign-in call's 401 (wrong password) is an answer, not an expired token: no refresh", async () => {
    const api = fakeApi({ valid: new Set(), fresh: 'unused' });
    const { store } = memoryStore(tokenExpiringIn(600));
    await expect(
      client(store, api.fetch).post('Authenticate/Login', { json: { login: 'a@b.in', password: 'x' }, context: { credentials: true } }).json(),
    ).rejects.toSatisfy((e) => isHTTPError(e) && e.response.status === 401);
    expect(api.refreshCount()).toBe(0);
  });
});
