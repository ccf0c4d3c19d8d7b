// `npm run import` against a real data folder, as the grocer runs it: with the shop stopped it opens the database
// itself; with the built shop running (which holds the folder's lock) it goes through the shop's grocer routes, and the
// shop's pages (listings, product page, sitemap) show the new products at once. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { asc, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { products } from '../../src/server/db/schema.ts';
import { freePort, root, run, runToEnd, seededDataFolder, type Child } from './processes.ts';

const SAMPLE = path.join(root, 'docs/samples/catalogue.csv');
const PHOTOS = path.join(root, 'docs/samples/photos');
let work = '';
let dataDir = '';
/** handle → id after the first import. */
let firstIds = new Map<string, number>();
const children: Child[] = [];

/** Runs `npm run import -- …args` as the grocer would; never throws on exit 1. */
function importCommand(...args: string[]) {
  return runToEnd('scripts/import.ts', dataDir, args);
}

/** The imported products (handle → id), read with the shop stopped. */
async function importedProducts(): Promise<Map<string, number>> {
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    const rows = await handle.db.select({ id: products.id, handle: products.handle }).from(products).where(isNotNull(products.handle)).orderBy(asc(products.id));
    return new Map(rows.map((r) => [r.handle!, r.id]));
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  ({ work, dataDir } = await seededDataFolder('kirana-import-', 30));
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('with the shop stopped (the command opens the database)', () => {
  it('imports the sample file, printing its progress and a summary', async () => {
    const { code, stdout, stderr } = await importCommand(SAMPLE, '--images', PHOTOS);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Read');
    expect(stdout).toContain('8 rows, 5 products, 7 packs, 5 photos');
    expect(stdout).toContain('Importing into the database (the shop is not running)');
    expect(stdout).toContain('photos 5/5');
    expect(stdout).toContain('products 5/5');
    expect(stdout).toContain('products: 5 new, 0 updated, 0 unchanged');
    expect(stdout).toContain('new categories: Seasonal Fruit');
    firstIds = await importedProducts();
    expect([...firstIds.keys()]).toEqual([
      'toor-dal-premium',
      'basmati-rice-classic',
      'a2-cow-ghee',
      'alphonso-mango-box',
      'jaggery-cubes',
    ]);
  });

  it('changes nothing when run again', async () => {
    const before = await importedProducts();
    const { code, stdout } = await importCommand(SAMPLE, '--images', PHOTOS);
    expect(code).toBe(0);
    expect(stdout).toContain('Nothing to change: the shop already holds these 5 products as the file has them.');
    expect(await importedProducts()).toEqual(before);
  });

  it('imports nothing from a bad file and lists each line, before storing any photo', async () => {
    const bad = path.join(work, 'bad.csv');
    fs.writeFileSync(
      bad,
      [
        'handle,name,brand,category,description,pack,price,mrp,stock,hot,images',
        'fresh-one,Fresh One,New Brand,New Category,,,10,,1,,toor-dal.jpg',
        'broken,,New Brand,New Category,,,abc,5,1,,',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await importCommand(bad, '--images', PHOTOS);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'import: The catalogue has 2 problems; nothing was imported.',
      'line 3: name: is empty: the first row of a product needs its name',
      "line 3: price: 'abc' is not an amount in rupees (e.g. 45 or 45.50)",
    ]);
    expect((await importedProducts()).has('fresh-one')).toBe(false);
  });

  it('names a photo that is not a picture, and imports nothing', async () => {
    const folder = path.join(work, 'odd-photos');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'label.jpg'), 'a text file with a picture’s name');
    const csv = path.join(work, 'odd.csv');
    fs.writeFileSync(csv, 'handle,name,brand,category,description,pack,price,mrp,stock,hot,images\nodd-one,Odd One,New Brand,New Category,,,10,,1,,label.jpg\n');
    const { code, stderr } = await importCommand(csv, '--images', folder);
    expect(code).toBe(1);
    expect(stderr).toContain("line 2: images: 'label.jpg' is not a JPEG, PNG or WebP photo");
    expect((await importedProducts()).has('odd-one')).toBe(false);
  });
});

describe('with the shop running (the command goes through it)', () => {
  let base = '';
  const page = async (pathAndQuery: string) => {
    const res = await fetch(base + pathAndQuery);
    expect(res.status, pathAndQuery).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    const port = await freePort();
    const shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '' });
    children.push(shop);
    await shop.waitFor('[kirana] serving');
    base = `http://127.0.0.1:${port}`;
  });

  it("shows a changed file's products at once: listings, product page and sitemap (cached before the import)", async () => {
    const ids = await fetch(`${base}/api/app/Products/LoadProductsByCategory/seasonal-fruit`).then((r) => r.json() as Promise<{ id: number }[]>);
    const mangoId = ids[0]!.id;
    // Read once, so the page cache holds the pages as they were.
    // The sitemap's one product file of this shop (src/lib/server/sitemap.ts).
    const sitemapBefore = await page('/sitemap-products-1.xml');
    const listingBefore = await page('/shop?type=category&id=seasonal-fruit');
    expect(listingBefore).not.toContain('Kokum Sherbet');
    expect(await page(`/product-detail?id=${mangoId}`)).toContain('₹1,199');

    const changed = path.join(work, 'changed.csv');
    fs.writeFileSync(
      changed,
      fs
        .readFileSync(SAMPLE, 'utf8')
        .replace(',,1199,1399,8,yes,alphonso-mango.jpg', ',,1099,1399,8,yes,alphonso-mango.jpg')
        .concat('kokum-sherbet,Konkan Orchards Kokum Sherbet,Konkan Orchards,Seasonal Fruit,Kokum syrup from the Konkan coast.,750 ml,180,200,20,,,veg,,India,,,\n'),
    );
    const { code, stdout, stderr } = await importCommand(changed, '--images', PHOTOS);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Importing through the shop at ${base}`);
    expect(stdout).toContain('products: 1 new, 1 updated, 4 unchanged');

    const kokum = (await importedProductsThroughApi()).find((p) => p.name === 'Konkan Orchards Kokum Sherbet');
    expect(kokum).toBeDefined();
    expect(await page('/shop?type=category&id=seasonal-fruit')).toContain('Kokum Sherbet');
    expect(await page(`/product-detail?id=${mangoId}`)).toContain('₹1,099');
    const sitemap = await page('/sitemap-products-1.xml');
    expect(sitemapBefore).not.toContain(`/product-detail?id=${kokum!.id}`);
    expect(sitemap).toContain(`/product-detail?id=${kokum!.id}`);
  });

  /** The category's products, by an address not read before (the API's answers may be shared for a minute). */
  async function importedProductsThroughApi() {
    return fetch(`${base}/api/app/Products/LoadProductsByCategory/seasonal-fruit?pageNo=0&pageSize=20`).then(
      (r) => r.json() as Promise<{ id: number; name: string }[]>,
    );
  }
});

it('kept the ids of the products it updated, through both ways in', async () => {
  // The shop must let go of the data folder before the test opens it.
  for (const child of children) {
    child.process.kill('SIGTERM');
    await child.exited;
  }
  const after = await importedProducts();
  expect([...after.keys()]).toEqual([...firstIds.keys(), 'kokum-sherbet']);
  for (const [handle, id] of firstIds) expect(after.get(handle), handle).toBe(id);
});
