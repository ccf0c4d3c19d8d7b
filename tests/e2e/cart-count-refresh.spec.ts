// The header's cart badge asks for the cart once, also when the token is refreshed on the way (SPEC §4): the refresh
// saves the same shopper again, which is no reason for a second count (src/client/header-account.ts). The count comes
// with the whole cart (GetCartsByUser), which the steppers and the phone's cart bar need too (issue 24).
import { expect, test } from '@playwright/test';
import { allProducts } from './helpers.ts';
import { bearer } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';

test('one cart-count request after a token refresh, not two', async ({ page, request }) => {
  const product = (await allProducts(request)).find((p) => p.type === 'normal' && p.inStock);
  if (!product) throw new Error('the seed has no plain product in stock');
  const { session } = await registerByApi(request);
  const added = await request.post('/api/app/Carts', { headers: bearer(session.token), data: { productsId: product.id, qty: 2 } });
  expect(added.status(), await added.text()).toBe(201);
  await useSession(page, session);
  // The browser's clock 14 min 50 s on: the 15-minute access token is then about to expire, so the count call
  // refreshes it first (session-hooks.ts). The shop's clock is not moved, so the refresh is accepted.
  await page.clock.setFixedTime(Date.now() + (14 * 60 + 50) * 1000);
  const calls: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/api/Authenticate/RefreshToken') || /^\/api\/app\/Carts\/(GetTotalCart|GetCartsByUser)\//.test(pathname)) {
      calls.push(pathname.startsWith('/api/Authenticate/') ? 'refresh' : 'count');
    }
  });

  await page.goto('/about', { waitUntil: 'networkidle' });
  expect(calls).toEqual(['refresh', 'count']);
  // The refresh was real (a new refresh token is stored: the access token may be the same one when it is issued within
  // the same second), and the one count reached the badge.
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe(session.refreshToken);
  await expect(page.locator('[data-cart-link]').first()).toHaveAttribute('aria-label', 'Cart, 2 items');
});
