// The address book over HTTP: field messages a shopper can act on, one default, a limit, nobody else's addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_LIMITS } from '../../src/lib/form-limits.ts';
import type { AddressDto, AddressInput, AddressListDto } from '../../src/server/order-schemas.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 5 });
});
afterAll(async () => api?.close());

const home = (overrides: Partial<AddressInput> = {}): AddressInput => ({
  name: 'Meera Iyer',
  phone: '98450 12345',
  line1: '12, 4th Cross, Jayanagar 4th Block',
  line2: 'Near the post office',
  landmark: '',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560011',
  ...overrides,
});

async function shopper() {
  const session = await api.register();
  const call = (method: string, path: string, body?: unknown) => api.call(method, path, { body, token: session.token });
  const list = async (res: Response, status = 200) => {
    expect(res.status, await res.clone().text()).toBe(status);
    return ((await res.json()) as AddressListDto).addresses;
  };
  return { session, call, list };
}

describe('validation', () => {
  const cases: Array<[string, Partial<AddressInput>, string]> = [
    ['a 9-digit phone', { phone: '984501234' }, 'phone must be a 10-digit Indian mobile number'],
    ['a 5-digit pincode', { pincode: '56001' }, 'pincode must be 6 digits and cannot start with 0'],
    ['a state not in the list', { state: 'Bengal' as AddressInput['state'] }, 'state must be one of the states or union territories of India'],
    ['an empty first line', { line1: '   ' }, 'address line 1 is required'],
    ['a one-letter city', { city: 'B' }, 'city must be at least 2 characters'],
    ['a missing city', { city: undefined }, 'city is required'],
  ];
  it.each(cases)('refuses %s with a message naming the field', async (_, overrides, message) => {
    const { call } = await shopper();
    const res = await call('POST', '/api/app/Addresses', home(overrides));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message });
  });

  it('keeps the mobile number as 10 digits, without +91, spaces or dashes', async () => {
    const { call, list } = await shopper();
    const [saved] = await list(await call('POST', '/api/app/Addresses', home({ phone: '+91 98450-12345' })), 201);
    expect(saved).toMatchObject({ phone: '9845012345', line2: 'Near the post office', landmark: '' });
  });

  it('answers 401 without a token', async () => {
    const res = await api.call('POST', '/api/app/Addresses', { body: home() });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');
  });
});

