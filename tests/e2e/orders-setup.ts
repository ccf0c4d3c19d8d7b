// Orders set up over the real API (issue 11), for the browser tests of the order pages and the wishlist: a cart,
// an address, a slot and an order placed with an Idempotency-Key, as the checkout would.
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { AddressInput, AddressListDto, OrderDto, SlotListDto } from '../../src/server/order-schemas.ts';
import type { ApiProduct } from './helpers.ts';
import { registerByApi } from './session.ts';

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function addToCartByApi(request: APIRequestContext, token: string, product: ApiProduct, qty = 1): Promise<CartDto> {
  const pack = product.productVariants.find((v) => v.productVariantPrice && v.inStock);
  const res = await request.post('/api/app/Carts', {
    headers: bearer(token),
    data: {
      productsId: product.id,
      productVariantsId: product.type === 'normal' ? 0 : (pack?.id ?? 0),
      productVariantPriceId: product.type === 'normal' ? 0 : (pack?.productVariantPrice?.id ?? 0),
      qty,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CartDto;
}

export const HOME_ADDRESS = {
  name: 'Asha Rao',
  phone: '9876543210',
  line1: '12, 4th Cross, Malleshwaram',
  line2: '',
  landmark: 'Sampige Road',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560003',
  isDefault: true,
} satisfies AddressInput;

export async function addAddressByApi(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.post('/api/app/Addresses', { headers: bearer(token), data: HOME_ADDRESS });
  expect(res.status(), await res.text()).toBe(201);
  const { addresses } = (await res.json()) as AddressListDto;
  return addresses[0]!.id;
}

/** The first slot that can still be chosen. */
export async function openSlot(request: APIRequestContext, token: string) {
  const res = await request.get('/api/app/DeliverySlots', { headers: bearer(token) });
  expect(res.status(), await res.text()).toBe(200);
  const list = (await res.json()) as SlotListDto;
  const slot = list.slots.find((s) => s.unavailable === null);
  if (!slot) throw new Error('no delivery slot can be chosen');
  return { slot, timeZone: list.timeZone };
}

let keySerial = 0;

/** Places the cart as an order; answers the HTTP status and the body (an Order on 201). */
export async function placeOrderByApi(request: APIRequestContext, token: string, addressId: number, paymentMethod: 'cash' | 'upi' = 'cash') {
  const { slot } = await openSlot(request, token);
  const res = await request.post('/api/app/Orders', {
    headers: { ...bearer(token), 'Idempotency-Key': `e2e-${Date.now().toString(36)}-${++keySerial}` },
    data: { addressId, slotId: slot.id, paymentMethod },
  });
  return { status: res.status(), body: (await res.json()) as unknown };
}

export async function placedOrder(request: APIRequestContext, token: string, addressId: number, paymentMethod: 'cash' | 'upi' = 'cash') {
  const { status, body } = await placeOrderByApi(request, token, addressId, paymentMethod);
  expect(status, JSON.stringify(body)).toBe(201);
  return body as OrderDto;
}

/**
 * A second shopper buys every unit left of a plain product through the API, so it is out of stock for everyone (the
 * e2e shop's database cannot be touched from here): orders of 20 (the cart's most), then exactly what the 409 says
 * is left.
 */
export async function buyUpStock(request: APIRequestContext, product: ApiProduct) {
  const { session } = await registerByApi(request);
  const token = session.token;
  const addressId = await addAddressByApi(request, token);
  for (let attempt = 0; attempt < 10; attempt++) {
    const added = await request.post('/api/app/Carts', { headers: bearer(token), data: { productsId: product.id, qty: 20 } });
    if (added.status() === 409) return; // none left
    expect(added.status(), await added.text()).toBe(201);
    let placed = await placeOrderByApi(request, token, addressId);
    const fewer = placed.status === 409 ? /only (\d+) of/.exec((placed.body as { error: { message: string } }).error.message) : null;
    if (fewer) {
      const line = ((await added.json()) as CartDto).lines.find((l) => l.productsId === product.id)!;
      const lowered = await request.put(`/api/app/Carts/${line.id}`, { headers: bearer(token), data: { qty: Number(fewer[1]) } });
      expect(lowered.status(), await lowered.text()).toBe(200);
      placed = await placeOrderByApi(request, token, addressId);
    }
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  }
  throw new Error(`could not buy up ${product.name}`);
}

/** axe's violations on the page as it is now (the personal pages are only whole once their island has loaded). */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}
