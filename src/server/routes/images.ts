// Pictures: the originals stored by their SHA-256 and the sizes made from them (src/lib/picture.ts names the URLs),
// and the pictures generated from the catalogue's names for data without picture files.
import { eq } from 'drizzle-orm';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { CATEGORY_ID_SLUG } from '../../lib/ids.ts';
import { PICTURE_WIDTHS, type PictureWidth } from '../../lib/picture.ts';
import type { Database } from '../db/client.ts';
import { categories, productImages, products } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { findCategory } from '../services/catalogue.ts';
import { chooseSizedFormat, createImageSizer, readImageFile, widthFor } from '../services/image-files.ts';
import { pictureSvg } from '../services/images.ts';

// The URLs name the bytes (their SHA-256), so what is behind one never changes.
const FOREVER = 'public, max-age=31536000, immutable';
// The extension is checked against the stored type (readImageFile).
const ORIGINAL_FILE = '[0-9a-f]{64}\\.[a-z]{3,4}';
// An SVG opened by itself (a grocer's could hold a script): its own styles, nothing else, in a sandbox.
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
  'X-Content-Type-Options': 'nosniff',
};

export function registerImageRoutes(app: OpenAPIHono, db: Database, images: { cacheDir: string; logError: (error: unknown) => void }) {
  app.get(`/images/files/:file{${ORIGINAL_FILE}}`, async (c) => {
    const [sha256, extension] = c.req.param('file').split('.') as [string, string];
    const original = await readImageFile(db, sha256, extension);
    if (!original) throw notFound(`No picture ${c.req.param('file')}`);
    const svg = original.contentType === 'image/svg+xml';
    return c.body(original.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': original.contentType,
      'Cache-Control': FOREVER,
      'X-Content-Type-Options': 'nosniff',
      ...(svg ? { 'Content-Security-Policy': SVG_POLICY } : {}),
    });
  });

  // One URL per width; the format follows Accept (AVIF, WebP, else JPEG) and Save-Data or a 2G ECT asks for the smallest width, so
  // the answer varies by both and says so to every cache.
  const sizedImage = createImageSizer(db, images.cacheDir, { logCacheError: images.logError });
  app.get(`/images/:width{[0-9]{3}}/:file{${ORIGINAL_FILE}}`, async (c) => {
    const asked = Number(c.req.param('width'));
    if (!PICTURE_WIDTHS.includes(asked as PictureWidth)) {
      throw notFound(`No picture ${asked} wide: the widths are ${PICTURE_WIDTHS.join(', ')}`);
    }
    const [sha256, extension] = c.req.param('file').split('.') as [string, string];
    const width = widthFor(asked as PictureWidth, c.req.header('save-data'), c.req.header('ect'));
    const format = chooseSizedFormat(c.req.header('accept'));
    const sized = await sizedImage(sha256, extension, width, format);
    if (!sized) throw notFound(`No picture ${c.req.param('file')}`);
    const headers = { 'Cache-Control': FOREVER, Vary: 'Accept, Save-Data, ECT', ETag: sized.etag };
    if (c.req.header('if-none-match')?.split(/\s*,\s*/).includes(sized.etag)) return c.body(null, 304, headers);
    return c.body(sized.body as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': sized.contentType,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  app.get('/images/products/:file{[0-9]{1,9}-[0-9]{1,2}\\.svg}', async (c) => {
    const file = c.req.param('file');
    const [productId, position] = file.replace('.svg', '').split('-').map(Number) as [number, number];
    const imageUrl = `/api/images/products/${file}`;
    const [row] = await db
      .select({ name: products.shortName, colour: categories.colour })
      .from(productImages)
      .innerJoin(products, eq(products.id, productImages.productId))
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .where(eq(productImages.imageUrl, imageUrl));
    if (!row || productId < 1) throw notFound(`No image ${file}`);
    const svg = pictureSvg({ title: row.name, subtitle: 'Kirana', colour: row.colour, variant: position });
    return c.body(svg, 200, SVG_HEADERS);
  });

  app.get(`/images/categories/:file{${CATEGORY_ID_SLUG}\\.svg}`, async (c) => {
    const id = c.req.param('file').replace('.svg', '');
    const category = await findCategory(db, id);
    if (!category) throw notFound(`No category has id ${id}`);
    const svg = pictureSvg({ title: category.name, subtitle: 'Shop now', colour: category.colour });
    return c.body(svg, 200, SVG_HEADERS);
  });
}
