// Pictures a shopper recognises (issue 24), in the browser: a pack size shows its own picture on the product page when
// it is chosen, in the cart and in the order; and a product without any picture (one a grocer imported without photos)
// still shows the default grocery image (SPEC §2), now that every demo product has its own. A shop of its own, seeded
// small, so one of its products can lose its pictures without touching the suite's shop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import { seedCatalogue } from '../../src/server/seed/index.ts';
import { addAddressByApi, bearer, placedOrder } from './orders-setup.ts';
import { registerByApi, useSession } from './session.ts';
import type { ApiProduct } from './helpers.ts';

let parent: string;
let shop: BuiltServer;
let bareId: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-e2e-shelf-pictures-'));
  const dataDir = path.join(parent, 'data');
  const handle = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await seedCatalogue(handle.db, { products: 40 });
    const [plain] = await handle.db
      .select({ id: schema.products.id })
      .from(schema.products)
      .where(eq(schema.products.type, 'normal'))
      .orderBy(schema.products.id)
      .limit(1);
    bareId = plain!.id;
    await handle.db.execute(sql`delete from product_images where product_id = ${bareId}`);
  } finally {
    await handle.close();
  }
  shop = await startBuiltServer({ env: { DATA_DIR: dataDir } });
});
test.afterAll(async () => {
  await shop?.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

/** The file of a picture's URL, the same in every width the API makes of it ('<sha256>.svg'). */
const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A product of the shop sold in two or more priced pack sizes on the shelf, each with its own picture. */
async function packedProduct(): Promise<ApiProduct> {
  const api = await playwrightRequest.newContext({ baseURL: shop.url });
  const hot = (await (await api.get('/api/app/Products/LoadProductsByPriorityTag?pageSize=100')).json()) as ApiProduct[];
  await api.dispose();
  const product = hot.find((p) => p.productVariants.filter((v) => v.productVariantPrice && v.inStock && v.imageUrl).length >= 2);
  if (!product) throw new Error('no hot product with two packs on the shelf');
  return product;
}

test('choosing a pack size shows that pack\'s own picture in the gallery', async ({ page }) => {
  const product = await packedProduct();
  const packs = product.productVariants.filter((v) => v.productVariantPrice && v.inStock);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shop.url}/product-detail?id=${product.id}`);
  const main = page.getByTestId('gallery-main');
  // The page opens at the first pack on the shelf, whose picture is the product's front.
  await expect(main).toHaveAttribute('src', new RegExp(`${fileOf(packs[0]!.imageUrl!)}$`));

  await page.getByTestId('product-detail').getByTestId('variant-select').selectOption(String(packs[1]!.id));
  await expect(main).toHaveAttribute('src', new RegExp(`${fileOf(packs[1]!.imageUrl!)}$`));
  await expect(main).toHaveAttribute('alt', `${product.name}, ${packs[1]!.name} pack`);
  // The picture of the pack is a picture, loaded in the gallery's widths.
  await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  expect(await main.getAttribute('srcset')).toContain(`/${fileOf(packs[1]!.imageUrl!)} `);

  // And back to the first pack: its picture again, its thumbnail marked.
  await page.getByTestId('product-detail').getByTestId('variant-select').selectOption(String(packs[0]!.id));
  await expect(main).toHaveAttribute('src', new RegExp(`${fileOf(packs[0]!.imageUrl!)}$`));
  const thumbs = page.locator('[data-gallery-thumb]');
  if ((await thumbs.count()) > 0) await expect(thumbs.first()).toHaveAttribute('aria-current', 'true');
});

test('a pack in the cart and in the order shows its own picture, not the first pack\'s', async ({ page }) => {
  const product = await packedProduct();
  const second = product.productVariants.filter((v) => v.productVariantPrice && v.inStock)[1]!;
  const api = await playwrightRequest.newContext({ baseURL: shop.url });
  const { session } = await registerByApi(api, shop.dataDir);
  const added = await api.post('/api/app/Carts', {
    headers: bearer(session.token),
    data: { productsId: product.id, productVariantsId: second.id, productVariantPriceId: second.productVariantPrice!.id, qty: 1 },
  });
  expect(added.status(), await added.text()).toBe(201);

  await useSession(page, session, shop.url);
  await page.goto(`${shop.url}/cart`);
  const line = page.getByTestId('cart-line').locator('img');
  await expect(line).toHaveAttribute('src', new RegExp(`${fileOf(second.imageUrl!)}$`));
  expect(fileOf(second.imageUrl!)).not.toBe(fileOf(product.imageUrl!));

  const order = await placedOrder(api, session.token, await addAddressByApi(api, session.token));
  await api.dispose();
  expect(order.lines.map((l) => l.imageUrl)).toEqual([second.imageUrl]);
});

test('a product without any picture shows the default grocery image on its page and its card', async ({ page }) => {
  await page.goto(`${shop.url}/product-detail?id=${bareId}`);
  await expect(page.getByTestId('gallery-main')).toHaveAttribute('src', '/images/default-grocery.svg');
  const api = await playwrightRequest.newContext({ baseURL: shop.url });
  const bare = (await (await api.get(`/api/app/Products/${bareId}`)).json()) as ApiProduct;
  await api.dispose();
  expect(bare.imageUrl).toBeNull();
  await page.goto(`${shop.url}/shop?type=category&id=${bare.categoryId}`);
  await expect(page.locator(`[data-product-id="${bareId}"] .image-link img`)).toHaveAttribute('src', '/images/default-grocery.svg');
});
