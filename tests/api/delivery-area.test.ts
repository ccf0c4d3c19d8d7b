// The serviceable area (issue 25): which PIN codes are served, with each group's fee, minimum order and slots; the
// server refuses an order outside it; the shopper's PIN kept in the account; slots start today when the cut-off allows.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressListDto, DeliveryAreaDto, OrderDto, SlotListDto } from '../../src/server/order-schemas.ts';
import type { ProfileSavedDto, UserDto } from '../../src/server/account-schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
const settings = readStoreSettings();
let productId: number;

beforeAll(async () => {
  api = await startTestApi({
    products: 20,
    store: {
      ...settings,
      offers: { ...settings.offers, freeDelivery: true },
      area: {
        groups: [
          { name: 'Central', pincodes: ['560001-560099', '560110'], minimumOrderRupees: 0 },
          { name: 'Far', pincodes: ['560100-560104'], deliveryFeeRupees: 40, minimumOrderRupees: 0 },
          { name: 'Big orders only', pincodes: ['560105-560109'], minimumOrderRupees: 100_000 },
          {
            name: 'Own slots',
            pincodes: ['560200'],
            minimumOrderRupees: 0,
            slots: { from: '10:00', to: '18:00', slotHours: 4, capacity: 5 },
          },
        ],
      },
    },
    // 09:00 in Kolkata on Monday 23 November 2026.
    now: () => new Date('2026-11-23T03:30:00Z'),
  });
  productId = (await plainProductIds(api.db))[0]!;
  await api.db.update(products).set({ stock: 100 }).where(eq(products.id, productId));
});
afterAll(async () => api?.close());

const area = async (pincode: string) => {
  const res = await api.call('GET', `/api/app/DeliveryArea/${pincode}`);
  expect(res.status).toBe(200);
  return (await res.json()) as DeliveryAreaDto;
};

describe('GET /api/app/DeliveryArea/{pincode}', () => {
  it('serves a PIN inside a range, with the shop’s fee and the next slot today at 9 a.m.', async () => {
    const answer = await area('560034');
    expect(answer).toMatchObject({ pincode: '560034', served: true, deliveryFeePaise: 0, minimumOrderPaise: 0, timeZone: 'Asia/Kolkata' });
    // 10:00 closes at 09:00 (60 minutes' cut-off); 12:00 is the first slot open, today.
    expect(answer.nextSlot).toMatchObject({ id: '2026-11-23T12:00', date: '2026-11-23', startsAt: '2026-11-23T06:30:00.000Z' });
  });

  it('serves a single code and both ends of a range; refuses just outside them', async () => {
    expect((await area('560001')).served).toBe(true);
    expect((await area('560099')).served).toBe(true);
    expect((await area('560110')).served).toBe(true);
    const outside = await area('560111');
    expect(outside).toMatchObject({ served: false, message: "We don't deliver to 560111 yet.", nextSlot: null, deliveryFeePaise: null });
  });

  it('refuses Delhi plainly', async () => {
    expect(await area('110024')).toMatchObject({ served: false, message: "We don't deliver to 110024 yet." });
    expect(await area('110017')).toMatchObject({ served: false });
  });

  it('answers a group’s own fee, minimum and slots', async () => {
    expect(await area('560102')).toMatchObject({ served: true, deliveryFeePaise: 4000, minimumOrderPaise: 0 });
    expect(await area('560105')).toMatchObject({ served: true, minimumOrderPaise: 10_000_000 });
    // Four-hour slots from 10:00: 10:00 is inside its cut-off at 9:00, so 14:00 today.
    expect((await area('560200')).nextSlot).toMatchObject({ id: '2026-11-23T14:00' });
  });

  it('is 400 with a JSON message for something that is not a PIN code', async () => {
    const res = await api.call('GET', '/api/app/DeliveryArea/12345');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/pincode must be 6 digits/);
  });
});

describe('slots start today when the cut-off allows', () => {
  it('lists today’s 12:00, 14:00 and 16:00 at 9 a.m., and 10:00 as closed', async () => {
    const s = await api.register();
    const list = (await (await api.call('GET', '/api/app/DeliverySlots', { token: s.token })).json()) as SlotListDto;
    const today = list.slots.filter((slot) => slot.date === '2026-11-23');
    expect(today.map((slot) => [slot.id, slot.unavailable])).toEqual([
      ['2026-11-23T10:00', 'closed'],
      ['2026-11-23T12:00', null],
      ['2026-11-23T14:00', null],
      ['2026-11-23T16:00', null],
    ]);
  });
});

async function shopperAt(pincode: string, qty = 1) {
  const s = await api.register();
  const saved = await api.call('POST', '/api/app/Addresses', {
    token: s.token,
    body: { name: 'Meera Iyer', phone: '9845012345', line1: '12, 3rd Cross', city: 'Bengaluru', state: 'Karnataka', pincode },
  });
  expect(saved.status).toBe(201);
  const { addresses } = (await saved.json()) as AddressListDto;
  const add = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, qty } });
  expect(add.status).toBe(201);
  return { ...s, address: addresses[0]! };
}

let keys = 0;
const order = (s: { token: string; address: { id: number } }, slotId = '2026-11-23T12:00') =>
  api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `area-order-${++keys}-key` },
    body: { addressId: s.address.id, slotId, paymentMethod: 'cash' },
  });

