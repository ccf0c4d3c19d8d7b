// A grocer's catalogue import (`npm run import`, docs/importing-products.md): the checked CSV applied in one
// transaction. Products are found again by their handle and packs by their name, and updated in place, so ids (and
// with them links, carts, wishlists and reviews) survive; a row that says what the database already holds writes
// nothing. Used by the grocer's route (the shop running) and by the command itself (the shop stopped): one code.
import { and, asc, eq, inArray, isNotNull, max, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { brands, categories, imageFiles, productImages, products, productSeo, productVariantPrices, productVariants } from '../db/schema.ts';
import { ApiError, badRequest } from '../errors.ts';
import { metaDescription, metaTitle } from '../seed/index.ts';
import { imageFileUrl, saveImageFile, type OriginalType, type SavedImage } from './image-files.ts';
import { parseCatalogue, type ImportProduct } from './import-csv.ts';
import type { ImportSummaryDto } from '../import-schemas.ts';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The file cannot be imported: every problem, `line N: column: what is wrong`. Nothing was written. */
export class ImportRejected extends ApiError {
  readonly problems: string[];
  constructor(problems: string[]) {
    const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
    super(400, 'bad_request', `The catalogue has ${count}; nothing was imported.\n${problems.join('\n')}`);
    this.problems = problems;
  }
}

/** JPEG, PNG or WebP by their first bytes. A grocer's SVG is refused: it could carry script to the shop's origin. */
export function isPhoto(bytes: Uint8Array): boolean {
  const starts = (offset: number, ascii: number[]) => ascii.every((b, i) => bytes[offset + i] === b);
  return (
    starts(0, [0xff, 0xd8, 0xff]) ||
    starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50]))
  );
}

/** Stores one of a grocer's photos (the original; the pipeline serves its sizes). `name` is its file name. */
export async function saveImportPhoto(db: Database, bytes: Uint8Array, name: string): Promise<SavedImage> {
  if (!isPhoto(bytes)) throw badRequest(`'${name}' is not a JPEG, PNG or WebP photo`);
  return saveImageFile(db, bytes, `'${name}'`);
}

/** Key of the transaction-level advisory lock an import holds ("import"). */
const IMPORT_LOCK_KEY = 0x696d706f7274;

/** Rows per INSERT and ids per `in (...)`: few round trips, far under PostgreSQL's 65,535 parameters. */
const BATCH = 500;

/** Tile colours of new categories: white text on each has contrast >= 4.5:1, like the seed's. */
const CATEGORY_COLOURS = ['#2E7D32', '#1565C0', '#8D4E14', '#6A1B9A', '#AD1457', '#00695C', '#4E342E', '#37474F', '#C62828', '#283593'];

function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const lower = (text: string) => text.toLowerCase();

/** A category id for a new category: its name as a slug ('Tea & Coffee' → 'tea-and-coffee'). */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || 'category';
}

function colourOf(name: string): string {
  let hash = 0;
  for (const ch of lower(name)) hash = (Math.imul(hash, 31) + ch.codePointAt(0)!) >>> 0;
  return CATEGORY_COLOURS[hash % CATEGORY_COLOURS.length]!;
}

/** The name without its brand in front ('Tata Sampann Toor Dal' → 'Toor Dal'), as the seed's short names are. */
function shortNameOf(name: string, brand: string): string {
  const rest = lower(name).startsWith(`${lower(brand)} `) ? name.slice(brand.length).trim() : '';
  return rest || name;
}

function seoOf(p: ImportProduct, shortName: string, pricePaise: number) {
  const keywords = [shortName, p.brand, p.category, `buy ${shortName} online`, 'kirana', 'online grocery'];
  return {
    metaTitle: metaTitle(p.name),
    metaDescription: metaDescription(p.name, pricePaise, p.description),
    metaKeywords: keywords.join(', ').toLowerCase(),
  };
}

/** Orders `line N: …` problems by N. */
const byLine = (a: string, b: string) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0]);

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

type ExistingProduct = Awaited<ReturnType<typeof readExisting>>['products'][number];
type ExistingVariant = Awaited<ReturnType<typeof readExisting>>['variants'][number];

