// Typed checkout calls over the browser's ky instance (the contract: src/server/order-schemas.ts): the shopper's
// addresses, the delivery slots and placing an order. Each asks for a fresh token first (SPEC §4).
import type { KyInstance } from 'ky';
import type { AddressInput, AddressListDto, DeliveryAreaDto, OrderDto, PlaceOrderInput, SlotListDto } from '../../server/order-schemas.ts';
import type { SessionContext } from './session-hooks.ts';

const fresh: { context: SessionContext } = { context: { fresh: true } };

export function checkoutCalls(api: KyInstance) {
  return {
    /** `userId` 0 means "me"; the list is default first, then newest. */
    addresses: (userId: string) =>
      api.get(`app/Addresses/GetAddressesByUser/${encodeURIComponent(userId)}`, fresh).json<AddressListDto>(),
    addAddress: (input: AddressInput) => api.post('app/Addresses', { json: input, ...fresh }).json<AddressListDto>(),
    updateAddress: (id: number, input: AddressInput) => api.put(`app/Addresses/${id}`, { json: input, ...fresh }).json<AddressListDto>(),
    removeAddress: (id: number) => api.delete(`app/Addresses/${id}`, fresh).json<AddressListDto>(),
    makeDefault: (id: number) => api.put(`app/Addresses/${id}/Default`, fresh).json<AddressListDto>(),
    /** With the delivery address's PIN code: its group's slots when it has its own (issue 25). */
    slots: (pincode?: string) => api.get('app/DeliverySlots', { ...fresh, searchParams: pincode ? { pincode } : {} }).json<SlotListDto>(),
    /** Whether the shop delivers to a PIN code, with the fee, the minimum order and the next slot there. */
    deliveryArea: (pincode: string) => api.get(`app/DeliveryArea/${encodeURIComponent(pincode)}`).json<DeliveryAreaDto>(),
    /**
     * 201 with the new order, or 200 with the same order when `idempotencyKey` was already used for this body (a
     * retry or a reload). Never retried by ky (a POST): the key is what makes a retry safe.
     */
    placeOrder: (order: PlaceOrderInput, idempotencyKey: string) =>
      api.post('app/Orders', { json: order, headers: { 'Idempotency-Key': idempotencyKey }, ...fresh }).json<OrderDto>(),
  };
}