describe('the default', () => {
  it('makes the first address the default whatever isDefault says, and lists the default first, then newest', async () => {
    const { call, list } = await shopper();
    const [first] = await list(await call('POST', '/api/app/Addresses', home({ isDefault: false })), 201);
    expect(first!.isDefault).toBe(true);
    const afterSecond = await list(await call('POST', '/api/app/Addresses', home({ line1: 'Flat 2B, Lake View' })), 201);
    expect(afterSecond.map((a) => [a.line1, a.isDefault])).toEqual([
      [first!.line1, true],
      ['Flat 2B, Lake View', false],
    ]);
    const afterThird = await list(await call('POST', '/api/app/Addresses', home({ line1: 'Office, MG Road' })), 201);
    expect(afterThird.map((a) => a.line1)).toEqual([first!.line1, 'Office, MG Road', 'Flat 2B, Lake View']);
  });

  it('moves the default on create, on update and through /Default, keeping exactly one', async () => {
    const { call, list } = await shopper();
    await call('POST', '/api/app/Addresses', home({ line1: 'First house' }));
    const created = await list(await call('POST', '/api/app/Addresses', home({ line1: 'Second house', isDefault: true })), 201);
    expect(created.filter((a) => a.isDefault).map((a) => a.line1)).toEqual(['Second house']);
    const first = created.find((a) => a.line1 === 'First house')!;

    const updated = await list(await call('PUT', `/api/app/Addresses/${first.id}`, home({ line1: 'First house, renamed', isDefault: true })));
    expect(updated[0]).toMatchObject({ id: first.id, line1: 'First house, renamed', isDefault: true });
    expect(updated.filter((a) => a.isDefault)).toHaveLength(1);

    const second = updated.find((a) => a.line1 === 'Second house')!;
    const moved = await list(await call('PUT', `/api/app/Addresses/${second.id}/Default`));
    expect(moved.map((a) => [a.id, a.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
  });

  it('keeps the default when it is edited with isDefault false', async () => {
    const { call, list } = await shopper();
    const [only] = await list(await call('POST', '/api/app/Addresses', home()), 201);
    const [after] = await list(await call('PUT', `/api/app/Addresses/${only!.id}`, home({ city: 'Mysuru', isDefault: false })));
    expect(after).toMatchObject({ id: only!.id, city: 'Mysuru', isDefault: true });
  });

  it('makes the newest remaining address the default when the default is removed', async () => {
    const { call, list } = await shopper();
    const [oldest] = await list(await call('POST', '/api/app/Addresses', home({ line1: 'Oldest lane' })), 201);
    await call('POST', '/api/app/Addresses', home({ line1: 'Middle lane' }));
    await call('POST', '/api/app/Addresses', home({ line1: 'Newest lane' }));
    const after = await list(await call('DELETE', `/api/app/Addresses/${oldest!.id}`));
    expect(after.map((a) => [a.line1, a.isDefault])).toEqual([
      ['Newest lane', true],
      ['Middle lane', false],
    ]);
    const newest = after[0]!;
    const last = await list(await call('DELETE', `/api/app/Addresses/${newest.id}`));
    expect(last.map((a) => [a.line1, a.isDefault])).toEqual([['Middle lane', true]]);
    expect(await list(await call('DELETE', `/api/app/Addresses/${last[0]!.id}`))).toEqual([]);
  });
});

it(`keeps at most ${ADDRESS_LIMITS.perUser} addresses: the next one is 409 with a clear message`, async () => {
  const { call, list } = await shopper();
  for (let i = 1; i <= ADDRESS_LIMITS.perUser; i++) {
    await list(await call('POST', '/api/app/Addresses', home({ line1: `House number ${i}` })), 201);
  }
  const res = await call('POST', '/api/app/Addresses', home({ line1: 'One too many' }));
  expect(res.status).toBe(409);
  expect((await errorOf(res)).message).toMatch(/at most 10 addresses/);
  expect(await list(await call('GET', '/api/app/Addresses/GetAddressesByUser/0'))).toHaveLength(ADDRESS_LIMITS.perUser);
});

describe("another shopper's addresses", () => {
  let mine: Awaited<ReturnType<typeof shopper>>;
  let theirs: Awaited<ReturnType<typeof shopper>>;
  let their: AddressDto;
  beforeAll(async () => {
    mine = await shopper();
    theirs = await shopper();
    their = (await theirs.list(await theirs.call('POST', '/api/app/Addresses', home({ line1: 'Their house' })), 201))[0]!;
  });

  it.each([
    ['GET', 'list', () => `/api/app/Addresses/GetAddressesByUser/${theirs.session.user.id}`, undefined],
    ['PUT', 'change', () => `/api/app/Addresses/${their.id}`, home()],
    ['PUT', 'make default', () => `/api/app/Addresses/${their.id}/Default`, undefined],
    ['DELETE', 'remove', () => `/api/app/Addresses/${their.id}`, undefined],
  ] as const)('%s (%s) answers 404 and changes nothing', async (method, _, path, body) => {
    const res = await mine.call(method, path(), body);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
    const [still] = await theirs.list(await theirs.call('GET', '/api/app/Addresses/GetAddressesByUser/0'));
    expect(still).toEqual(their);
  });

  it('lists my own by my id as by 0', async () => {
    await mine.call('POST', '/api/app/Addresses', home({ line1: 'My house' }));
    const byId = await mine.list(await mine.call('GET', `/api/app/Addresses/GetAddressesByUser/${mine.session.user.id}`));
    expect(byId.map((a) => a.line1)).toEqual(['My house']);
  });
});

it('documents the address, wishlist and grocer calls in /api/openapi.json (the grocer ones apart, tagged Grocer)', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security?: unknown; tags?: string[] }>>;
  };
  for (const [path, method] of [
    ['/api/app/Addresses/GetAddressesByUser/{userId}', 'get'],
    ['/api/app/Addresses', 'post'],
    ['/api/app/Addresses/{id}', 'put'],
    ['/api/app/Addresses/{id}', 'delete'],
    ['/api/app/Addresses/{id}/Default', 'put'],
    ['/api/app/Wishlists/GetWishlistByUser/{userId}', 'get'],
    ['/api/app/Wishlists/ProductIds', 'get'],
    ['/api/app/Wishlists', 'post'],
    ['/api/app/Wishlists/{productId}', 'delete'],
  ] as const) {
    expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
  }
  for (const path of ['/api/grocer/Orders', '/api/grocer/Orders/{id}']) {
    expect(doc.paths[path]?.get).toMatchObject({ tags: ['Grocer'], security: [{ grocer: [] }, { staffSession: [] }] });
  }
});
