// Pictures as the built shop serves them (dist/: `npm run build` first), on a data folder whose products show photos
// stored by SHA-256: every product <img> of a page with its srcset and sizes, the first fetched early and the rest lazy,
// and the sizes through the shop's own layer (page cache, compression) by Accept and Save-Data, kept in DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from '../../scripts/lib/built-server.ts';
import { PICTURE_SLOTS, pictureAttributes, sizedImageUrl } from '../../src/lib/picture.ts';
import type { SavedImage } from '../../src/server/services/image-files.ts';
import { preparePhotoShop } from './fixtures/photo-shop.ts';

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

let parent: string;
let dataDir: string;
let shop: BuiltServer;
let photos: SavedImage[];

beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-pictures-'));
  dataDir = path.join(parent, 'data');
  photos = await preparePhotoShop(dataDir);
  shop = await startBuiltServer({ env: { DATA_DIR: dataDir } });
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  fs.rmSync(parent, { recursive: true, force: true });
});

/** The attributes of each <img> in `html` (Astro writes them plainly: name="value"). */
function images(html: string): Record<string, string>[] {
  return [...html.matchAll(/<img\b([^>]*)>/g)].map(([, attrs]) =>
    Object.fromEntries([...attrs!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name!.toLowerCase(), (value ?? '').replace(/&amp;/g, '&')])),
  );
}
const page = async (url: string) => {
  const res = await fetch(shop.url + url);
  expect(res.status, url).toBe(200);
  return res.text();
};
const isSized = (url: string | undefined) => /^\/api\/images\/\d+\/[0-9a-f]{64}\.jpg$/.test(url ?? '');

describe('a listing', () => {
  it('gives every product card a srcset of the sizes, the card slot sizes, and only the first card high priority', async () => {
    const cards = images(await page('/shop?type=hot')).filter((img) => isSized(img.src));
    expect(cards.length).toBeGreaterThan(8);
    for (const img of cards) {
      expect(img.srcset).toMatch(/^\/api\/images\/160\/\S+ 160w, \/api\/images\/320\/\S+ 320w, \/api\/images\/480\/\S+ 480w$/);
      expect(img.sizes).toBe(PICTURE_SLOTS.card.sizes);
      expect([img.width, img.height]).toEqual(['400', '400']);
    }
    expect(cards.map((img) => img.fetchpriority ?? 'auto')).toEqual(['high', ...cards.slice(1).map(() => 'auto')]);
    expect(cards.slice(0, 4).map((img) => img.loading)).toEqual(['eager', 'eager', 'eager', 'eager']);
    expect(new Set(cards.slice(4).map((img) => img.loading))).toEqual(new Set(['lazy']));
  });
});

describe('a product page', () => {
  it('shows the main picture at up to 960 wide, fetched first; thumbnails small and lazy, linking to their picture on the page', async () => {
    const html = await page('/product-detail?id=1');
    const [main, ...rest] = images(html).filter((img) => isSized(img.src));
    expect(main!['data-testid']).toBe('gallery-main');
    expect(main!.fetchpriority).toBe('high');
    expect(main!.loading).toBeUndefined();
    expect(main!.srcset!.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['160w', '320w', '480w', '640w', '960w']);
    expect(main!.sizes).toBe(PICTURE_SLOTS.gallery.sizes);
    const thumbnails = rest.filter((img) => img.sizes === PICTURE_SLOTS.thumbnail.sizes);
    expect(thumbnails.length).toBeGreaterThan(1);
    for (const img of thumbnails) expect([img.loading, img.srcset?.endsWith(' 160w')]).toEqual(['lazy', true]);
    // Issue 24: a thumbnail names its picture on this page (shown by CSS without JavaScript), never the bare file.
    const links = [...html.matchAll(/<a href="([^"]+)" data-gallery-thumb/g)].map(([, href]) => href);
    expect(links).toEqual(thumbnails.map((_, i) => `#picture-${i + 1}`));
    const pictures = rest.filter((img) => img.sizes === PICTURE_SLOTS.gallery.sizes);
    expect([main!.id, ...pictures.map((img) => img.id)]).toEqual(links.map((href) => href!.slice(1)));
    // The others wait, lazy, until shown; each is its thumbnail's photo at the gallery's sizes.
    for (const [i, img] of pictures.entries()) {
      expect(img.loading).toBe('lazy');
      expect(img.srcset!.split(', ').at(-1)!.split(' ')[0]!.split('/').at(-1)).toBe(thumbnails[i + 1]!.src!.split('/').at(-1));
    }
  });

  it('hands crawlers and link previews the largest size, as an absolute URL', async () => {
    const html = await page('/product-detail?id=1');
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    expect(ogImage).toMatch(/^http:\/\/[^/]+\/api\/images\/960\/[0-9a-f]{64}\.jpg$/);
    expect(html).toMatch(/"image":\["http:\/\/[^"]+\/api\/images\/960\//);
  });
});

describe('the home page', () => {
  it('gives each category tile the picture attributes of its image', async () => {
    const res = await fetch(`${shop.url}/api/app/Categories/LoadCategoriesByPriority?pageNo=0&pageSize=3`);
    const categories = (await res.json()) as { image: string }[];
    const tiles = images(await page('/'));
    for (const category of categories) {
      const expected = pictureAttributes(category.image, 'category');
      const tile = tiles.find((img) => img.src === expected.src);
      expect(tile, category.image).toBeDefined();
      expect([tile!.srcset, tile!.sizes, tile!.loading]).toEqual([expected.srcset, expected.sizes, 'lazy']);
    }
  });
});

describe('the sizes through the shop', () => {
  const url = () => sizedImageUrl(photos[0]!.url, 480)!;

  it('answer each browser in its format and Save-Data with the smallest, never one browser’s answer to another', async () => {
    const get = (headers: Record<string, string>) => fetch(shop.url + url(), { headers: { 'accept-encoding': 'br, gzip', ...headers } });
    const avif = await get({ accept: CHROME_ACCEPT });
    expect(avif.status).toBe(200);
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(avif.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(avif.headers.get('vary')).toBe('Accept, Save-Data, ECT');
    expect(avif.headers.get('content-encoding')).toBeNull();
    // Asked again by another browser at once: the shop's page cache must not answer with the first one's picture.
    const webp = await get({ accept: 'image/webp,*/*' });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    const saving = await get({ accept: CHROME_ACCEPT, 'save-data': 'on' });
    expect((await sharp(Buffer.from(await saving.arrayBuffer())).metadata()).width).toBe(160);
    expect((await sharp(Buffer.from(await avif.arrayBuffer())).metadata()).width).toBe(480);
  });

  it('are kept in DATA_DIR/image-cache, and the shop starts again on that folder and serves them from it', async () => {
    const first = Buffer.from(await (await fetch(shop.url + url(), { headers: { accept: CHROME_ACCEPT } })).arrayBuffer());
    const kept = (fs.readdirSync(path.join(dataDir, 'image-cache'), { recursive: true }) as string[]).filter((f) => f.endsWith('.avif'));
    expect(kept.some((f) => f.endsWith(`${photos[0]!.sha256}.jpg-480.avif`))).toBe(true);
    await shop.stop();
    shop = await startBuiltServer({ env: { DATA_DIR: dataDir } });
    const again = Buffer.from(await (await fetch(shop.url + url(), { headers: { accept: CHROME_ACCEPT } })).arrayBuffer());
    expect(again.equals(first)).toBe(true);
  });
});
