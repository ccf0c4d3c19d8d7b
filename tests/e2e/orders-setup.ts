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

let keySerial = 0;

/**
 * Places the cart as an order in the first open slot the shopper has no order in yet (one order per slot and shopper,
 * store.yaml's limits); answers the HTTP status and the body (an Order on 201).
 */
export async function placeOrderByApi(request: APIRequestContext, token: string, addressId: number, paymentMethod: 'cash' | 'upi' = 'cash') {
  const res = await request.get('/api/app/DeliverySlots', { headers: bearer(token) });
  const open = ((await res.json()) as SlotListDto).slots.filter((s) => s.unavailable === null);
  for (const slot of open) {
    const placed = await request.post('/api/app/Orders', {
      headers: { ...bearer(token), 'Idempotency-Key': `e2e-${Date.now().toString(36)}-${++keySerial}` },
      data: { addressId, slotId: slot.id, paymentMethod },
    });
    const body = (await placed.json()) as { error?: { message: string } };
    if (placed.status() === 409 && body.error?.message.startsWith('You already have an order in that delivery slot')) continue;
    return { status: placed.status(), body: body as unknown };
  }
  throw new Error('no delivery slot can be chosen');
}

export async function placedOrder(request: APIRequestContext, token: string, addressId: number, paymentMethod: 'cash' | 'upi' = 'cash') {
  const { status, body } = await placeOrderByApi(request, token, addressId, paymentMethod);
  expect(status, JSON.stringify(body)).toBe(201);
  return body as OrderDto;
}

/**
 * Other shoppers buy every unit left of a plain product through the API, so it is out of stock for everyone (the e2e
 * shop's database cannot be touched from here): orders of the most one order may hold, then exactly what the 409 says
 * is left; a new shopper when one has as many open orders as a number may have.
 */
export async function buyUpStock(request: APIRequestContext, product: ApiProduct) {
  for (let shopper = 0; shopper < 5; shopper++) {
    const { session } = await registerByApi(request);
    const token = session.token;
    const addressId = await addAddressByApi(request, token);
    for (let attempt = 0; attempt < 5; attempt++) {
      const cart = await request.get('/api/app/Carts/GetCartsByUser/0', { headers: bearer(token) });
      const most = ((await cart.json()) as CartDto).lines[0]?.maxQty ?? 10;
      let added = await request.post('/api/app/Carts', { headers: bearer(token), data: { productsId: product.id, qty: most } });
      if (added.status() === 409) {
        // Fewer on the shelf than that: the cart says how many ('Only 3 left of …'); none left: done.
        const left = /^Only (\d+) left/.exec(((await added.json()) as { error: { message: string } }).error.message);
        if (!left) return;
        added = await request.post('/api/app/Carts', { headers: bearer(token), data: { productsId: product.id, qty: Number(left[1]) } });
      }
      expect(added.status(), await added.text()).toBe(201);
      let placed = await placeOrderByApi(request, token, addressId);
      const message = placed.status === 409 ? (placed.body as { error: { message: string } }).error.message : '';
      if (message.startsWith('You already have')) {
        // This number has as many open orders as it may: the next shopper takes over.
        await request.delete(`/api/app/Carts/${((await added.json()) as CartDto).lines[0]!.id}`, { headers: bearer(token) });
        break;
      }
      const fewer = /only (\d+) of/.exec(message);
      if (fewer) {
        const line = ((await added.json()) as CartDto).lines.find((l) => l.productsId === product.id)!;
        const lowered = await request.put(`/api/app/Carts/${line.id}`, { headers: bearer(token), data: { qty: Number(fewer[1]) } });
        expect(lowered.status(), await lowered.text()).toBe(200);
        placed = await placeOrderByApi(request, token, addressId);
      }
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    }
  }
  throw new Error(`could not buy up ${product.name}`);
}

/** axe's violations on the page as it is now (the personal pages are only whole once their island has loaded). */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}
