// Pictures generated from the catalogue, so every product has an image of its own without image files.
import { eq } from 'drizzle-orm';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { CATEGORY_ID_SLUG } from '../../lib/ids.ts';
import type { Database } from '../db/client.ts';
import { categories, productImages, products } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { findCategory } from '../services/catalogue.ts';
import { pictureSvg } from '../services/images.ts';

const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
  'X-Content-Type-Options': 'nosniff',
};

export function registerImageRoutes(app: OpenAPIHono, db: Database) {
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
