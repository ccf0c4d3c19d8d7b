// Input a hostile or careless visitor sends: ids, page numbers and addresses the API refuses, Astro's image
// endpoint, and reviews posted without JavaScript from several shoppers. Each gets the right page or the API's
// JSON error, never the 500 page.
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { allProducts } from './helpers.ts';

const port = Number(process.env.E2E_PORT ?? 4399);
const origin = `http://127.0.0.1:${port}`;

test.describe('ids and page numbers that name nothing', () => {
  for (const path of [
    '/shop?type=brand&id=0',
    '/shop?type=brand&id=00',
    '/shop?type=brand&id=1234567890',
    '/shop?type=category&id=UPPER',
    '/shop?type=hot&page=99999',
    '/shop?type=hot&page=0',
    '/shop?type=hot&page=abc',
    '/search?name=rice&page=99999',
  ]) {
    test(`${path} is 'No Products found', a 404 kept out of search engines`, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByTestId('no-products')).toHaveText('No Products found');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    });
  }

  for (const path of ['/product-detail?id=0', '/product-detail?id=00', '/product?id=-1']) {
    test(`${path} is 'Product not found', a 404`, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product not found');
    });
  }

  test('search text of control characters alone is the empty search page', async ({ page }) => {
    const res = await page.goto('/search?name=%00%01%1b');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
  });

  test('a home page of categories that cannot exist is a 404, not the 500 page', async ({ request }) => {
    const res = await request.get('/?categories=99999');
    expect(res.status()).toBe(404);
    expect(await res.text()).toContain('Popular Products');
  });
});

test.describe("Astro's image endpoint, unused by the shop", () => {
  for (const path of ['/_image?href=/favicon.svg&w=10&h=10&f=png', '/_image', '/_image?href=https://example.com/a.png']) {
    test(`${path} is the 404 page`, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    });
  }
});

test.describe('addresses with a broken %-escape', () => {
  for (const path of ['/api/app/Products/SearchProducts/%E0%A4', '/api/%zz', '/api/Reviews/1%']) {
    test(`${path} is the API's JSON 400`, async ({ request }) => {
      const res = await request.get(path);
      expect(res.status()).toBe(400);
      expect(res.headers()['content-type']).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        error: { code: 'bad_request', message: 'The address has a broken %-escape. Please check the link.' },
      });
    });
  }

  for (const path of ['/shop?type=%zz', '/search?name=%E0%A4', '/%zz', '/product-detail?id=1%']) {
    test(`${path} is the 400 page`, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(400);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This address is not valid');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    });
  }
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A POST from another loopback address, as a different shopper would send it (Linux answers all of 127/8). */
function postFrom(localAddress: string, path: string, body: string, contentType: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}${path}`,
      { method: 'POST', localAddress, headers: { 'Content-Type': contentType, Origin: origin } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test.describe('the review limit without JavaScript', () => {
  // Addresses no other test uses: their limits are this test's alone.
  const first = '127.0.0.3';
  const second = '127.0.0.4';

  test('is each shopper’s own, shared by the form and the API, and its 429 says when to try again', async ({ request }) => {
    const products = await allProducts(request);
    const product = products.at(-1)!;
    const path = `/product-detail?id=${product.id}`;
    const form = (name: string) => new URLSearchParams({ title: name, description: 'Fresh and well packed.', stars: '4' }).toString();
    const json = JSON.stringify({ title: 'Leela', description: 'Fresh and well packed.', stars: 4, productsId: product.id });
    const formType = 'application/x-www-form-urlencoded';

    // The API allows ten reviews per address in ten minutes.
    for (let i = 0; i < 10; i++) {
      const posted = await postFrom(first, path, form(`Asha ${i}`), formType);
      expect(posted.status, `review ${i + 1}`).toBe(303);
    }
    const limited = await postFrom(first, path, form('Asha 10'), formType);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(540);
    expect(limited.body).toContain('Too many reviews. Please try again in 10 minutes.');
    // The same shopper with JavaScript is limited too.
    expect((await postFrom(first, '/api/Reviews', json, 'application/json')).status).toBe(429);

    // Another shopper is not, on either path.
    expect((await postFrom(second, path, form('Bina'), formType)).status).toBe(303);
    expect((await postFrom(second, '/api/Reviews', json, 'application/json')).status).toBe(201);
  });
});