/** What the database holds for these handles: products, their packs with prices, pictures and SEO rows. */
async function readExisting(tx: Transaction, handles: string[]) {
  const found = [];
  for (const batch of chunks(handles)) {
    found.push(
      ...(await tx
        .select({
          id: products.id,
          handle: products.handle,
          name: products.name,
          shortName: products.shortName,
          shortCode: products.shortCode,
          description: products.description,
          pricePaise: products.pricePaise,
          mrpPaise: products.mrpPaise,
          type: products.type,
          brandId: products.brandId,
          categoryId: products.categoryId,
          priorityTag: products.priorityTag,
          stock: products.stock,
          foodType: products.foodType,
          netQuantity: products.netQuantity,
          countryOfOrigin: products.countryOfOrigin,
          manufacturer: products.manufacturer,
          shelfLife: products.shelfLife,
          fssaiLicence: products.fssaiLicence,
        })
        .from(products)
        .where(inArray(products.handle, batch))),
    );
  }
  const ids = found.map((p) => p.id);
  const variants = [];
  const images = [];
  const seo = [];
  for (const batch of chunks(ids)) {
    variants.push(
      ...(await tx
        .select({
          id: productVariants.id,
          productId: productVariants.productId,
          name: productVariants.name,
          position: productVariants.position,
          stock: productVariants.stock,
          priceId: productVariantPrices.id,
          salesPricePaise: productVariantPrices.salesPricePaise,
          mrpPaise: productVariantPrices.mrpPaise,
        })
        .from(productVariants)
        .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
        .where(inArray(productVariants.productId, batch))
        .orderBy(asc(productVariants.position), asc(productVariants.id))),
    );
    images.push(
      ...(await tx
        .select({ productId: productImages.productId, imageUrl: productImages.imageUrl })
        .from(productImages)
        .where(inArray(productImages.productId, batch))
        .orderBy(asc(productImages.position), asc(productImages.id))),
    );
    seo.push(...(await tx.select().from(productSeo).where(inArray(productSeo.productId, batch))));
  }
  return { products: found, variants, images, seo };
}

export interface ImportOptions {
  /** Called after each product is applied (done of total), for the command's progress line. */
  progress?: (done: number, total: number) => void;
}

/**
 * Imports a catalogue CSV. `images` maps the file names of its images column to the SHA-256 of pictures already stored
 * (saveImageFile). Any problem, in the file or against the database, throws ImportRejected listing every one, and the
 * transaction leaves the catalogue as it was.
 */
