import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDto, VariantDto } from '../../src/server/schemas.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

type Product = ProductDto;
type Variant = VariantDto;

let api: TestApi;
let hot: Product[];
beforeAll(async () => {
  api = await startTestApi();
  hot = (await (await api.get('/api/app/Products/LoadProductsByPriorityTag?pageSize=100')).json()) as Product[];
});
afterAll(async () => api?.close());

describe('GET /api/app/Products/LoadProductsByPriorityTag', () => {
  it('lists hot products, 24 a page by default, with a total count', async () => {
    const res = await api.get('/api/app/Products/LoadProductsByPriorityTag');
    expect(res.status).toBe(200);
    const page = (await res.json()) as Product[];
    expect(page.length).toBe(Math.min(24, hot.length));
    expect(Number(res.headers.get('x-total-count'))).toBe(hot.length);
    expect(page.every((p) => p.hot)).toBe(true);
  });

  it('answers 404 "No Products found" for a page past the end', async () => {
    const res = await api.get('/api/app/Products/LoadProductsByPriorityTag?pageNo=50');
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: 'not_found', message: 'No Products found' });
  });
});

describe('GET /api/app/Products/{id}', () => {
  it('returns the product with prices in rupees and paise, brand, category and images', async () => {
    const res = await api.get(`/api/app/Products/${hot[0]!.id}`);
    expect(res.status).toBe(200);
    const p = (await res.json()) as Product;
    expect(p.id).toBe(hot[0]!.id);
    expect(p.price).toBe(p.pricePaise / 100);
    expect(p.mrp).toBe(p.mrpPaise / 100);
    expect(p.brandName.length).toBeGreaterThan(0);
    expect(p.categoryId).toMatch(/^[a-z0-9-]+$/);
    expect(p.imageUrl).toBe(p.productImages[0]?.imageUrl ?? null);
  });

  it('gives variant products their variants, the first price equal to the product price', async () => {
    const all = await listAll();
    const variantProduct = all.find((p) => p.type !== 'normal' && p.productVariants.length > 1)!;
    expect(variantProduct).toBeDefined();
    const first = variantProduct.productVariants[0]!;
    expect(first.productVariantPrice?.salesPricePaise).toBe(variantProduct.pricePaise);
  });

  it('answers 404 for an unknown id and 400 for a non-numeric or zero id', async () => {
    const missing = await api.get('/api/app/Products/999999');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe('No product has id 999999');
    for (const bad of ['abc', '0', '-3', '1.5', '12345678901']) {
      const res = await api.get(`/api/app/Products/${bad}`);
      expect(res.status, bad).toBe(400);
      expect((await errorOf(res)).message).toBe('id must be a positive whole number');
    }
  });
});

