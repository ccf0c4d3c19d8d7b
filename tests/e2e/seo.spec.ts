import { expect, test, type Page } from '@playwright/test';

/** The page's JSON-LD block of the given @type. */
async function jsonLd<T>(page: Page, type: string): Promise<T> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  const found = texts.map((t) => JSON.parse(t) as { '@type': string }).find((d) => d['@type'] === type);
  if (!found) throw new Error(`no ${type} JSON-LD on ${page.url()}`);
  return found as unknown as T;
}

test('every catalogue page has a unique title, a description, a canonical URL and Open Graph tags', async ({ page, request }) => {
  const hot = (await (await request.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number; brandId: number; categoryId: string }[];
  const paths = [
    '/',
    '/shop?type=hot',
    `/shop?type=brand&id=${hot[0]!.brandId}`,
    `/shop?type=category&id=${hot[0]!.categoryId}`,
    '/search?name=rice',
    `/product-detail?id=${hot[0]!.id}`,
    `/product-detail?id=${hot[1]!.id}`,
    '/productsection',
    '/brands',
  ];
  const titles = new Set<string>();
  for (const path of paths) {
    await page.goto(path);
    const title = await page.title();
    expect(titles.has(title), `${path} repeats the title ${title}`).toBe(false);
    titles.add(title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{30,}/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /^http/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
  }
});

test('a product page has SEO data, Product JSON-LD with an INR Offer and a BreadcrumbList', async ({ page, request }) => {
  const hot = (await (await request.get('/api/app/Products/LoadProductsByPriorityTag')).json()) as { id: number; name: string; pricePaise: number }[];
  const product = hot[0]!;
  const seo = (await (await request.get(`/api/app/ProductSEOs/${product.id}`)).json()) as { metaTitle: string; metaDescription: string };
  await page.goto(`/product-detail?id=${product.id}`);
  await expect(page).toHaveTitle(seo.metaTitle.includes('Kirana') ? seo.metaTitle : `${seo.metaTitle} | Kirana`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', seo.metaDescription);
  const ld = await jsonLd<{ name: string; offers: { priceCurrency: string; price: string; availability: string } }>(page, 'Product');
  expect(ld.name).toBe(product.name);
  expect(ld.offers.priceCurrency).toBe('INR');
  expect(ld.offers.price).toBe((product.pricePaise / 100).toFixed(2));
  expect(ld.offers.availability).toMatch(/^https:\/\/schema.org\/(InStock|OutOfStock)$/);
  const crumbs = await jsonLd<{ itemListElement: { name: string }[] }>(page, 'BreadcrumbList');
  expect(crumbs.itemListElement.map((c) => c.name)).toEqual(['Home', 'Shop', product.name]);
  // Open Graph consumers want the image described too.
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^http.*\/api\/images\//);
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', product.name);
});

test('listings carry an ItemList of their products', async ({ page }) => {
  await page.goto('/shop?type=hot');
  const list = await jsonLd<{ itemListElement: { url: string }[] }>(page, 'ItemList');
  expect(list.itemListElement).toHaveLength(await page.getByTestId('product-card').count());
  expect(list.itemListElement[0]!.url).toMatch(/\/product-detail\?id=\d+$/);
});

test('the sitemap index names files listing every product, brand, category and content page, and robots.txt points to it', async ({
  request,
}) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  const locsIn = async (path: string) => {
    const answer = await request.get(path);
    expect(answer.status(), path).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/xml; charset=utf-8');
    return [...(await answer.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  };
  const files = await locsIn('/sitemap.xml');
  // 400 products: one file of them (src/lib/server/sitemap.ts), after the shop's other pages.
  expect(files.map((f) => new URL(f).pathname)).toEqual(['/sitemap-pages.xml', '/sitemap-products-1.xml']);
  const locs = (await Promise.all(files.map((f) => locsIn(new URL(f).pathname)))).flat();
  const products = locs.filter((l) => l.includes('/product-detail?id='));
  expect(products).toHaveLength(400);
  expect(new Set(products).size).toBe(400);
  expect((await request.get('/sitemap-products-2.xml')).status()).toBe(404);
  expect(locs.filter((l) => l.includes('type=brand'))).toHaveLength(
    ((await (await request.get('/api/app/Brands/LoadBrandsByPriority?take=100')).json()) as unknown[]).length,
  );
  expect(locs.filter((l) => l.includes('type=category'))).toHaveLength(30);
  for (const path of ['/about', '/contact', '/privacy-policy', '/terms', '/cancellation-policy', '/refund-policy']) {
    expect(locs.some((l) => l.endsWith(path)), path).toBe(true);
  }
});
