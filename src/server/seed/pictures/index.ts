// The demo catalogue's pictures: which ones each product and category shows, drawn once per distinct picture (a
// brand's pack of a product, a product's back, a food) and stored as originals in image_files by their SHA-256.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { imageFiles } from '../../db/schema.ts';
import { imageFileUrl } from '../../services/image-files.ts';
import * as data from '../data.ts';
import type { CataloguePlan, PlannedProduct } from '../index.ts';
import { drawBack, drawCategoryTile, drawFood, drawFront, PICTURE_SIZE } from './draw.ts';
import { foodIconOf, packKindOf } from './kinds.ts';

export interface CataloguePictures {
  /** Each distinct picture once, as SVG text. */
  svgs: string[];
  /** Per product of the plan, in its order: indexes into svgs in gallery order (front, the food, the back). */
  products: number[][];
  /**
   * Per product of the plan, in its order: for each of its pack sizes, the index of that pack's own picture (its size
   * on the label, drawn bigger as the size grows). The first pack's is the product's front.
   */
  packs: number[][];
  /** Per category of the plan, in its order: the index of its tile in svgs. */
  categories: number[];
}

const MEASURED = /^\d+(\.\d+)?\s*(g|kg|ml|l)$/;

/** The smallest of a product's pack sizes is drawn at this size, the largest at full size. */
const SMALLEST_PACK_SCALE = 0.82;

/** How big pack `position` of `count` (smallest first) is drawn; 1 for a product sold in one size. */
function packScale(position: number, count: number): number {
  return count < 2 ? 1 : SMALLEST_PACK_SCALE + ((1 - SMALLEST_PACK_SCALE) * position) / (count - 1);
}

/** The name printed on a pack: the base product's, without notes in brackets ('Bhindi (Lady Finger)' → 'Bhindi'). */
function packName(shortName: string): string {
  return shortName.replace(/\s*\([^)]*\)/g, '').trim() || shortName;
}

/** The pack size printed on the front: the first pack of a product sold in sizes, else its weight, volume or count. */
function printedPack(product: PlannedProduct, basePack: string): string | undefined {
  const size = product.variants[0]?.name ?? (MEASURED.test(basePack) ? basePack : /\((\d+ pcs)\)/.exec(product.shortName)?.[1]);
  const multi = /\(Pack of (\d+)\)$/.exec(product.name)?.[1];
  return size && multi ? `${multi} x ${size}` : size;
}

/** Decides and draws every picture of a planned catalogue; the same plan always gives the same pictures. */
export function drawCataloguePictures(plan: CataloguePlan): CataloguePictures {
  const svgs: string[] = [];
  const indexByKey = new Map<string, number>();
  const picture = (key: string, draw: () => string): number => {
    let index = indexByKey.get(key);
    if (index === undefined) {
      index = svgs.push(draw()) - 1;
      indexByKey.set(key, index);
    }
    return index;
  };

  const baseByKey = new Map(data.categories.flatMap((c) => c.products.map((b) => [`${c.id}|${b[0]}`, b] as const)));
  const colourOf = new Map(plan.categories.map((c) => [c.id, c.colour]));

  const packs: number[][] = [];
  const products = plan.products.map((p) => {
    const base = baseByKey.get(`${p.categoryId}|${p.shortName}`);
    if (!base) throw new Error(`No base product ${p.shortName} in ${p.categoryId}`);
    const colour = colourOf.get(p.categoryId) ?? '#455a64';
    const icon = foodIconOf(p.categoryId, p.shortName);
    const kind = packKindOf(p.categoryId, p.shortName);
    const name = packName(p.shortName);
    const unit = /\b(ml|l)$/.test(base[1]) ? 'ml' : 'g';
    const front = (pack: string | undefined, scale: number) =>
      picture(`front|${p.brandName}|${name}|${pack ?? ''}|${icon}|${kind}|${scale}`, () =>
        drawFront({ brand: p.brandName, name, pack, icon, kind, scale }),
      );
    packs.push(p.variants.map((v, i) => front(v.name, packScale(i, p.variants.length))));
    const gallery = [
      () => front(printedPack(p, base[1]), packScale(0, p.variants.length)),
      () => picture(`food|${icon}|${colour}`, () => drawFood(icon, colour)),
      () => picture(`back|${p.categoryId}|${name}|${unit}`, () => drawBack({ categoryId: p.categoryId, name, unit, icon, colour })),
    ];
    return gallery.slice(0, p.imageCount).map((draw) => draw());
  });

  const categories = plan.categories.map((c) => {
    const seed = data.categories.find((s) => s.id === c.id);
    const icons = [...new Set((seed?.products ?? []).map((b) => foodIconOf(c.id, b[0])))].slice(0, 3);
    return picture(`category|${c.id}`, () => drawCategoryTile(icons, c.colour));
  });

  return { svgs, products, packs, categories };
}

/** Rows per INSERT: the pictures are a few KB each. */
const PICTURE_BATCH = 500;

/**
 * Stores drawn pictures as originals and returns their URLs, in order. saveImageFile would ask sharp for each
 * picture's type and size (about a millisecond each); these are our own SVGs, all PICTURE_SIZE square, and tens of
 * thousands of them at the large catalogue sizes, so they go in batches (same table, same URLs, same idempotence).
 * The SVG travels as text and becomes bytes in the database: sending bytea parameters takes 2.5 times as long.
 */
export async function storePictures(db: Pick<Database, 'insert'>, svgs: readonly string[]): Promise<string[]> {
  const rows = svgs.map((svg) => ({
    sha256: createHash('sha256').update(svg, 'utf8').digest('hex'),
    contentType: 'image/svg+xml',
    bytes: sql<Uint8Array>`convert_to(${svg}, 'UTF8')`,
    width: PICTURE_SIZE,
    height: PICTURE_SIZE,
  }));
  for (let i = 0; i < rows.length; i += PICTURE_BATCH) {
    await db.insert(imageFiles).values(rows.slice(i, i + PICTURE_BATCH)).onConflictDoNothing();
  }
  return rows.map((r) => imageFileUrl(r.sha256, 'image/svg+xml'));
}
