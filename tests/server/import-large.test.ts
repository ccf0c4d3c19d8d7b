// `npm run import` of a large catalogue through the running built shop (issue 22): a 20,000-row CSV and a 2 MB photo
// go through the shop's grocer routes, far past the 64 KB the shop's other routes take. An upload over its documented
// limit (src/server/body-limits.ts) is a 413 with the API's error body, and every other route keeps its small limit.
// Needs `npm run build`.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GROCER_TOKEN_FILE } from '../../src/server/auth/secret.ts';
import { readServerSettings } from '../../src/server/config.ts';
import { openShopDatabase } from '../../src/server/db/prepare.ts';
import { productImages, products, productVariants } from '../../src/server/db/schema.ts';
import type { ProductDto } from '../../src/server/schemas.ts';
import { freePort, run, runToEnd, seededDataFolder, type Child } from './processes.ts';

const PRODUCTS = 10_000;
const MB = 1024 * 1024;
let work = '';
let dataDir = '';
let csvFile = '';
let photo: Buffer;
let shop: Child | undefined;
let base = '';

/** 10,000 products of two packs each (20,000 rows), the same every run; the first shows the photo, the second has a
 * description of two lines. */
function largeCatalogue(): string {
  const rows = ['handle,name,brand,category,description,pack,price,mrp,stock,hot,images'];
  for (let n = 0; n < PRODUCTS; n++) {
    const category = n === 0 ? 'Bulk Photo' : `Bulk Aisle ${n % 10}`;
    const description = n === 1 ? '"First line,\nsecond line."' : `Item ${n} of the bulk catalogue.`;
    const price = 20 + (n % 400);
    rows.push(`bulk-${n},Bulk Item ${n},Bulk Brand ${n % 20},${category},${description},500 g,${price},${price + 5},${n % 50},,${n === 0 ? 'noise.png' : ''}`);
    rows.push(`bulk-${n},,,,,1 kg,${price * 2}.50,,${n % 30},,`);
  }
  return `${rows.join('\n')}\n`;
}

