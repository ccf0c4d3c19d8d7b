import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, count, eq } from 'drizzle-orm';
import { openDatabase } from '../../src/server/db/client.ts';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import * as data from '../../src/server/seed/data.ts';
import { parseSeedArgs } from '../../src/server/seed/args.ts';
import { loadCategories } from '../../src/server/services/catalogue.ts';
import { drawFood, PICTURE_SIZE } from '../../src/server/seed/pictures/draw.ts';
import { storePictures } from '../../src/server/seed/pictures/index.ts';
import {
  CatalogueInUseError,
  brandsFor,
  isCatalogueEmpty,
  planCatalogue,
  resetCatalogue,
  seedCatalogue,
} from '../../src/server/seed/index.ts';

const TIMEOUT = 60_000;
const PRODUCTS = 60;

function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('seed data', () => {
  it('has 44+ distinct brands and exactly 30 categories with distinct, readable colours', () => {
    expect(data.brands.length).toBeGreaterThanOrEqual(44);
    expect(new Set(data.brands.map((b) => b.name)).size).toBe(data.brands.length);
    expect(data.categories).toHaveLength(30);
    expect(new Set(data.categories.map((c) => c.id)).size).toBe(30);
    expect(new Set(data.categories.map((c) => c.colour.toLowerCase())).size).toBe(30);
    for (const c of data.categories) {
      expect(c.colour).toMatch(/^#[0-9a-fA-F]{6}$/);
      const contrastWithWhite = 1.05 / (relativeLuminance(c.colour) + 0.05);
      expect(contrastWithWhite, `${c.id} ${c.colour}`).toBeGreaterThanOrEqual(4.5);
      expect(c.products.length).toBeGreaterThan(0);
    }
    const ids = new Set(data.categories.map((c) => c.id));
    for (const b of data.brands) for (const id of b.categories) expect(ids.has(id), `${b.name} -> ${id}`).toBe(true);
  });

  it('plans the same catalogue every time, with unique names', () => {
    const a = planCatalogue(400);
    const b = planCatalogue(400);
    expect(b).toEqual(a);
    expect(a.products).toHaveLength(400);
    expect(new Set(a.products.map((p) => p.name)).size).toBe(400);
    const variants = a.products.filter((p) => p.type === 'variant').length;
    expect(variants).toBeGreaterThan(400 / 4);
    expect(variants).toBeLessThan(400 / 2.5);
    const hot = a.products.filter((p) => p.priorityTag !== null);
    expect(hot).toHaveLength(30);
  });
});

describe('a catalogue of any size', () => {
  it('keeps the hand-written brands alone for the demo sizes', () => {
    expect(brandsFor(400)).toBe(data.brands);
    expect(brandsFor(1000)).toBe(data.brands);
    expect(planCatalogue(400).brands.map((b) => b.name)).toEqual(data.brands.map((b) => b.name));
  });

  it('invents brands in proportion for a large one: unique names, known categories, after the real ones', () => {
    const brands = brandsFor(50_000);
    expect(brands.length).toBe(1250);
    expect(brands.slice(0, data.brands.length)).toEqual(data.brands);
    expect(new Set(brands.map((b) => b.name)).size).toBe(brands.length);
    const ids = new Set(data.categories.map((c) => c.id));
    for (const b of brands.slice(data.brands.length)) {
      expect(b.categories.length).toBeGreaterThanOrEqual(2);
      for (const id of b.categories) expect(ids.has(id)).toBe(true);
      expect(b.name).not.toMatch(/\b(dal|rice|oil|atta|milk)\b/i);
    }
    const priorities = brands.map((b) => b.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
  });

  it(
    'plans 5,000 products the same way twice, with unique names, no value-pack repeats and every brand used',
    () => {
      const a = planCatalogue(5000);
      expect(planCatalogue(5000)).toEqual(a);
      expect(a.products).toHaveLength(5000);
      expect(new Set(a.products.map((p) => p.name)).size).toBe(5000);
      expect(a.products.filter((p) => p.name.includes('(Pack of'))).toHaveLength(0);
      expect(new Set(a.products.map((p) => p.brandName)).size).toBe(a.brands.length);
      const variants = a.products.filter((p) => p.type === 'variant').length;
      expect(variants).toBeGreaterThan(5000 / 4);
      expect(a.products.filter((p) => p.reviews.length > 0).length).toBeGreaterThan(5000 / 4);
    },
    TIMEOUT,
  );
});

describe('food type and product details of the demo (issue 24)', () => {
  const kindOf = new Map(data.categories.map((c) => [c.id, c.kind]));
  const MEAT_OR_FISH = /chicken|mutton|keema|fish|prawn|surmai|pomfret|rohu|seekh/i;

  it.each([400, 5000])('gives every food of %i products its FSSAI mark: meat and fish non-veg, eggs egg, household goods none', (count) => {
    const { products } = planCatalogue(count);
    for (const p of products) {
      const food = kindOf.get(p.categoryId) === 'food' || p.shortName === 'Ragi Porridge Mix';
      if (p.categoryId === 'pet-care' || !food) {
        expect(p.facts.foodType, p.name).toBeNull();
        expect(p.facts.fssaiLicence, p.name).toBeNull();
        continue;
      }
      expect(p.facts.foodType, p.name).not.toBeNull();
      if (MEAT_OR_FISH.test(p.name)) expect(p.facts.foodType, p.name).toBe('non_veg');
      else if (/\beggs\b/i.test(p.name)) expect(p.facts.foodType, p.name).toBe('egg');
      else if (!/fruit cake/i.test(p.name)) expect(p.facts.foodType, p.name).toBe('veg');
      expect(p.facts.fssaiLicence, p.name).toMatch(/^\d{14}$/);
    }
    // The demo has all three marks, and the keema the issue found first on the home page is brown.
    expect(new Set(products.map((p) => p.facts.foodType))).toEqual(new Set(['veg', 'non_veg', 'egg', null]));
    for (const keema of products.filter((p) => /keema/i.test(p.name))) expect(keema.facts.foodType).toBe('non_veg');
  });

  it('gives each product a plausible maker, origin, shelf life and net quantity, the same for a brand every time', () => {
    const { products } = planCatalogue(400);
    const licenceOf = new Map<string, string>();
    for (const p of products) {
      // The brand's company, then an Indian address ending in a six-digit pincode and a state.
      const brand = p.brandName.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      expect(p.facts.manufacturer, p.name).toMatch(new RegExp(`^${brand} Pvt\\. Ltd\\., .+ \\d{6}, [A-Z][a-z]+( [A-Z][a-z]+)*$`));
      expect(p.facts.countryOfOrigin, p.name).toBeTruthy();
      if (p.facts.fssaiLicence) {
        expect(licenceOf.get(p.brandName) ?? p.facts.fssaiLicence, p.brandName).toBe(p.facts.fssaiLicence);
        licenceOf.set(p.brandName, p.facts.fssaiLicence);
      }
      // A product sold in pack sizes has its packs' names; a plain one its pack, as its name ends.
      if (p.type === 'variant') expect(p.facts.netQuantity, p.name).toBeNull();
      else if (p.facts.netQuantity && /\d+(\.\d+)? (g|kg|ml|l)$/.test(p.name)) expect(p.name.endsWith(` ${p.facts.netQuantity}`), p.name).toBe(true);
    }
    expect(products.filter((p) => p.facts.countryOfOrigin === 'India').length).toBeGreaterThan(products.length * 0.9);
    expect(products.filter((p) => p.facts.shelfLife !== null).length).toBeGreaterThan(products.length * 0.9);
    expect(products.filter((p) => p.type === 'normal' && p.facts.netQuantity !== null).length).toBeGreaterThan(
      products.filter((p) => p.type === 'normal').length * 0.8,
    );
    // Brands of different makers have different licences.
    expect(new Set(licenceOf.values()).size).toBe(licenceOf.size);
  });
});

describe('npm run seed arguments', () => {
  it('reads --reset, --force and --products N (or =N)', () => {
    expect(parseSeedArgs([])).toEqual({ reset: false, force: false, products: undefined });
    expect(parseSeedArgs(['--reset', '--products', '50000'])).toEqual({ reset: true, force: false, products: 50000 });
    expect(parseSeedArgs(['--products=120', '--reset', '--force'])).toEqual({ reset: true, force: true, products: 120 });
  });

  it('refuses what it does not understand, with the usage', () => {
    expect(() => parseSeedArgs(['--products', 'lots'])).toThrow(/--products needs a whole number/);
    expect(() => parseSeedArgs(['--products'])).toThrow(/not nothing/);
    expect(() => parseSeedArgs(['--products', '0'])).toThrow(/from 1 to/);
    expect(() => parseSeedArgs(['--force'])).toThrow(/--force only goes with --reset/);
    expect(() => parseSeedArgs(['--rest'])).toThrow(/Unknown argument --rest \(usage: npm run seed/);
  });
});

describe('seedCatalogue on PGlite', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ kind: 'pglite' });
  }, TIMEOUT);

  afterAll(async () => {
    await handle?.close();
  }, TIMEOUT);

  it(
    'fills an empty catalogue',
    async () => {
      const { db } = handle;
      expect(await isCatalogueEmpty(db)).toBe(true);
      const messages: string[] = [];
      const summary = await seedCatalogue(db, { products: PRODUCTS, log: (m) => messages.push(m) });
      expect(await isCatalogueEmpty(db)).toBe(false);
      expect(messages.length).toBeGreaterThan(0);

      const brands = await db.select().from(schema.brands);
      const categories = await db.select().from(schema.categories);
      const products = await db.select().from(schema.products);
      expect(brands.length).toBeGreaterThanOrEqual(40);
      expect(categories).toHaveLength(30);
      expect(products).toHaveLength(PRODUCTS);
      expect(summary.brands).toBe(brands.length);
      expect(summary.categories).toBe(30);
      expect(summary.products).toBe(PRODUCTS);
      expect(summary.variants).toBe((await db.select().from(schema.productVariants)).length);
      expect(summary.reviews).toBe((await db.select().from(schema.reviews)).length);

      // Every category and every brand has at least one product.
      expect(new Set(products.map((p) => p.categoryId)).size).toBe(30);
      expect(new Set(products.map((p) => p.brandId)).size).toBe(brands.length);
      expect(new Set(products.map((p) => p.name)).size).toBe(PRODUCTS);
      // The storefront's typo-tolerant search is tested with these.
      expect(products.some((p) => /tomato/i.test(p.name))).toBe(true);
      expect(products.some((p) => /butter/i.test(p.name))).toBe(true);

      for (const p of products) {
        expect(p.pricePaise % 50, p.name).toBe(0);
        expect(p.pricePaise).toBeGreaterThan(0);
        expect(p.mrpPaise === 0 || p.mrpPaise >= p.pricePaise, p.name).toBe(true);
        expect(p.shortCode).toMatch(/^[A-Z]+-\d{4}$/);
        expect(['normal', 'variant']).toContain(p.type);
      }
    },
    TIMEOUT,
  );

  it('gives every variant product the price of its first variant', async () => {
    const { db } = handle;
    const rows = await db
      .select({
        productId: schema.products.id,
        pricePaise: schema.products.pricePaise,
        mrpPaise: schema.products.mrpPaise,
        position: schema.productVariants.position,
        salesPricePaise: schema.productVariantPrices.salesPricePaise,
        variantMrpPaise: schema.productVariantPrices.mrpPaise,
      })
      .from(schema.products)
      .innerJoin(schema.productVariants, eq(schema.productVariants.productId, schema.products.id))
      .leftJoin(schema.productVariantPrices, eq(schema.productVariantPrices.variantId, schema.productVariants.id))
      .where(eq(schema.products.type, 'variant'))
      .orderBy(asc(schema.products.id), asc(schema.productVariants.position));
    const variantProducts = await db.select().from(schema.products).where(eq(schema.products.type, 'variant'));
    expect(variantProducts.length).toBeGreaterThan(0);

    const byProduct = new Map<number, typeof rows>();
    for (const r of rows) byProduct.set(r.productId, [...(byProduct.get(r.productId) ?? []), r]);
    for (const p of variantProducts) {
      const variants = byProduct.get(p.id) ?? [];
      expect(variants.length).toBeGreaterThanOrEqual(2);
      expect(variants.length).toBeLessThanOrEqual(4);
      expect(variants.map((v) => v.position)).toEqual(variants.map((_, i) => i));
      const first = variants[0];
      expect(first?.salesPricePaise).toBe(p.pricePaise);
      expect(first?.variantMrpPaise).toBe(p.mrpPaise);
    }
    // Normal products have no variants.
    const normalWithVariants = rows.filter((r) => !byProduct.has(r.productId));
    expect(normalWithVariants).toHaveLength(0);
  });

  it('shows every product\'s drawn pictures and each pack\'s own, stored once each', async () => {
    const { db } = handle;
    const products = await db.select({ id: schema.products.id }).from(schema.products);
    const images = await db.select().from(schema.productImages);
    const withImages = new Set(images.map((i) => i.productId));
    // Issue 24: no product shows the default grocery image.
    expect(products.filter((p) => !withImages.has(p.id))).toEqual([]);
    const packs = await db.select().from(schema.productVariants);
    expect(packs.length).toBeGreaterThan(0);
    const files = await db.select({ sha256: schema.imageFiles.sha256, contentType: schema.imageFiles.contentType }).from(schema.imageFiles);
    const stored = new Set(files.map((f) => `/api/images/files/${f.sha256}.svg`));
    for (const f of files) expect(f.contentType).toBe('image/svg+xml');
    for (const i of images) {
      expect(i.imageUrl).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
      expect(stored.has(i.imageUrl), i.imageUrl).toBe(true);
      expect(i.position).toBeLessThan(3);
    }
    // A product's gallery shows different pictures (its pack, the food, the back).
    const byProduct = Map.groupBy(images, (i) => i.productId);
    for (const gallery of byProduct.values()) expect(new Set(gallery.map((i) => i.imageUrl)).size).toBe(gallery.length);
    const categories = await db.select({ imageUrl: schema.categories.imageUrl }).from(schema.categories);
    for (const c of categories) expect(stored.has(c.imageUrl ?? ''), c.imageUrl ?? 'none').toBe(true);
    // A pack's picture is stored, and differs from the other packs' of its product; the first pack's is the front.
    for (const v of packs) expect(stored.has(v.imageUrl ?? ''), `pack ${v.id}`).toBe(true);
    for (const [productId, ofProduct] of Map.groupBy(packs, (v) => v.productId)) {
      expect(new Set(ofProduct.map((v) => v.imageUrl)).size, `product ${productId}`).toBe(ofProduct.length);
      const first = ofProduct.find((v) => v.position === 0);
      expect(first?.imageUrl).toBe(byProduct.get(productId)?.find((i) => i.position === 0)?.imageUrl);
    }
  });

  it('stores a picture once, by its content: storing it again changes nothing', async () => {
    const { db } = handle;
    const svgs = [drawFood('beans', '#B0500F'), drawFood('mango', '#827717')];
    const before = (await db.select({ n: count() }).from(schema.imageFiles))[0]?.n ?? 0;
    const urls = await storePictures(db, svgs);
    expect(urls[0]).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
    expect(urls[0]).not.toBe(urls[1]);
    const stored = (await db.select({ n: count() }).from(schema.imageFiles))[0]?.n ?? 0;
    expect(await storePictures(db, svgs)).toEqual(urls);
    expect((await db.select({ n: count() }).from(schema.imageFiles))[0]?.n).toBe(stored);
    expect(stored - before).toBeLessThanOrEqual(2);
    const sha256 = /([0-9a-f]{64})/.exec(urls[0] ?? '')?.[1] ?? '';
    const [file] = await db.select().from(schema.imageFiles).where(eq(schema.imageFiles.sha256, sha256));
    expect(Buffer.from(file?.bytes ?? []).toString('utf8')).toBe(svgs[0]);
    expect([file?.width, file?.height]).toEqual([PICTURE_SIZE, PICTURE_SIZE]);
  });

  it('gives the categories their drawn tiles, and a category without one the generated SVG', async () => {
    const { db } = handle;
    const page = await loadCategories(db, 0, 100);
    for (const c of page.items) expect(c.image).toMatch(/^\/api\/images\/files\/[0-9a-f]{64}\.svg$/);
    const first = page.items[0]!;
    await db.update(schema.categories).set({ imageUrl: null }).where(eq(schema.categories.id, first.id));
    const again = await loadCategories(db, 0, 100);
    expect(again.items.find((c) => c.id === first.id)?.image).toBe(`/api/images/categories/${first.id}.svg`);
    await db.update(schema.categories).set({ imageUrl: first.image }).where(eq(schema.categories.id, first.id));
  });

  it('tags hot products with distinct priority tags', async () => {
    const { db } = handle;
    const products = await db.select().from(schema.products);
    const hot = products.filter((p) => p.priorityTag !== null);
    expect(hot.length).toBeGreaterThan(0);
    const tags = hot.map((p) => p.priorityTag);
    expect(new Set(tags).size).toBe(tags.length);
    expect(hot.filter((p) => p.type === 'variant').length).toBeGreaterThanOrEqual(2);
  });

  it("stores each product's food type and facts as planned", async () => {
    const { db } = handle;
    const planned = new Map(planCatalogue(PRODUCTS).products.map((p) => [p.name, p.facts]));
    const rows = await db
      .select({
        name: schema.products.name,
        foodType: schema.products.foodType,
        netQuantity: schema.products.netQuantity,
        countryOfOrigin: schema.products.countryOfOrigin,
        manufacturer: schema.products.manufacturer,
        shelfLife: schema.products.shelfLife,
        fssaiLicence: schema.products.fssaiLicence,
      })
      .from(schema.products);
    expect(rows).toHaveLength(PRODUCTS);
    for (const { name, ...facts } of rows) expect(facts, name).toEqual(planned.get(name));
  });

  it('writes an SEO row for every product', async () => {
    const { db } = handle;
    const seo = await db.select().from(schema.productSeo);
    expect(seo).toHaveLength(PRODUCTS);
    for (const s of seo) {
      expect(s.metaTitle.length).toBeLessThanOrEqual(60);
      expect(s.metaDescription.length).toBeGreaterThanOrEqual(120);
      expect(s.metaDescription.length).toBeLessThanOrEqual(160);
      expect(s.metaKeywords.length).toBeGreaterThan(0);
    }
    for (const r of await db.select().from(schema.reviews)) {
      expect(r.stars).toBeGreaterThanOrEqual(1);
      expect(r.stars).toBeLessThanOrEqual(5);
    }
  });

  it(
    'is deterministic: reset + seed gives the same rows and ids',
    async () => {
      const { db } = handle;
      const snapshot = async () => ({
        products: await db
          .select({
            id: schema.products.id,
            name: schema.products.name,
            pricePaise: schema.products.pricePaise,
            mrpPaise: schema.products.mrpPaise,
            priorityTag: schema.products.priorityTag,
          })
          .from(schema.products)
          .orderBy(asc(schema.products.id)),
        variantPrices: await db
          .select()
          .from(schema.productVariantPrices)
          .orderBy(asc(schema.productVariantPrices.id)),
        reviews: await db.select().from(schema.reviews).orderBy(asc(schema.reviews.id)),
      });
      const before = await snapshot();
      await resetCatalogue(db);
      expect(await isCatalogueEmpty(db)).toBe(true);
      await seedCatalogue(db, { products: PRODUCTS });
      const after = await snapshot();
      expect(after).toEqual(before);
      expect(after.products[0]?.id).toBe(1);
    },
    TIMEOUT,
  );

  it(
    'empties carts and wishlists on reset, and refuses while orders exist unless forced (which deletes them)',
    async () => {
      const { db } = handle;
      const [user] = await db
        .insert(schema.users)
        .values({ email: 'reset@example.com', name: 'Reset Test', phone: '9000000001', passwordHash: 'x' })
        .returning({ id: schema.users.id });
      const userId = user?.id ?? 0;
      await db.insert(schema.cartLines).values({ userId, productId: 1, qty: 1 });
      await db.insert(schema.wishlistItems).values({ userId, productId: 2 });
      const startsAt = new Date(Date.UTC(2026, 10, 23, 2, 30));
      await db
        .insert(schema.deliverySlots)
        .values({ id: '2026-11-23T08:00', startsAt, endsAt: new Date(startsAt.getTime() + 7_200_000), capacity: 5, taken: 1 });

      await resetCatalogue(db);
      expect(await db.select().from(schema.cartLines)).toHaveLength(0);
      expect(await db.select().from(schema.wishlistItems)).toHaveLength(0);
      expect(await db.select().from(schema.users)).toHaveLength(1);
      await seedCatalogue(db, { products: PRODUCTS });

      const [order] = await db
        .insert(schema.orders)
        .values({
          userId,
          paymentMethod: 'cash',
          slotId: '2026-11-23T08:00',
          address: { name: 'R', phone: '9000000001', line1: 'x', line2: '', landmark: '', city: 'Pune', state: 'Maharashtra', pincode: '411001' },
          subtotalPaise: 100,
          mrpTotalPaise: 100,
          discounts: [],
          discountPaise: 0,
          deliveryPaise: 0,
          totalPaise: 100,
          idempotencyKey: 'reset-test',
          requestHash: 'h',
        })
        .returning({ id: schema.orders.id });
      await db.insert(schema.orderLines).values({
        orderId: order?.id ?? 0,
        productId: 3,
        name: 'x',
        unitPricePaise: 100,
        unitMrpPaise: 100,
        qty: 1,
        lineTotalPaise: 100,
      });

      const refused = await resetCatalogue(db).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CatalogueInUseError);
      expect((refused as Error).message).toMatch(/1 order\(s\) refer to the catalogue.*--force/);
      expect(await isCatalogueEmpty(db)).toBe(false);
      expect(await db.select().from(schema.orderLines)).toHaveLength(1);

      await resetCatalogue(db, { force: true });
      expect(await isCatalogueEmpty(db)).toBe(true);
      expect(await db.select().from(schema.orders)).toHaveLength(0);
      expect(await db.select().from(schema.orderLines)).toHaveLength(0);
      const [slot] = await db.select().from(schema.deliverySlots);
      expect(slot?.taken).toBe(0);
      expect(await db.select().from(schema.users)).toHaveLength(1);
    },
    TIMEOUT,
  );
});
