// The grocer's catalogue import over HTTP (the routes `npm run import` uses while the shop runs), on the sample file of
// docs/importing-products.md: what it creates, that a second run changes nothing, that a changed file updates in
// place (ids, cart lines), and that a bad file imports nothing and names each line.
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import { brands, categories, productImages, products, productSeo, productVariantPrices, productVariants } from '../../src/server/db/schema.ts';
import type { ImportSummaryDto, StoredPictureDto } from '../../src/server/import-schemas.ts';
import type { ProductDto, ProductSeoDto } from '../../src/server/schemas.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

const TOKEN = 'grocer-token-for-the-import-tests-0123456789';
const SAMPLE = path.resolve('docs/samples/catalogue.csv');
const PHOTOS = path.resolve('docs/samples/photos');
const sampleCsv = fs.readFileSync(SAMPLE, 'utf8');

let api: TestApi;
/** File name → SHA-256 of the sample photos, as the shop stored them. */
const photos: Record<string, string> = {};

const grocer = (method: string, route: string, init: { json?: unknown; bytes?: Uint8Array<ArrayBuffer>; token?: string } = {}) =>
  fetch(`${api.baseUrl}/api/grocer/${route}`, {
    method,
    headers: {
      authorization: `Grocer ${init.token ?? TOKEN}`,
      'content-type': init.bytes ? 'application/octet-stream' : 'application/json',
    },
    body: init.bytes ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
  });
const importCsv = (csv: string, images: Record<string, string> = photos) => grocer('POST', 'Import', { json: { csv, images } });

/** The import's summary, and what it said it made stale. */
async function imported(csv: string): Promise<{ summary: ImportSummaryDto; stale: (readonly string[] | 'all')[] }> {
  api.takeStale();
  const res = await importCsv(csv);
  expect(res.status, await res.clone().text()).toBe(200);
  return { summary: (await res.json()) as ImportSummaryDto, stale: api.takeStale() };
}

