// How large a request body each route of the shop takes, in one place, each checked once: the API's by the API
// (src/server/app.ts, routes/grocer.ts, routes/after-delivery.ts), a page's form post by the shop's server before Astro
// reads it (src/http/shop-handler.ts).
import { MAX_ISSUE_PHOTO_BYTES } from '../lib/order-issues.ts';

/** Every write of the API is a small form. */
export const MAX_API_BODY_BYTES = 16 * 1024;
/** A page's form post (a review, a sign-in without JavaScript). */
export const MAX_PAGE_BODY_BYTES = 64 * 1024;
/** The largest picture a grocer may upload (phone photos are a few MB). */
export const MAX_IMPORT_PICTURE_BYTES = 25 * 1024 * 1024;
/** The largest import request: the CSV (50,000 rows is about 10 MB) and its file-name → picture map. */
export const MAX_IMPORT_BODY_BYTES = 32 * 1024 * 1024;

/** The grocer's import uploads (`npm run import` through the running shop), by path: they take more than a form. */
export const GROCER_UPLOAD_LIMITS: Readonly<Record<string, number>> = {
  '/api/grocer/Pictures': MAX_IMPORT_PICTURE_BYTES,
  '/api/grocer/Import': MAX_IMPORT_BODY_BYTES,
};

/** A shopper's photo of a delivered item (issue 25), sent by itself before the report that names it. */
export const SHOPPER_UPLOAD_LIMITS: Readonly<Record<string, number>> = {
  '/api/app/IssuePhotos': MAX_ISSUE_PHOTO_BYTES,
};

/** Whether a path sets its own body limit (an upload), so the API's small-form limit does not apply to it. */
export const isUploadPath = (pathname: string) => Object.hasOwn(GROCER_UPLOAD_LIMITS, pathname) || Object.hasOwn(SHOPPER_UPLOAD_LIMITS, pathname);

const isApiPath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

/** The body limit of a request path (without its query). */
export function bodyLimitOf(pathname: string): number {
  if (Object.hasOwn(GROCER_UPLOAD_LIMITS, pathname)) return GROCER_UPLOAD_LIMITS[pathname]!;
  if (Object.hasOwn(SHOPPER_UPLOAD_LIMITS, pathname)) return SHOPPER_UPLOAD_LIMITS[pathname]!;
  return isApiPath(pathname) ? MAX_API_BODY_BYTES : MAX_PAGE_BODY_BYTES;
}

/** A limit as the messages write it: '25 MB', '16 KB'. */
export function sizeText(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes / 1024} KB`;
}

/** The message of a 413: 'The request body must be at most 16 KB' (or 25 MB). */
export function tooLargeMessage(maxBytes: number): string {
  return `The request body must be at most ${sizeText(maxBytes)}`;
}