/** A PNG of about 2 MB: seeded noise, which does not compress away. */
async function noisePhoto(): Promise<Buffer> {
  const side = 840;
  const pixels = Buffer.alloc(side * side * 3);
  let state = 2463534242;
  for (let i = 0; i < pixels.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A POST to the running shop as `npm run import` makes it (the grocer token, the shop's own Origin). */
function grocerPost(route: string, body: Uint8Array<ArrayBuffer> | string, contentType: string) {
  const token = fs.readFileSync(path.join(dataDir, GROCER_TOKEN_FILE), 'utf8').trim();
  return fetch(`${base}/api/grocer/${route}`, {
    method: 'POST',
    headers: { authorization: `Grocer ${token}`, origin: base, 'content-type': contentType },
    body,
  });
}

beforeAll(async () => {
  ({ work, dataDir } = await seededDataFolder('kirana-import-large-', 30));
  csvFile = path.join(work, 'large.csv');
  fs.writeFileSync(csvFile, largeCatalogue());
  photo = await noisePhoto();
  fs.writeFileSync(path.join(work, 'noise.png'), photo);

  const port = await freePort();
  shop = run('scripts/serve.ts', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '' });
  await shop.waitFor('[kirana] serving');
  base = `http://127.0.0.1:${port}`;
  // The embedded API (which makes the grocer token the command reads) boots on the shop's first API request.
  expect((await fetch(`${base}/api/app/Products/LoadProductsByCategory/bulk-photo`)).status).toBe(404);
});
afterAll(async () => {
  if (shop && shop.process.exitCode === null && shop.process.signalCode === null) shop.process.kill('SIGKILL');
  await shop?.exited;
  fs.rmSync(work, { recursive: true, force: true });
});

it('imports a 20,000-row CSV and a 2 MB photo through the running shop', async () => {
  expect(fs.statSync(csvFile).size).toBeGreaterThan(1 * MB);
  expect(photo.length).toBeGreaterThan(2_000_000);

  const { code, stdout, stderr } = await runToEnd('scripts/import.ts', dataDir, [csvFile, '--images', work]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain(`Read ${csvFile}: 20000 rows, 10000 products, 20000 packs, 1 photo`);
  expect(stdout).toContain(`Importing through the shop at ${base}`);
  expect(stdout).toContain('products: 10000 new, 0 updated, 0 unchanged');
  expect(stdout).toContain('packs:    20000 new, 0 updated');

  // The photo's product shows the photo, and the shop serves it byte for byte.
  const [listed] = (await (await fetch(`${base}/api/app/Products/LoadProductsByCategory/bulk-photo`)).json()) as { id: number }[];
  const product = (await (await fetch(`${base}/api/app/Products/${listed!.id}`)).json()) as ProductDto;
  expect(product.name).toBe('Bulk Item 0');
  const url = `/api/images/files/${sha256(photo)}.png`;
  expect(product.productImages.map((image) => image.imageUrl)).toEqual([url]);
  const served = await fetch(base + url);
  expect(served.status).toBe(200);
  expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(photo));
});

it('refuses an upload over its limit with a 413 and the API’s error body; the command names a photo too large', async () => {
  const big = path.join(work, 'big');
  fs.mkdirSync(big);
  fs.writeFileSync(path.join(big, 'big.csv'), 'handle,name,brand,category,description,pack,price,mrp,stock,hot,images\nbig,Big,B,C,,,10,,1,,big.jpg\n');
  fs.writeFileSync(path.join(big, 'big.jpg'), '');
  fs.truncateSync(path.join(big, 'big.jpg'), 25 * MB + 1);
  const command = await runToEnd('scripts/import.ts', dataDir, [path.join(big, 'big.csv')]);
  expect(command.code).toBe(1);
  expect(command.stderr).toContain("line 2: images: 'big.jpg' is larger than 25 MB, the most a photo may be");

  const picture = await grocerPost('Pictures?name=huge.png', new Uint8Array(25 * MB + 1), 'application/octet-stream');
  expect(picture.status).toBe(413);
  expect(await picture.json()).toEqual({ error: { code: 'payload_too_large', message: 'The request body must be at most 25 MB' } });

  const csv = await grocerPost('Import', JSON.stringify({ csv: 'x'.repeat(32 * MB), images: {} }), 'application/json');
  expect(csv.status).toBe(413);
  expect(await csv.json()).toEqual({ error: { code: 'payload_too_large', message: 'The request body must be at most 32 MB' } });
});

it('keeps the small limits of every other route: the API’s 16 KB, a page’s 64 KB, no body of unknown length', async () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded', origin: base };
  const api = await fetch(`${base}/api/app/ContactMessages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ name: 'x', email: 'x@example.in', message: 'y'.repeat(100_000) }),
  });
  expect(api.status).toBe(413);
  expect(((await api.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');

  const page = await fetch(`${base}/contact`, { method: 'POST', headers: form, body: `message=${'y'.repeat(64 * 1024)}` });
  expect(page.status).toBe(413);

  // A stream has no Content-Length: only a length the shop can check before reading is taken.
  const stream = new Blob([`message=${'y'.repeat(100)}`]).stream();
  const chunked = await fetch(`${base}/contact`, { method: 'POST', headers: form, body: stream, duplex: 'half' } as RequestInit);
  expect(chunked.status).toBe(411);
});

it('left every product and pack in the database, the photo on its product (read with the shop stopped)', async () => {
  shop!.process.kill('SIGTERM');
  await shop!.exited;
  const handle = await openShopDatabase(readServerSettings({ DATA_DIR: dataDir, SEED_ON_EMPTY: 'false' }), () => {});
  try {
    const { db } = handle;
    const [imported] = await db.select({ n: count() }).from(products).where(like(products.handle, 'bulk-%'));
    expect(imported!.n).toBe(PRODUCTS);
    const [packs] = await db.select({ n: count() }).from(productVariants).innerJoin(products, eq(products.id, productVariants.productId)).where(like(products.handle, 'bulk-%'));
    expect(packs!.n).toBe(2 * PRODUCTS);
    const [twoLines] = await db.select({ description: products.description }).from(products).where(eq(products.handle, 'bulk-1'));
    expect(twoLines!.description).toBe('First line,\nsecond line.');
    const pictures = await db
      .select({ url: productImages.imageUrl })
      .from(productImages)
      .innerJoin(products, eq(products.id, productImages.productId))
      .where(eq(products.handle, 'bulk-0'));
    expect(pictures).toEqual([{ url: `/api/images/files/${sha256(photo)}.png` }]);
  } finally {
    await handle.close();
  }
});