async function productByHandle(handle: string): Promise<ProductDto> {
  const [row] = await api.db.select({ id: products.id }).from(products).where(eq(products.handle, handle));
  const res = await api.get(`/api/app/Products/${row!.id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ProductDto;
}

/** Every catalogue row an import may write, in a stable order: equal snapshots mean nothing changed. */
async function snapshot() {
  const imported = await api.db.select().from(products).where(isNotNull(products.handle)).orderBy(asc(products.id));
  const ids = imported.map((p) => p.id);
  const none = ids.length === 0;
  return {
    brands: await api.db.select().from(brands).orderBy(asc(brands.id)),
    categories: await api.db.select().from(categories).orderBy(asc(categories.id)),
    products: imported,
    variants: none ? [] : await api.db.select().from(productVariants).where(inArray(productVariants.productId, ids)).orderBy(asc(productVariants.id)),
    prices: await api.db.select().from(productVariantPrices).orderBy(asc(productVariantPrices.id)),
    images: none ? [] : await api.db.select().from(productImages).where(inArray(productImages.productId, ids)).orderBy(asc(productImages.id)),
    seo: none ? [] : await api.db.select().from(productSeo).where(inArray(productSeo.productId, ids)).orderBy(asc(productSeo.id)),
  };
}

beforeAll(async () => {
  api = await startTestApi({ products: 40, grocerToken: TOKEN });
});
afterAll(async () => api?.close());

describe('pictures', () => {
  it('stores each sample photo once, by its bytes (the same bytes again: the same picture)', async () => {
    for (const name of fs.readdirSync(PHOTOS)) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(PHOTOS, name)));
      const res = await grocer('POST', `Pictures?name=${encodeURIComponent(name)}`, { bytes });
      expect(res.status, name).toBe(200);
      const stored = (await res.json()) as StoredPictureDto;
      expect(stored.url).toBe(`/api/images/files/${stored.sha256}.${path.extname(name).slice(1)}`);
      photos[name] = stored.sha256;
      const again = (await (await grocer('POST', `Pictures?name=${encodeURIComponent(name)}`, { bytes })).json()) as StoredPictureDto;
      expect(again.sha256).toBe(stored.sha256);
    }
    expect(Object.keys(photos)).toHaveLength(5);
  });

  it('refuses an SVG (it could carry script) and a file that is not a picture, naming it', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const res = await grocer('POST', 'Pictures?name=logo.svg', { bytes: svg });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'bad_request', message: "'logo.svg' is not a JPEG, PNG or WebP photo" });
    const text = await grocer('POST', 'Pictures?name=notes.jpg', { bytes: new TextEncoder().encode('just some notes') });
    expect((await errorOf(text)).message).toBe("'notes.jpg' is not a JPEG, PNG or WebP photo");
  });

  it('needs the grocer token', async () => {
    const res = await grocer('POST', 'Pictures?name=x.jpg', { bytes: new Uint8Array(fs.readFileSync(path.join(PHOTOS, 'toor-dal.jpg'))), token: 'wrong' });
    expect(res.status).toBe(401);
    const csv = await grocer('POST', 'Import', { json: { csv: sampleCsv, images: photos }, token: 'wrong' });
    expect(csv.status).toBe(401);
  });
});

describe('the sample file', () => {
  it('creates its products with their packs, prices, pictures, brands and categories, and tells the caches', async () => {
    const seededCategories = await api.db.select({ n: sql<number>`count(*)::int` }).from(categories);
    const { summary, stale } = await imported(sampleCsv);
    expect(summary).toEqual({
      rows: 8,
      products: { created: 5, updated: 0, unchanged: 0 },
      packs: { created: 7, updated: 0, offShelf: 0 },
      pictures: 5,
      brandsCreated: ['Sharma Farms', 'Godavari Dairy', 'Konkan Orchards', 'Kolhapur Gur Co.'],
      categoriesCreated: ['Seasonal Fruit'],
      changed: true,
    });
    // Every cache of every instance forgets the whole catalogue: listings, product pages, brands and the sitemap.
    expect(stale).toEqual([staleAfter.catalogueImported()]);
    const afterCategories = await api.db.select({ n: sql<number>`count(*)::int` }).from(categories);
    expect(afterCategories[0]!.n).toBe(seededCategories[0]!.n + 1);

    const dal = await productByHandle('toor-dal-premium');
    expect(dal).toMatchObject({
      name: 'Sharma Farms Toor Dal',
      shortName: 'Toor Dal',
      shortCode: 'TOOR-DAL-PREMIUM',
      description: 'Unpolished toor dal from Latur, Maharashtra. Cooks soft in 3 whistles.',
      type: 'variant',
      brandName: 'Sharma Farms',
      // Matched to the seed's category by name.
      categoryId: 'dals-pulses',
      pricePaise: 8900,
      mrpPaise: 9900,
      hot: true,
      inStock: true,
    });
    expect(dal.productVariants.map((v) => [v.name, v.productVariantPrice?.salesPricePaise, v.productVariantPrice?.mrpPaise])).toEqual([
      ['500 g', 8900, 9900],
      ['1 kg', 16900, 18900],
      ['5 kg', 79900, 89900],
    ]);
    expect(dal.productImages.map((i) => i.imageUrl)).toEqual([`/api/images/files/${photos['toor-dal.jpg']}.jpg`]);
    const [stock] = await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, dal.id));
    expect(stock!.stock).toBe(40 + 25 + 6);

    // 'rice & grains' is the seed's 'Rice & Grains'; '5kg' is written '5 kg'; a quoted description keeps its line break.
    const rice = await productByHandle('basmati-rice-classic');
    expect(rice).toMatchObject({ categoryId: 'rice-grains', pricePaise: 14550, mrpPaise: 16000, hot: false });
    expect(rice.description).toBe('Long grains, aged 12 months.\nRinse twice and soak for 20 minutes before cooking.');
    expect(rice.productVariants.map((v) => v.name)).toEqual(['1 kg', '5 kg']);
    expect(rice.productImages.map((i) => i.imageUrl)).toEqual([
      `/api/images/files/${photos['basmati-rice.jpg']}.jpg`,
      `/api/images/files/${photos['basmati-rice-bowl.png']}.png`,
    ]);

    // One row with no pack: a plain product, in a category the import created.
    const mango = await productByHandle('alphonso-mango-box');
    expect(mango).toMatchObject({ type: 'normal', productVariants: [], categoryId: 'seasonal-fruit', categoryName: 'Seasonal Fruit', pricePaise: 119_900, hot: true });
    const jaggery = await productByHandle('jaggery-cubes');
    expect(jaggery).toMatchObject({ categoryId: 'salt-sugar-jaggery', mrpPaise: 0 });

    // The optional columns (issue 24): the facts as given, and nothing where a cell is empty.
    expect(dal).toMatchObject({
      foodType: 'veg',
      netQuantity: null,
      countryOfOrigin: 'India',
      manufacturer: 'Sharma Farms Pvt. Ltd., Gat No. 112, MIDC Area, Latur 413531, Maharashtra',
      shelfLife: '9 months from packing',
      fssaiLicence: '11519015000123',
    });
    expect(mango).toMatchObject({ foodType: 'veg', netQuantity: '6 pcs', fssaiLicence: null });
    expect(jaggery).toMatchObject({ foodType: null, netQuantity: null, countryOfOrigin: null, manufacturer: null, shelfLife: null, fssaiLicence: null });

    const seo = (await (await api.get(`/api/app/ProductSEOs/${mango.id}`)).json()) as ProductSeoDto;
    expect(seo.metaTitle).toBe('Ratnagiri Alphonso Mangoes (Box of 6) – Buy online at Kirana');
    expect(seo.metaDescription).toMatch(/^Buy Ratnagiri Alphonso Mangoes \(Box of 6\) online at Kirana for ₹1,199\./);

    // Search and the category listing find them at once.
    const found = (await (await api.get('/api/app/Products/SearchResults/alphonso')).json()) as ProductDto[];
    expect(found.map((p) => p.id)).toContain(mango.id);
    const ghee = (await (await api.get('/api/app/Products/SearchResults/a2%20ghee')).json()) as ProductDto[];
    expect(ghee[0]?.name).toBe('Godavari Dairy A2 Cow Ghee');
    const listing = (await (await api.get('/api/app/Products/LoadProductsByCategory/seasonal-fruit')).json()) as ProductDto[];
    expect(listing.map((p) => p.id)).toEqual([mango.id]);
  });

  it('changes nothing when imported again, and tells no cache to forget anything', async () => {
    const before = await snapshot();
    const { summary, stale } = await imported(sampleCsv);
    expect(summary).toMatchObject({ products: { created: 0, updated: 0, unchanged: 5 }, packs: { created: 0, updated: 0, offShelf: 0 }, changed: false });
    expect(summary.brandsCreated).toEqual([]);
    expect(stale).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('updates prices, stock, text and packs in place from a changed file: ids kept, a cart line survives', async () => {
    const dal = await productByHandle('toor-dal-premium');
    const kilo = dal.productVariants.find((v) => v.name === '1 kg')!;
    const { token, user } = await api.register();
    const added = await api.call('POST', '/api/app/Carts', {
      token,
      body: { productsId: dal.id, productVariantsId: kilo.id, productVariantPriceId: kilo.productVariantPrice!.id, packing: 'packaging', price: 1, qty: 2 },
    });
    expect(added.status).toBe(201);
    const line = ((await added.json()) as CartDto).lines[0]!;
    expect(line.unitPricePaise).toBe(16_900);

    const changed = sampleCsv
      .replace('Sharma Farms Toor Dal,', 'Sharma Farms Toor Dal (Unpolished),')
      .replace(',1 kg,169,189,25,,', ',1 kg,159,189,10,,')
      .replace('toor-dal-premium,,,,,5 kg,799,899,6,', 'toor-dal-premium,,,,,2 kg,319,359,9,')
      .replace('Dals & Pulses,"Unpolished toor dal from Latur, Maharashtra. Cooks soft in 3 whistles.",500 g,89,99,40,yes', 'Dals & Pulses,"Unpolished toor dal from Latur, Maharashtra. Cooks soft in 3 whistles.",500 g,89,99,40,');
    expect(changed).not.toBe(sampleCsv);
    const { summary } = await imported(changed);
    expect(summary).toMatchObject({ products: { created: 0, updated: 1, unchanged: 4 }, packs: { created: 1, updated: 1, offShelf: 1 }, changed: true });

    const after = await productByHandle('toor-dal-premium');
    expect(after.id).toBe(dal.id);
    expect(after).toMatchObject({ name: 'Sharma Farms Toor Dal (Unpolished)', hot: false });
    const byName = new Map(after.productVariants.map((v) => [v.name, v]));
    expect(byName.get('500 g')!.id).toBe(dal.productVariants[0]!.id);
    expect(byName.get('1 kg')).toMatchObject({ id: kilo.id, inStock: true, productVariantPrice: { id: kilo.productVariantPrice!.id, salesPricePaise: 15_900 } });
    expect(byName.get('2 kg')).toMatchObject({ productVariantPrice: { salesPricePaise: 31_900, mrpPaise: 35_900 } });
    // A pack the file no longer names stays (carts and orders may name it), out of stock.
    expect(byName.get('5 kg')).toMatchObject({ id: dal.productVariants[2]!.id, inStock: false });
    const [stock] = await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, dal.id));
    expect(stock!.stock).toBe(40 + 10 + 9);

    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${user.id}`, { token })).json()) as CartDto;
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]).toMatchObject({ id: line.id, productsId: dal.id, productVariantsId: kilo.id, qty: 2, unitPricePaise: 15_900, name: 'Sharma Farms Toor Dal (Unpolished)' });

    // And the same changed file again: nothing more to do.
    expect((await imported(changed)).summary).toMatchObject({ changed: false, products: { unchanged: 5 } });
  });
});

