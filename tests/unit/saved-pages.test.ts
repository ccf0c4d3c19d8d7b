// What the service worker may keep (issue 26): catalogue and content pages and pictures, never a page or an answer of
// a shopper's own (src/lib/saved-pages.ts).
import { describe, expect, it } from 'vitest';
import { formatSavedAt, isBackOffice, isKeepableAnswer, isKeptPage, isPicture } from '../../src/lib/saved-pages.ts';

const answer = (status: number, cacheControl: string | null, redirected = false) => ({
  status,
  redirected,
  headers: new Headers(cacheControl === null ? {} : { 'Cache-Control': cacheControl }),
});

describe('pages the worker keeps', () => {
  const content = ['/about', '/terms'];

  it('keeps catalogue pages and the build’s content pages', () => {
    for (const path of ['/', '/shop', '/search', '/product-detail', '/categories', '/brands', '/about', '/terms/']) {
      expect(isKeptPage(path, content), path).toBe(true);
    }
  });

  it('never keeps account, cart, checkout or order pages, nor the API, even when listed as content', () => {
    const own = ['/cart', '/checkout', '/myaccount', '/orderdetails', '/previous-order', '/OrderComplete', '/invoice', '/wishlist', '/login'];
    for (const path of [...own, '/api/app/Carts', '/offline', '/unknown']) {
      expect(isKeptPage(path, [...content, ...own, '/offline']), path).toBe(false);
    }
  });

  it('never keeps nor handles the back office or its API, even when listed as content (issue 34)', () => {
    const office = ['/manage', '/manage/', '/manage/sign-in', '/manage/orders/12', '/manage/pick-list', '/api/grocer/Orders', '/api/grocer'];
    for (const path of office) {
      expect(isBackOffice(path), path).toBe(true);
      expect(isKeptPage(path, [...content, ...office]), path).toBe(false);
    }
    for (const path of ['/', '/managers-special', '/api/app/Carts', '/about']) expect(isBackOffice(path), path).toBe(false);
  });

  it('takes pictures from /api/images and /images only', () => {
    expect(isPicture('/api/images/ab12.avif')).toBe(true);
    expect(isPicture('/images/default-grocery.svg')).toBe(true);
    expect(isPicture('/api/app/Carts')).toBe(false);
    expect(isPicture('/api/app/Products/LoadProductById/1')).toBe(false);
  });
});

describe('answers the worker keeps', () => {
  it('keeps a 200 the server lets be shared, or a pre-rendered page’s max-age=0', () => {
    expect(isKeepableAnswer(answer(200, 'public, max-age=60, stale-while-revalidate=600'))).toBe(true);
    expect(isKeepableAnswer(answer(200, 'public, max-age=0'))).toBe(true);
    expect(isKeepableAnswer(answer(200, null))).toBe(true);
  });

  it('never keeps a private or no-store answer, an error or a redirect (to the sign-in page)', () => {
    expect(isKeepableAnswer(answer(200, 'private, no-cache'))).toBe(false);
    expect(isKeepableAnswer(answer(200, 'no-store'))).toBe(false);
    expect(isKeepableAnswer(answer(200, 'Private'))).toBe(false);
    expect(isKeepableAnswer(answer(404, 'public, max-age=60'))).toBe(false);
    expect(isKeepableAnswer(answer(503, 'no-store'))).toBe(false);
    expect(isKeepableAnswer(answer(200, 'public, max-age=60', true))).toBe(false);
  });
});

it('says when a page was saved as an Indian reader reads it', () => {
  expect(formatSavedAt(new Date(2026, 10, 26, 13, 5).getTime())).toBe('26 Nov 2026, 1:05 pm');
});