describe('the slots of a PIN’s group', () => {
  it('lists a group’s own slots for its PIN code, the shop’s for another, and refuses a bad one', async () => {
    const s = await api.register();
    const list = async (query: string) => {
      const res = await api.call('GET', `/api/app/DeliverySlots${query}`, { token: s.token });
      expect(res.status).toBe(200);
      return ((await res.json()) as SlotListDto).slots.filter((slot) => slot.date === '2026-11-23').map((slot) => slot.id);
    };
    expect(await list('?pincode=560200')).toEqual(['2026-11-23T10:00', '2026-11-23T14:00']);
    expect(await list('?pincode=560034')).toEqual(['2026-11-23T10:00', '2026-11-23T12:00', '2026-11-23T14:00', '2026-11-23T16:00']);
    expect(await list('')).toEqual(['2026-11-23T10:00', '2026-11-23T12:00', '2026-11-23T14:00', '2026-11-23T16:00']);
    const bad = await api.call('GET', '/api/app/DeliverySlots?pincode=abc', { token: s.token });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/pincode must be 6 digits/);
  });
});

describe('orders and the area', () => {
  it('keeps an address outside the area but says so, and refuses an order to it with 422', async () => {
    const s = await shopperAt('110024');
    expect(s.address).toMatchObject({ pincode: '110024', served: false });
    const res = await order(s);
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toEqual({
      code: 'unprocessable',
      message: "We don't deliver to 110024 yet. Please choose an address inside our delivery area.",
    });
  });

  it('places an order inside the area at the shop’s fee', async () => {
    const s = await shopperAt('560034');
    expect(s.address.served).toBe(true);
    const res = await order(s);
    expect(res.status).toBe(201);
    const placed = (await res.json()) as OrderDto;
    expect(placed.summary.deliveryPaise).toBe(0);
    expect(placed.address.pincode).toBe('560034');
  });

  it('charges a group’s own delivery fee, in paise, on the server', async () => {
    const s = await shopperAt('560103');
    const res = await order(s);
    expect(res.status).toBe(201);
    const { summary } = (await res.json()) as OrderDto;
    expect(summary.deliveryPaise).toBe(4000);
    expect(summary.totalPaise).toBe(summary.subtotalPaise - summary.discountPaise + 4000);
  });

  it('refuses an order under a group’s minimum, saying how much more', async () => {
    const s = await shopperAt('560106');
    const res = await order(s);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).message).toMatch(/^The smallest order we deliver to 560106 is ₹1,00,000(\.00)?; please add ₹[\d,.]+ more\.$/);
  });

  it('takes a group’s own slots, not the shop’s', async () => {
    const s = await shopperAt('560200');
    expect((await order(s, '2026-11-23T12:00')).status).toBe(409);
    expect((await order(s, '2026-11-23T14:00')).status).toBe(201);
  });
});

describe('an address’s type and delivery instructions', () => {
  it('are saved, listed, copied into the order, and refused past their limits with a clear message', async () => {
    const s = await api.register();
    const body = { name: 'Meera Iyer', phone: '9845012345', line1: '12, 3rd Cross', city: 'Bengaluru', state: 'Karnataka', pincode: '560041' };
    const saved = await api.call('POST', '/api/app/Addresses', { token: s.token, body: { ...body, addressType: 'work', instructions: 'Ring twice.\nLeave with the guard.' } });
    expect(saved.status).toBe(201);
    const [address] = ((await saved.json()) as AddressListDto).addresses;
    expect(address).toMatchObject({ addressType: 'work', instructions: 'Ring twice.\nLeave with the guard.', served: true });
    // Left out: a home with no instructions.
    const plain = (await (await api.call('POST', '/api/app/Addresses', { token: s.token, body })).json()) as AddressListDto;
    expect(plain.addresses.find((a) => a.id !== address!.id)).toMatchObject({ addressType: 'home', instructions: '' });

    const long = await api.call('POST', '/api/app/Addresses', { token: s.token, body: { ...body, instructions: 'x'.repeat(201) } });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).message).toBe('delivery instructions must be at most 200 characters');
    const line = await api.call('POST', '/api/app/Addresses', { token: s.token, body: { ...body, line1: 'x'.repeat(193) } });
    expect(line.status).toBe(400);
    expect((await errorOf(line)).message).toBe('address line 1 must be at most 120 characters');
    const type = await api.call('POST', '/api/app/Addresses', { token: s.token, body: { ...body, addressType: 'office' } });
    expect(type.status).toBe(400);
    expect((await errorOf(type)).message).toBe("address type must be 'home', 'work' or 'other'");

    expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, qty: 1 } })).status).toBe(201);
    const placed = await order({ token: s.token, address: address! });
    expect(placed.status).toBe(201);
    expect(((await placed.json()) as OrderDto).address).toMatchObject({ addressType: 'work', instructions: 'Ring twice.\nLeave with the guard.' });
  });
});

describe('the shopper’s PIN in the account', () => {
  it('is null at first, set and read through the profile, and refused when not a PIN code', async () => {
    const s = await api.register();
    const me = async () => (await (await api.call('GET', '/api/app/Users/Me', { token: s.token })).json()) as UserDto;
    expect((await me()).pincode).toBeNull();
    const saved = await api.call('PUT', '/api/app/Users/Me', { token: s.token, body: { name: s.user.name, phone: s.user.phone, pincode: '560034' } });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as ProfileSavedDto).pincode).toBe('560034');
    expect((await me()).pincode).toBe('560034');
    // Left out, it stays; a name change does not forget it.
    await api.call('PUT', '/api/app/Users/Me', { token: s.token, body: { name: 'Asha K', phone: s.user.phone } });
    expect((await me()).pincode).toBe('560034');
    const bad = await api.call('PUT', '/api/app/Users/Me', { token: s.token, body: { name: s.user.name, phone: s.user.phone, pincode: '0123' } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/pincode must be 6 digits/);
    await api.call('PUT', '/api/app/Users/Me', { token: s.token, body: { name: s.user.name, phone: s.user.phone, pincode: null } });
    expect((await me()).pincode).toBeNull();
  });
});