describe('food type and product details (issue 24)', () => {
  const header = 'handle,name,brand,category,description,pack,price,mrp,stock,hot,images';
  const plainRow = 'facts-besan,Sharma Farms Besan,Sharma Farms,Atta & Flours,Fine gram flour.,,55,60,12,,';

  it('keeps the facts a file without their columns does not mention, and clears those it leaves empty', async () => {
    const full = `${header},food_type,net_quantity,country_of_origin,manufacturer,shelf_life,fssai_licence\n${plainRow},veg,500g,India,"Sharma Farms Pvt. Ltd., Latur 413531",3 months from packing,11519015000123\n`;
    expect((await imported(full)).summary).toMatchObject({ products: { created: 1 } });
    const facts = { foodType: 'veg', netQuantity: '500 g', countryOfOrigin: 'India', manufacturer: 'Sharma Farms Pvt. Ltd., Latur 413531', shelfLife: '3 months from packing', fssaiLicence: '11519015000123' };
    expect(await productByHandle('facts-besan')).toMatchObject(facts);

    // A grocer's older file, without the columns, changes the price and keeps every fact.
    const older = `${header}\n${plainRow.replace(',55,60,', ',52,60,')}\n`;
    const { summary, stale } = await imported(older);
    expect(summary).toMatchObject({ products: { updated: 1 }, changed: true });
    expect(stale).toEqual([staleAfter.catalogueImported()]);
    expect(await productByHandle('facts-besan')).toMatchObject({ ...facts, pricePaise: 5200 });

    // A file with some of the columns: an empty cell clears its fact, the columns it lacks stay.
    const some = `${header},food_type,fssai_licence,shelf_life\n${plainRow.replace(',55,60,', ',52,60,')},egg,,6 months\n`;
    expect((await imported(some)).summary).toMatchObject({ products: { updated: 1 } });
    expect(await productByHandle('facts-besan')).toMatchObject({ ...facts, pricePaise: 5200, foodType: 'egg', fssaiLicence: null, shelfLife: '6 months' });
    // And the same again: nothing to change.
    expect((await imported(some)).summary).toMatchObject({ changed: false, products: { unchanged: 1 } });
  });

  it('refuses a food type or a licence it cannot read, naming the line and column, and imports nothing', async () => {
    const before = await snapshot();
    const csv = [
      `${header},food_type,fssai_licence`,
      'facts-new,New Besan,Sharma Farms,Atta & Flours,,,50,,3,,,jain,',
      'facts-other,Other Besan,Sharma Farms,Atta & Flours,,,50,,3,,,veg,FSSAI-123',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.split('\n')).toEqual([
      'The catalogue has 2 problems; nothing was imported.',
      "line 2: food_type: 'jain' must be veg, non-veg or egg, or empty when it is not food",
      "line 3: fssai_licence: 'FSSAI-123' must be the 14 digits of an FSSAI licence, or empty",
    ]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('a bad file', () => {
  const header = 'handle,name,brand,category,description,pack,price,mrp,stock,hot,images';

  it('imports nothing, not even its good rows, and names every problem by line and column', async () => {
    const before = await snapshot();
    const csv = [
      header,
      'new-good-product,Good Besan,Sharma Farms,Atta & Flours,Fine gram flour.,500 g,55,60,12,,',
      'no-name,,Sharma Farms,Atta & Flours,,,10,,3,,',
      '"price-words","Price Words",Sharma Farms,Atta & Flours,"A description, with a comma",,ten,,3,,',
      'low-mrp,Low Mrp,Sharma Farms,Atta & Flours,,,50,40,3,,',
      'ghost-picture,Ghost Picture,Sharma Farms,Atta & Flours,,,50,,3,,missing.jpg',
      'new-good-product,,,,,500g,56,60,1,,',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    const { code, message } = await errorOf(res);
    expect(code).toBe('bad_request');
    expect(message.split('\n')).toEqual([
      'The catalogue has 5 problems; nothing was imported.',
      'line 3: name: is empty: the first row of a product needs its name',
      "line 4: price: 'ten' is not an amount in rupees (e.g. 45 or 45.50)",
      'line 5: mrp: 40 is below the price 50: the MRP is the most a shop may charge',
      "line 6: images: 'missing.jpg' is not in the images folder",
      "line 7: pack: '500 g' of new-good-product is already on line 2 (each handle and pack once)",
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to turn a product sold in packs into a plain one, and a picture the shop does not have', async () => {
    const before = await snapshot();
    const csv = [
      header,
      'new-good-product,Good Besan,Sharma Farms,Atta & Flours,Fine gram flour.,500 g,55,60,12,,',
      'toor-dal-premium,Sharma Farms Toor Dal,Sharma Farms,Dals & Pulses,,,89,,4,,',
      'a2-cow-ghee,Godavari Dairy A2 Cow Ghee,Godavari Dairy,Edible Oils & Ghee,,500 ml,649,699,18,,ghee.webp',
    ].join('\n');
    const res = await importCsv(csv, { 'ghee.webp': 'a'.repeat(64) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.split('\n')).toEqual([
      'The catalogue has 2 problems; nothing was imported.',
      'line 3: pack: toor-dal-premium is sold in pack sizes (500 g, 1 kg, 2 kg, 5 kg); give each row its pack',
      "line 4: images: 'ghee.webp' was not uploaded to the shop",
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a NUL, an escape sequence or a right-to-left override in a cell with a line error, not a 500', async () => {
    const before = await snapshot();
    const csv = [
      header,
      'nul-name,Nul\u0000 Besan,Sharma Farms,Atta & Flours,,,10,,3,,',
      'esc-brand,Esc Besan,Sharma Farms\u001b[2J,Atta & Flours,,,10,,3,,',
      'rlo-description,Rlo Besan,Sharma Farms,Atta & Flours,"Fine \u202Eflour",,10,,3,,',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.split('\n')).toEqual([
      'The catalogue has 3 problems; nothing was imported.',
      'line 2: name: has a control character in it (\\x00): remove it',
      'line 3: brand: has a control character in it (\\x1b): remove it',
      'line 4: description: has a control character in it (U+202E): remove it',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("is read past the API's 16 KB body limit (the import route has its own), which other routes keep", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `bulk-${i},Bulk Item ${i},Sharma Farms,Atta & Flours,A description long enough to add up.,1 kg,50,,5,,`);
    const csv = [header, ...rows, 'bulk-broken,Broken,Sharma Farms,Atta & Flours,,1 kg,fifty,,5,,'].join('\n');
    expect(csv.length).toBeGreaterThan(32 * 1024);
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain("line 402: price: 'fifty' is not an amount in rupees");
    const contact = await api.post('/api/app/ContactMessages', { name: 'x', email: 'x@example.in', message: 'y'.repeat(20_000) });
    expect(contact.status).toBe(413);
  });
});

it('documents the import routes in /api/openapi.json', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  expect(doc.paths['/api/grocer/Pictures']?.post?.security).toEqual([{ grocer: [] }, { staffSession: [] }]);
  expect(doc.paths['/api/grocer/Import']?.post?.security).toEqual([{ grocer: [] }, { staffSession: [] }]);
});
