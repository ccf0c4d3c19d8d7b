// The image pipeline over HTTP: originals as stored, and the sizes made from them once (AVIF, WebP or JPEG by Accept,
// the smallest under Save-Data), kept on disk, with headers that let any cache keep them for a year.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageSizer, makeSizedImage, saveImageFile, type SavedImage } from '../../src/server/services/image-files.ts';
import { sizedImageUrl, type PictureWidth } from '../../src/lib/picture.ts';
import { errorOf, startTestApi, type TestApi } from './harness.ts';

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let api: TestApi;
let cacheDir: string;
/** A 400×200 red photo (wider than tall), a small PNG and a drawn SVG, stored as an import or the seed would. */
let wide: SavedImage;
let small: SavedImage;
let drawing: SavedImage;

beforeAll(async () => {
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-image-cache-test-'));
  api = await startTestApi({ imageCacheDir: cacheDir });
  const red = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#d00' } }).jpeg().toBuffer();
  wide = await saveImageFile(api.db, red, 'red.jpg');
  const green = await sharp({ create: { width: 100, height: 50, channels: 4, background: '#0a0' } }).png().toBuffer();
  small = await saveImageFile(api.db, green, 'green.png');
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><rect width="400" height="400" fill="#06c"/></svg>';
  drawing = await saveImageFile(api.db, new TextEncoder().encode(svg), 'pack.svg');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

const sized = (image: SavedImage, width: PictureWidth) => sizedImageUrl(image.url, width)!;
const get = (url: string, headers: Record<string, string> = {}) => fetch(api.baseUrl + url, { headers });
async function pictureOf(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer());
  const { format, width, height } = await sharp(bytes).metadata();
  return { bytes, format, width, height };
}
async function pixel(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}
const isWhite = ([r, g, b]: number[]) => r! > 240 && g! > 240 && b! > 240;
const isRed = ([r, g, b]: number[]) => r! > 180 && g! < 60 && b! < 60;

describe('originals', () => {
  it('are served as stored, with their type, for a year', async () => {
    const res = await get(wide.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    const stored = await pictureOf(res);
    expect([stored.format, stored.width, stored.height]).toEqual(['jpeg', 400, 200]);
  });

  it('an SVG original may run nothing when opened by itself', async () => {
    const res = await get(drawing.url);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('an unknown picture, or a known one under another extension, is a 404 in the API error shape', async () => {
    for (const url of [`/api/images/files/${'0'.repeat(64)}.jpg`, wide.url.replace('.jpg', '.png'), sized(wide, 320).replace('.jpg', '.webp')]) {
      const res = await get(url, { accept: CHROME_ACCEPT });
      expect(res.status, url).toBe(404);
      expect((await errorOf(res)).code).toBe('not_found');
    }
  });
});

describe('sizes', () => {
  it('a browser that takes AVIF gets AVIF, square, the width asked, contained on white', async () => {
    const res = await get(sized(wide, 320), { accept: CHROME_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/avif');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('vary')).toBe('Accept, Save-Data, ECT');
    const picture = await pictureOf(res);
    expect([picture.format, picture.width, picture.height]).toEqual(['heif', 320, 320]);
    // The 2:1 photo fills the middle band; above and below it is white.
    expect(isWhite(await pixel(picture.bytes, 160, 10))).toBe(true);
    expect(isRed(await pixel(picture.bytes, 160, 160))).toBe(true);
  });

  it('WebP for a browser without AVIF, JPEG for one that names neither (or refuses them with q=0)', async () => {
    const cases = [
      ['image/webp,image/*,*/*;q=0.8', 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
      ['image/avif;q=0,image/webp;q=0,*/*', 'image/jpeg', 'jpeg'],
    ] as const;
    for (const [accept, type, format] of cases) {
      const res = await get(sized(wide, 160), { accept });
      expect(res.headers.get('content-type'), accept).toBe(type);
      expect((await pictureOf(res)).format).toBe(format);
    }
  });

  it('Save-Data: on gets the smallest width whatever width the page asked for', async () => {
    const res = await get(sized(drawing, 640), { accept: CHROME_ACCEPT, 'save-data': 'on' });
    expect(res.status).toBe(200);
    expect((await pictureOf(res)).width).toBe(160);
    const plain = await get(sized(drawing, 640), { accept: CHROME_ACCEPT });
    expect((await pictureOf(plain)).width).toBe(640);
  });

  it('a 2G connection (the ECT client hint) gets the smallest width too; 3G and 4G get the width asked', async () => {
    for (const ect of ['2g', 'slow-2g']) {
      expect((await pictureOf(await get(sized(drawing, 480), { accept: CHROME_ACCEPT, ect }))).width, ect).toBe(160);
    }
    for (const ect of ['3g', '4g']) {
      expect((await pictureOf(await get(sized(drawing, 480), { accept: CHROME_ACCEPT, ect }))).width, ect).toBe(480);
    }
  });

  it('a photo is never enlarged; a drawing is rendered sharp at the width asked', async () => {
    const photo = await pictureOf(await get(sized(small, 960), { accept: CHROME_ACCEPT }));
    expect([photo.width, photo.height]).toEqual([100, 100]);
    const drawn = await pictureOf(await get(sized(drawing, 960), { accept: 'image/webp' }));
    expect([drawn.width, drawn.height]).toEqual([960, 960]);
  });

  it('each width and format has its own ETag, and a browser that has it gets a 304', async () => {
    const avif = await get(sized(wide, 480), { accept: CHROME_ACCEPT });
    const webp = await get(sized(wide, 480), { accept: 'image/webp' });
    const etag = avif.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(webp.headers.get('etag')).not.toBe(etag);
    const again = await get(sized(wide, 480), { accept: CHROME_ACCEPT, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toBe('Accept, Save-Data, ECT');
  });

  it('a width the API does not make is a 404 naming the widths it makes', async () => {
    const res = await get(sized(wide, 320).replace('/320/', '/321/'));
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toContain('160, 320, 480, 640, 960');
  });

  it('a phone photo is turned upright by its EXIF orientation before it is sized', async () => {
    // Stored 40×20 (landscape) with orientation 6: shown turned a quarter, i.e. portrait, so the white is left and right.
    const turned = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#d00' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const saved = await saveImageFile(api.db, turned, 'phone.jpg');
    const picture = await pictureOf(await get(sized(saved, 160), { accept: 'image/webp' }));
    expect(picture.width).toBe(40);
    expect(isWhite(await pixel(picture.bytes, 2, 20))).toBe(true);
    expect(isRed(await pixel(picture.bytes, 20, 2))).toBe(true);
  });
});

describe('the disk cache', () => {
  const filesIn = (dir: string) =>
    (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());

  it('keeps each size the API made, whole, under the cache folder', async () => {
    await get(sized(drawing, 320), { accept: CHROME_ACCEPT });
    const files = filesIn(cacheDir);
    expect(files.some((f) => f.endsWith(`${drawing.sha256}.svg-320.avif`))).toBe(true);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('makes a size once, however many ask at the same time, and never again, even in another process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kirana-image-sizer-'));
    try {
      let made = 0;
      const counting: typeof makeSizedImage = (...args) => {
        made++;
        return makeSizedImage(...args);
      };
      const sizer = createImageSizer(api.db, dir, { make: counting });
      const answers = await Promise.all(Array.from({ length: 8 }, () => sizer(wide.sha256, 'jpg', 320, 'webp')));
      expect(made).toBe(1);
      expect(new Set(answers.map((a) => a!.body.toString('base64'))).size).toBe(1);
      await sizer(wide.sha256, 'jpg', 320, 'webp');
      // A second process (a new sizer) on the same folder reads the file.
      const other = await createImageSizer(api.db, dir, { make: counting })(wide.sha256, 'jpg', 320, 'webp');
      expect(made).toBe(1);
      expect(other!.body.equals(answers[0]!.body)).toBe(true);
      expect(filesIn(dir)).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a cache folder that cannot be written still answers the picture, and says why it could not keep it', async () => {
    const notAFolder = path.join(cacheDir, 'a-file');
    fs.writeFileSync(notAFolder, 'in the way');
    const problems: unknown[] = [];
    const sizer = createImageSizer(api.db, notAFolder, { logCacheError: (error) => problems.push(error) });
    const answer = await sizer(small.sha256, 'png', 160, 'webp');
    expect((await sharp(answer!.body).metadata()).format).toBe('webp');
    expect(problems).toHaveLength(1);
  });
});
