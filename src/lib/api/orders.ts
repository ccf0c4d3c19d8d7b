// Typed calls after an order is placed: one order, the shopper's orders, cancel and order again (the contract:
// src/server/order-schemas.ts). Placing an order is the checkout's (src/lib/api/checkout.ts).
import type { KyInstance } from 'ky';
import type { OrderDto, OrderPageDto, ReorderResultDto } from '../../server/order-schemas.ts';
import type { SessionContext } from './session-hooks.ts';

const fresh: { context: SessionContext } = { context: { fresh: true } };

export function orderCalls(api: KyInstance) {
  return {
    /** Newest first; `pageNo` from 1. `userId` 0 or the shopper's own (another's answers 404). */
    list: (userId: string, pageNo: number) =>
      api
        .get(`app/Orders/GetOrdersByUser/${encodeURIComponent(userId)}`, { searchParams: { pageNo }, ...fresh })
        .json<OrderPageDto>(),
    one: (id: number) => api.get(`app/Orders/${id}`, fresh).json<OrderDto>(),
    /** Only while it is not yet packed (else 409); answers the cancelled order. */
    cancel: (id: number) => api.post(`app/Orders/${id}/Cancel`, fresh).json<OrderDto>(),
    /** Its lines back in the cart at today's prices; says which could not be. */
    reorder: (id: number) => api.post(`app/Orders/${id}/Reorder`, fresh).json<ReorderResultDto>(),
  };
}