export async function importCatalogue(
  db: Database,
  csv: string,
  images: Readonly<Record<string, string>>,
  { progress }: ImportOptions = {},
): Promise<ImportSummaryDto> {
  const parsed = parseCatalogue(csv, { imageExists: (name) => Object.hasOwn(images, name) });
  if (parsed.errors.length > 0) throw new ImportRejected(parsed.errors);

  return db.transaction(async (tx) => {
    // One import at a time: two at once would both create the same new handle, brand or category.
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
    const problems: string[] = [];

    // Pictures: each named file must be a stored original.
    const shas = [...new Set(parsed.products.flatMap((p) => p.images.map((name) => images[name]!)))];
    const urlBySha = new Map<string, string>();
    for (const batch of chunks(shas)) {
      const rows = await tx
        .select({ sha256: imageFiles.sha256, contentType: imageFiles.contentType })
        .from(imageFiles)
        .where(inArray(imageFiles.sha256, batch));
      for (const r of rows) urlBySha.set(r.sha256, imageFileUrl(r.sha256, r.contentType as OriginalType));
    }
    const urlsOf = (p: ImportProduct) =>
      p.images.flatMap((name) => {
        const url = urlBySha.get(images[name]!);
        if (!url) problems.push(`line ${p.line}: images: '${name}' was not uploaded to the shop`);
        return url ? [url] : [];
      });

    const existing = await readExisting(
      tx,
      parsed.products.map((p) => p.handle),
    );
    const productByHandle = new Map(existing.products.map((p) => [p.handle!, p]));
    const variantsOf = Map.groupBy(existing.variants, (v) => v.productId);
    const imagesOf = Map.groupBy(existing.images, (i) => i.productId);
    const seoByProduct = new Map(existing.seo.map((s) => [s.productId, s]));

    // A plain product cannot become one sold in pack sizes or back by import: its cart lines and orders name no pack
    // (or a pack), and would no longer fit it.
    const wanted = parsed.products.map((p) => {
      const plain = p.packs.length === 1 && p.packs[0]!.name === '';
      const before = productByHandle.get(p.handle);
      if (before && (before.type === 'normal') !== plain) {
        problems.push(
          plain
            ? `line ${p.line}: pack: ${p.handle} is sold in pack sizes (${(variantsOf.get(before.id) ?? []).map((v) => v.name).join(', ')}); give each row its pack`
            : `line ${p.line}: pack: ${p.handle} was imported as a plain product (no pack); it cannot get pack sizes: give it a new handle`,
        );
      }
      return { p, plain, before, imageUrls: urlsOf(p) };
    });
    if (problems.length > 0) throw new ImportRejected(problems.sort(byLine));

    // Brands and categories: found by name in any letter case, else created (after the seed's, in file order).
    const brandIds = new Map((await tx.select({ id: brands.id, name: brands.name }).from(brands)).map((b) => [lower(b.name), b.id]));
    const [{ top: brandTop } = { top: 0 }] = await tx.select({ top: max(brands.priority) }).from(brands);
    const brandsCreated: string[] = [];
    for (const name of [...new Map(parsed.products.map((p) => [lower(p.brand), p.brand])).values()]) {
      if (brandIds.has(lower(name))) continue;
      const [row] = await tx
        .insert(brands)
        .values({ name, priority: (brandTop ?? 0) + 10 * (brandsCreated.length + 1) })
        .returning({ id: brands.id });
      brandIds.set(lower(name), row!.id);
      brandsCreated.push(name);
    }
    const categoryRows = await tx.select({ id: categories.id, name: categories.name, priority: categories.priority }).from(categories);
    const categoryIds = new Map(categoryRows.map((c) => [lower(c.name), c.id]));
    const takenIds = new Set(categoryRows.map((c) => c.id));
    const categoryTop = Math.max(0, ...categoryRows.map((c) => c.priority));
    const categoriesCreated: string[] = [];
    for (const name of [...new Map(parsed.products.map((p) => [lower(p.category), p.category])).values()]) {
      if (categoryIds.has(lower(name))) continue;
      const base = slugOf(name);
      let id = base;
      for (let n = 2; takenIds.has(id); n++) id = `${base}-${n}`;
      await tx.insert(categories).values({ id, name, colour: colourOf(name), priority: categoryTop + 10 * (categoriesCreated.length + 1) });
      takenIds.add(id);
      categoryIds.set(lower(name), id);
      categoriesCreated.push(name);
    }

    const [{ top: tagTop } = { top: 0 }] = await tx.select({ top: max(products.priorityTag) }).from(products).where(isNotNull(products.priorityTag));
    let nextTag = (tagTop ?? 0) + 1;

    const summary: ImportSummaryDto = {
      rows: parsed.rows,
      products: { created: 0, updated: 0, unchanged: 0 },
      packs: { created: 0, updated: 0, offShelf: 0 },
      pictures: shas.length,
      brandsCreated,
      categoriesCreated,
      changed: brandsCreated.length > 0 || categoriesCreated.length > 0,
    };

    const fresh: { w: (typeof wanted)[number]; row: typeof products.$inferInsert }[] = [];
    let done = 0;
    for (const w of wanted) {
      const { p, plain, before } = w;
      const first = p.packs[0]!;
      const shortName = shortNameOf(p.name, p.brand);
      const row = {
        name: p.name,
        shortName,
        shortCode: p.handle.toUpperCase(),
        description: p.description,
        pricePaise: first.pricePaise,
        mrpPaise: first.mrpPaise,
        type: plain ? 'normal' : 'variant',
        brandId: brandIds.get(lower(p.brand))!,
        categoryId: categoryIds.get(lower(p.category))!,
        // A hot product keeps its place among the hot ones; a new one comes after them.
        priorityTag: p.hot ? (before?.priorityTag ?? nextTag++) : null,
        // Only the facts the file has a column for: a file without one leaves that fact as it was.
        ...p.facts,
      };
      if (!before) {
        // A pack-size product's stock is the sum of its packs' (a trigger adds them as they are inserted).
        fresh.push({ w, row: { ...row, handle: p.handle, stock: plain ? first.stock : 0 } });
        continue;
      }
      let changed = false;
      const productChanges = Object.fromEntries(
        Object.entries({ ...row, ...(plain ? { stock: first.stock } : {}) }).filter(
          ([key, value]) => before[key as keyof ExistingProduct] !== value,
        ),
      );
      if (Object.keys(productChanges).length > 0) {
        await tx.update(products).set(productChanges).where(eq(products.id, before.id));
        changed = true;
      }
      if (!plain && (await applyPacks(tx, before.id, p, variantsOf.get(before.id) ?? [], summary))) changed = true;
      const oldUrls = (imagesOf.get(before.id) ?? []).map((i) => i.imageUrl);
      if (!sameList(oldUrls, w.imageUrls)) {
        await tx.delete(productImages).where(eq(productImages.productId, before.id));
        if (w.imageUrls.length > 0) {
          await tx.insert(productImages).values(w.imageUrls.map((imageUrl, position) => ({ productId: before.id, imageUrl, position })));
        }
        changed = true;
      }
      const seo = seoOf(p, shortName, first.pricePaise);
      const oldSeo = seoByProduct.get(before.id);
      if (!oldSeo) {
        await tx.insert(productSeo).values({ productId: before.id, ...seo });
        changed = true;
      } else if (oldSeo.metaTitle !== seo.metaTitle || oldSeo.metaDescription !== seo.metaDescription || oldSeo.metaKeywords !== seo.metaKeywords) {
        await tx.update(productSeo).set(seo).where(eq(productSeo.productId, before.id));
        changed = true;
      }
      summary.products[changed ? 'updated' : 'unchanged']++;
      progress?.(++done, wanted.length);
    }

    // New products, a batch at a time: the products, then their packs and prices, pictures and SEO rows.
    for (const batch of chunks(fresh)) {
      const rows = await tx.insert(products).values(batch.map((f) => f.row)).returning({ id: products.id, handle: products.handle });
      const idOf = new Map(rows.map((r) => [r.handle!, r.id]));
      const packs = batch.flatMap(({ w }) =>
        w.plain ? [] : w.p.packs.map((pack, position) => ({ productId: idOf.get(w.p.handle)!, pack, position })),
      );
      for (const packBatch of chunks(packs)) {
        const variantRows = await tx
          .insert(productVariants)
          .values(packBatch.map(({ productId, pack, position }) => ({ productId, name: pack.name, position, stock: pack.stock })))
          .returning({ id: productVariants.id, productId: productVariants.productId, position: productVariants.position });
        const variantId = new Map(variantRows.map((v) => [`${v.productId}|${v.position}`, v.id]));
        await tx.insert(productVariantPrices).values(
          packBatch.map(({ productId, pack, position }) => ({
            variantId: variantId.get(`${productId}|${position}`)!,
            salesPricePaise: pack.pricePaise,
            mrpPaise: pack.mrpPaise,
          })),
        );
        summary.packs.created += packBatch.length;
      }
      const pictures = batch.flatMap(({ w }) => w.imageUrls.map((imageUrl, position) => ({ productId: idOf.get(w.p.handle)!, imageUrl, position })));
      for (const pictureBatch of chunks(pictures)) await tx.insert(productImages).values(pictureBatch);
      await tx.insert(productSeo).values(
        batch.map(({ w, row }) => ({ productId: idOf.get(w.p.handle)!, ...seoOf(w.p, row.shortName, row.pricePaise) })),
      );
      summary.products.created += batch.length;
      done += batch.length;
      progress?.(done, wanted.length);
    }
    summary.changed ||= summary.products.created + summary.products.updated > 0;
    return summary;
  });
}