describe('brand and category listings', () => {
  it('lists a brand\'s products, all of that brand', async () => {
    const brandId = hot[0]!.brandId;
    const res = await api.get(`/api/app/Products/LoadProductsByBrand/${brandId}`);
    expect(res.status).toBe(200);
    const products = (await res.json()) as Product[];
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.brandId === brandId)).toBe(true);
  });

  it('lists a category\'s products by its string id and pages them', async () => {
    const categoryId = hot[0]!.categoryId;
    const res = await api.get(`/api/app/Products/LoadProductsByCategory/${categoryId}?pageSize=1&pageNo=0`);
    expect(res.status).toBe(200);
    const total = Number(res.headers.get('x-total-count'));
    const [only] = (await res.json()) as Product[];
    expect(only!.categoryId).toBe(categoryId);
    const past = await api.get(`/api/app/Products/LoadProductsByCategory/${categoryId}?pageSize=1&pageNo=${total}`);
    expect(past.status).toBe(404);
    expect((await errorOf(past)).message).toBe('No Products found');
  });

  it('answers 404 for an unknown brand or category and 400 for a malformed one', async () => {
    expect((await api.get('/api/app/Products/LoadProductsByBrand/99999')).status).toBe(404);
    expect((await api.get('/api/app/Products/LoadProductsByCategory/no-such-aisle')).status).toBe(404);
    const bad = await api.get('/api/app/Products/LoadProductsByCategory/Not%20A%20Slug');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe('bad_request');
  });

  it('lists related products from the same category without the product itself', async () => {
    const all = await listAll();
    const product = all.find((p) => all.some((q) => q.id !== p.id && q.categoryId === p.categoryId))!;
    const res = await api.get(`/api/app/Products/LoadRelatedProducts/${product.id}`);
    expect(res.status).toBe(200);
    const related = (await res.json()) as Product[];
    expect(related.every((p) => p.categoryId === product.categoryId && p.id !== product.id)).toBe(true);
  });

  it('answers related products of an unknown product with a 404 that names it', async () => {
    const res = await api.get('/api/app/Products/LoadRelatedProducts/999999');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('No product has id 999999');
  });

  it('gives a product in a listing the same images and pack sizes as the product alone', async () => {
    const variantProduct = (await listAll()).find((p) => p.productVariants.length > 1)!;
    const alone = (await (await api.get(`/api/app/Products/${variantProduct.id}`)).json()) as Product;
    expect(alone.productImages).toEqual(variantProduct.productImages);
    expect(alone.productVariants).toEqual(variantProduct.productVariants);
    expect(alone.productVariants.every((v) => v.productsId === variantProduct.id)).toBe(true);
  });
});

describe('ProductSEOs, ProductVariants and ProductVariantPrices', () => {
  it('returns SEO data for a product', async () => {
    const res = await api.get(`/api/app/ProductSEOs/${hot[0]!.id}`);
    expect(res.status).toBe(200);
    const seo = (await res.json()) as { productsId: number; metaTitle: string; metaDescription: string };
    expect(seo.productsId).toBe(hot[0]!.id);
    expect(seo.metaTitle.length).toBeGreaterThan(5);
    expect(seo.metaDescription.length).toBeGreaterThan(20);
  });

  it('returns variants with prices, and only the priced ones from ProductVariantPrices', async () => {
    const all = await listAll();
    const variantProduct = all.find((p) => p.productVariants.length > 0)!;
    const variants = (await (await api.get(`/api/app/ProductVariants/${variantProduct.id}`)).json()) as Variant[];
    expect(variants.map((v) => v.id)).toEqual(variantProduct.productVariants.map((v) => v.id));
    const prices = (await (await api.get(`/api/app/ProductVariantPrices/${variantProduct.id}`)).json()) as {
      salesPrice: number;
      mrp: number;
    }[];
    expect(prices.length).toBe(variants.filter((v) => v.productVariantPrice).length);
    for (const price of prices) expect(price.salesPrice).toBeGreaterThan(0);
  });

  it('answers 404 for unknown products and [] for a product without variants', async () => {
    expect((await api.get('/api/app/ProductSEOs/999999')).status).toBe(404);
    expect((await api.get('/api/app/ProductVariants/999999')).status).toBe(404);
    expect((await api.get('/api/app/ProductVariantPrices/999999')).status).toBe(404);
    const all = await listAll();
    const simple = all.find((p) => p.type === 'normal')!;
    expect(await (await api.get(`/api/app/ProductVariants/${simple.id}`)).json()).toEqual([]);
  });
});

