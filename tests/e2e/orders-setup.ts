// Orders set up over the real API (issue 11), for the browser tests of the order pages and the wishlist: a cart,
// an address, a slot and an order placed with an Idempotency-Key, as the checkout would.
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { AddressInput, AddressListDto, OrderDto, SlotListDto } from '../../src/server/order-schemas.ts';
import type { ApiProduct } from './helpers.ts';

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
 * Another shopper buys every unit left of a plain product, so it is out of stock for everyone (the e2e shop's
 * database cannot be touched from here, and the API does not say how many are left: halve until one is too many).
 */
export async function buyUpStock(request: APIRequestContext, token: string, addressId: number, product: ApiProduct) {
  let qty = 20; // CART_LIMITS.maxQty
  let lineId: number | null = null;
  for (let attempt = 0; attempt < 40; attempt++) {
    // The line in the cart at `qty`: a new one after an order, else the same one lowered.
    const res: APIResponse = lineId === null
      ? await request.post('/api/app/Carts', { headers: bearer(token), data: { productsId: product.id, qty } })
      : await request.put(`/api/app/Carts/${lineId}`, { headers: bearer(token), data: { qty } });
    if (res.ok()) {
      lineId = ((await res.json()) as CartDto).lines.find((line) => line.productsId === product.id)!.id;
      const placed = await placeOrderByApi(request, token, addressId);
      if (placed.status === 201) {
        lineId = null;
        continue;
      }
      expect(placed.status, JSON.stringify(placed.body)).toBe(409); // fewer left than that
    } else {
      expect(res.status(), await res.text()).toBe(409);
    }
    if (qty === 1) return;
    qty = Math.max(1, Math.floor(qty / 2));
  }
  throw new Error(`could not buy up ${product.name}`);
}

/** axe's violations on the page as it is now (the personal pages are only whole once their island has loaded). */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}