/**
 * Brings a product's packs to the file's: prices, stock and order updated in place by pack name, new packs added. A
 * pack no longer in the file stays (carts and orders name it) with no stock, so it shows as sold out. True if
 * anything changed.
 */
async function applyPacks(tx: Transaction, productId: number, p: ImportProduct, before: ExistingVariant[], summary: ImportSummaryDto) {
  let changed = false;
  const byName = new Map(before.map((v) => [v.name, v]));
  for (const [position, pack] of p.packs.entries()) {
    const old = byName.get(pack.name);
    byName.delete(pack.name);
    if (!old) {
      const [variant] = await tx
        .insert(productVariants)
        .values({ productId, name: pack.name, position, stock: pack.stock })
        .returning({ id: productVariants.id });
      await tx.insert(productVariantPrices).values({ variantId: variant!.id, salesPricePaise: pack.pricePaise, mrpPaise: pack.mrpPaise });
      summary.packs.created++;
      changed = true;
      continue;
    }
    let packChanged = false;
    if (old.position !== position || old.stock !== pack.stock) {
      await tx.update(productVariants).set({ position, stock: pack.stock }).where(eq(productVariants.id, old.id));
      packChanged = true;
    }
    if (old.priceId === null) {
      await tx.insert(productVariantPrices).values({ variantId: old.id, salesPricePaise: pack.pricePaise, mrpPaise: pack.mrpPaise });
      packChanged = true;
    } else if (old.salesPricePaise !== pack.pricePaise || old.mrpPaise !== pack.mrpPaise) {
      await tx
        .update(productVariantPrices)
        .set({ salesPricePaise: pack.pricePaise, mrpPaise: pack.mrpPaise })
        .where(eq(productVariantPrices.id, old.priceId));
      packChanged = true;
    }
    if (packChanged) summary.packs.updated++;
    changed ||= packChanged;
  }
  // Packs the file no longer names: after the file's packs, with nothing on the shelf.
  let position = p.packs.length;
  for (const gone of byName.values()) {
    if (gone.stock !== 0 || gone.position < p.packs.length) {
      await tx
        .update(productVariants)
        .set({ stock: 0, position: Math.max(gone.position, position++) })
        .where(and(eq(productVariants.id, gone.id), eq(productVariants.productId, productId)));
      summary.packs.offShelf++;
      changed = true;
    }
  }
  return changed;
}