describe('images', () => {
  it('shows the seed\'s drawn pictures by their content address, and still answers the generated SVG URLs', async () => {
    const withImage = hot.find((p) => p.imageUrl)!;
    // Served by the image pipeline's route (src/server/routes/images.ts).
    expect(withImage.imageUrl).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
    const category = await api.get(`/api/images/categories/${withImage.categoryId}.svg`);
    expect(category.status).toBe(200);
    expect(category.headers.get('content-type')).toContain('image/svg+xml');
    expect((await api.get('/api/images/products/999999-1.svg')).status).toBe(404);
  });

  it('shows a picture of every product of the demo (issue 24: none shows the default image), and each pack its own', async () => {
    const all = await listAll();
    expect(all.filter((p) => p.imageUrl === null).map((p) => p.name)).toEqual([]);
    const packed = all.filter((p) => p.productVariants.length >= 2);
    expect(packed.length).toBeGreaterThan(0);
    for (const p of packed) {
      const urls = p.productVariants.map((v) => v.imageUrl);
      for (const url of urls) expect(url, p.name).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
      expect(new Set(urls).size, p.name).toBe(urls.length);
      expect(urls[0], p.name).toBe(p.imageUrl);
    }
    const variants = (await (await api.get(`/api/app/ProductVariants/${packed[0]!.id}`)).json()) as Variant[];
    expect(variants.map((v) => v.imageUrl)).toEqual(packed[0]!.productVariants.map((v) => v.imageUrl));
  });
});

/** Every product of the demo catalogue, read category by category (each product has one). */
describe('unit prices (₹/kg, ₹/l, ₹ per piece) in the product DTOs', () => {
  // The pack in a name or a pack size's name, e.g. 'Besan Ladoo 400 g' or '500 ml' (what the seed writes).
  const packOf = (text: string) => /(\d+(?:\.\d+)?) (g|kg|ml|l)(?: |$)/.exec(text);
  const perUnit = (paise: number, amount: string, unit: string) =>
    Math.round((paise * (unit === 'g' || unit === 'ml' ? 1000 : 1)) / Number(amount));

  it('gives a plain product with a weight or volume in its name the price of a kg or a litre', async () => {
    const plain = (await listAll()).filter((p) => p.productVariants.length === 0 && packOf(p.name) && !p.name.includes('Pack of'));
    expect(plain.length).toBeGreaterThan(10);
    for (const p of plain) {
      const [, amount, unit] = packOf(p.name)!;
      expect(p.unitPrice, p.name).toEqual({ paise: perUnit(p.pricePaise, amount!, unit!), per: unit!.startsWith('l') || unit === 'ml' ? 'l' : 'kg' });
    }
  });

  it('gives each priced pack size its own, and none to a pack without a price', async () => {
    const packs = (await listAll()).flatMap((p) => p.productVariants);
    const priced = packs.filter((v) => v.productVariantPrice);
    expect(priced.length).toBeGreaterThan(10);
    for (const v of priced) {
      const [, amount, unit] = packOf(v.name)!;
      expect(v.unitPrice, v.name).toEqual({
        paise: perUnit(v.productVariantPrice!.salesPricePaise, amount!, unit!),
        per: unit === 'ml' || unit === 'l' ? 'l' : 'kg',
      });
    }
    expect(packs.filter((v) => !v.productVariantPrice).every((v) => v.unitPrice === null)).toBe(true);
  });

  it('prices a pack of pieces per piece, and a product with no size has none', async () => {
    const all = await listAll();
    const pieces = all.find((p) => / \((\d+) pcs\)$/.test(p.name) && Number(/(\d+) pcs/.exec(p.name)![1]) > 1)!;
    const count = Number(/(\d+) pcs/.exec(pieces.name)![1]);
    expect(pieces.unitPrice).toEqual({ paise: Math.round(pieces.pricePaise / count), per: 'piece' });
    // (Whether the small test catalogue has one or not: tests/unit/unit-price.test.ts covers these.)
    const sizeless = all.filter((p) => p.productVariants.length === 0 && !packOf(p.name) && !/\d+ pcs/.test(p.name));
    expect(sizeless.map((p) => p.unitPrice)).toEqual(sizeless.map(() => null));
  });
});

async function listAll(): Promise<Product[]> {
  const categories = (await (await api.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as {
    id: string;
    count: number;
  }[];
  const all: Product[] = [];
  for (const c of categories.filter((c) => c.count > 0)) {
    const res = await api.get(`/api/app/Products/LoadProductsByCategory/${c.id}?pageSize=100`);
    all.push(...((await res.json()) as Product[]));
  }
  return all;
}
