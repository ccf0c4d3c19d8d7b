// Typed calls after an order is placed: one order, the shopper's orders, cancel and order again (the contract:
// src/server/order-schemas.ts). Placing an order is the checkout's (src/lib/api/checkout.ts).
import type { KyInstance } from 'ky';
import type { OrderDto, OrderPageDto, ReorderResultDto } from '../../server/order-schemas.ts';
import type { SessionContext } from './session-hooks.ts';
import type { InvoiceDto, IssuePhotoDto, ReportIssueInput } from '../../server/after-delivery-schemas.ts';

const fresh: { context: SessionContext } = { context: { fresh: true } };

/** A poll's answer: the new body and its tag, or 'same' (a 304: what the page holds is still true). */
export type Polled<T> = { body: T; etag: string | null } | 'same';

/** A read with If-None-Match: the live status's polls (issue 25) cost no body while nothing changed. */
async function pollOf<T>(api: KyInstance, path: string, etag: string | null, searchParams?: Record<string, number>): Promise<Polled<T>> {
  const res = await api.get(path, {
    searchParams,
    headers: etag ? { 'if-none-match': etag } : {},
    throwHttpErrors: (status) => status !== 304,
    ...fresh,
  });
  if (res.status === 304) return 'same';
  return { body: (await res.json()) as T, etag: res.headers.get('etag') };
}

export function orderCalls(api: KyInstance) {
  return {
    /** Newest first; `pageNo` from 1. `userId` 0 or the shopper's own (another's answers 404). */
    list: (userId: string, pageNo: number) =>
      api
        .get(`app/Orders/GetOrdersByUser/${encodeURIComponent(userId)}`, { searchParams: { pageNo }, ...fresh })
        .json<OrderPageDto>(),
    one: (id: number) => api.get(`app/Orders/${id}`, fresh).json<OrderDto>(),
    /** The order again, unless it is still the one tagged `etag`. */
    pollOne: (id: number, etag: string | null) => pollOf<OrderDto>(api, `app/Orders/${id}`, etag),
    /** The page of orders again, unless it is still the one tagged `etag`. */
    pollList: (userId: string, pageNo: number, etag: string | null) =>
      pollOf<OrderPageDto>(api, `app/Orders/GetOrdersByUser/${encodeURIComponent(userId)}`, etag, { pageNo }),
    /** Only while it is not yet packed (else 409); answers the cancelled order. */
    cancel: (id: number) => api.post(`app/Orders/${id}/Cancel`, fresh).json<OrderDto>(),
    /** Its lines back in the cart at today's prices; says which could not be. */
    reorder: (id: number) => api.post(`app/Orders/${id}/Reorder`, fresh).json<ReorderResultDto>(),
    /** A photo for an issue report (issue 25), sent by itself: its photoId then goes in the report. */
    uploadIssuePhoto: (photo: Blob) =>
      api
        .post('app/IssuePhotos', { body: photo, headers: { 'content-type': photo.type || 'application/octet-stream' }, ...fresh })
        .json<IssuePhotoDto>(),
    /** One of the shopper's issue photos (a report's photoUrl or thumbnailUrl): only their token opens it (issue 32). */
    issuePhoto: (url: string) => api.get(url, fresh).blob(),
    /** Report an issue with a delivered line; answers the order, the line now carrying the report. */
    reportIssue: (id: number, report: ReportIssueInput) => api.post(`app/Orders/${id}/Issues`, { json: report, ...fresh }).json<OrderDto>(),
    /** The tax invoice of a delivered order (409 before it is delivered). */
    invoice: (id: number) => api.get(`app/Invoices/${id}`, fresh).json<InvoiceDto>(),
  };
}
