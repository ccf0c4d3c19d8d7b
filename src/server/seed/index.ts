// The demo catalogue: brands, categories and products built deterministically from ./data.ts.
// Same options + freshly truncated database (identities restarted) => the same rows and ids.
import { sql } from 'drizzle-orm';
import { formatRupees } from '../../lib/money.ts';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import * as data from './data.ts';
import type { BaseProductSeed, CategoryKind } from './data.ts';
import { drawCataloguePictures, storePictures } from './pictures/index.ts';
import { demoShelfFacts, type ShelfFacts } from './shelf-facts.ts';

export interface SeedOptions {
  /** How many products to create (default 400). */
  products?: number;
  log?: (message: string) => void;
}

export interface SeedSummary {
  brands: number;
  categories: number;
  products: number;
  variants: number;
  reviews: number;
}

const DEFAULT_PRODUCTS = 400;
const RANDOM_SEED = 0x6b1a2a;
/** Rows per INSERT: few round trips, well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH_SIZE = 1000;
/**
 * Products per brand once the hand-written brands (about 48) run out: a larger catalogue gets invented
 * brands in proportion, each selling in a few categories, instead of thousands of '(Pack of N)' repeats.
 * The default catalogue (400) and anything below 48 x 40 products have no invented brand.
 */
const PRODUCTS_PER_BRAND = 40;
const CATEGORIES_PER_EXTRA_BRAND = 4;
const MAX_HOT = 30;
/** Products are created one after the other from this date; reviews are dated from REVIEW_BASE. */
const PRODUCT_BASE = Date.UTC(2025, 9, 1);
const REVIEW_BASE = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

type Rng = () => number;

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pack sizes

interface Measure {
  /** Amount in the base unit: grams or millilitres. */
  amount: number;
  unit: 'g' | 'ml';
}

const WEIGHT_LADDER = [50, 100, 200, 250, 500, 1000, 2000, 5000, 10000];
const VOLUME_LADDER = [100, 200, 250, 500, 1000, 2000, 5000];

function parseMeasure(pack: string): Measure | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(g|kg|ml|l)$/.exec(pack);
  if (!m) return undefined;
  const n = Number(m[1]);
  switch (m[2]) {
    case 'g':
      return { amount: n, unit: 'g' };
    case 'kg':
      return { amount: n * 1000, unit: 'g' };
    case 'ml':
      return { amount: n, unit: 'ml' };
    default:
      return { amount: n * 1000, unit: 'ml' };
  }
}

function packLabel(amount: number, unit: 'g' | 'ml'): string {
  if (amount >= 1000) return `${amount / 1000} ${unit === 'g' ? 'kg' : 'l'}`;
  return `${amount} ${unit}`;
}

/** Whether a pack is a measure (500 g, 1 l) rather than a count ('1 pack', '1 box'). */
function isMeasuredPack(pack: string): boolean {
  return parseMeasure(pack) !== undefined;
}

/**
 * Sizes (in g or ml, ascending, including the usual pack) a base product could be sold in: its own
 * list when data.ts gives one, else standard sizes within 1/5x..5x of the usual pack, each at least
 * 1.6x the next smaller one (so no '200 g' next to '250 g'). Fewer than two: never a variant product.
 */
function sizeLadder(base: BaseProductSeed): number[] {
  const [name, pack, , , sizes] = base;
  const measure = parseMeasure(pack);
  if (!measure || sizes === false) return [];
  if (sizes) {
    const amounts = sizes.map((label) => {
      const m = parseMeasure(label);
      if (!m || m.unit !== measure.unit) throw new Error(`Bad size ${label} of ${name}`);
      return m.amount;
    });
    if (!amounts.includes(measure.amount)) throw new Error(`Sizes of ${name} must include ${pack}`);
    return amounts.sort((a, b) => a - b);
  }
  return standardLadder(measure);
}

function standardLadder(base: Measure): number[] {
  const standard = base.unit === 'g' ? WEIGHT_LADDER : VOLUME_LADDER;
  const inRange = standard.filter((s) => s >= base.amount / 5 && s <= base.amount * 5);
  const up: number[] = [];
  let last = base.amount;
  for (const s of inRange.filter((s) => s > base.amount)) {
    if (s / last >= 1.6) {
      up.push(s);
      last = s;
    }
  }
  const down: number[] = [];
  last = base.amount;
  for (const s of inRange.filter((s) => s < base.amount).reverse()) {
    if (last / s >= 1.6) {
      down.unshift(s);
      last = s;
    }
  }
  return [...down, base.amount, ...up];
}

// ---------------------------------------------------------------------------------------------
// Prices (paise)

/** Rounds to whole rupees or 50 paise. */
function roundToHalfRupee(paise: number): number {
  return Math.max(500, Math.round(paise / 50) * 50);
}

type MrpMode = 'none' | 'equal' | 'markup';

function mrpFor(rng: Rng, mode: MrpMode, pricePaise: number): number {
  if (mode === 'none') return 0;
  if (mode === 'equal') return pricePaise;
  const markup = 0.05 + rng() * 0.19;
  // MRPs are printed in whole rupees.
  return Math.ceil((pricePaise * (1 + markup)) / 100) * 100;
}

// ---------------------------------------------------------------------------------------------
// The plan: plain rows, no ids except the ones derived from positions.

export interface PlannedVariant {
  name: string;
  position: number;
  /** undefined: this variant has no price row (the UI hides it). */
  price: { salesPricePaise: number; mrpPaise: number } | undefined;
  /** Units on the shelf (0 for an unpriced pack, which cannot be sold). */
  stock: number;
}

export interface PlannedProduct {
  name: string;
  shortName: string;
  shortCode: string;
  description: string;
  pricePaise: number;
  mrpPaise: number;
  type: 'normal' | 'variant';
  brandName: string;
  categoryId: string;
  priorityTag: number | null;
  /** A plain product's units on the shelf; 0 for one sold in pack sizes (the database sums its packs' stock). */
  stock: number;
  createdAt: Date;
  imageCount: number;
  variants: PlannedVariant[];
  seo: { metaTitle: string; metaDescription: string; metaKeywords: string };
  reviews: { title: string; description: string; stars: number; updatedAt: Date }[];
  /** FSSAI's food type and the pack's Legal Metrology facts (issue 24). */
  facts: ShelfFacts;
}

/** A deterministic shelf count from 8 to 60 (without drawing from the random stream, so the catalogue stays as it was). */
const shelfStock = (seed: number) => 8 + (seed % 53);

export interface CataloguePlan {
  brands: { name: string; priority: number }[];
  categories: { id: string; name: string; colour: string; priority: number }[];
  products: PlannedProduct[];
}

interface Choice {
  categoryIndex: number;
  brandIndex: number;
  baseIndex: number;
  /** 0 for the first product of a brand + base, 2, 3, ... for value packs once combos run out. */
  multiPack: number;
}

function categoryAt(index: number) {
  const c = data.categories[index];
  if (!c) throw new Error(`no category ${index}`);
  return c;
}

/** The hand-written brands, then as many invented ones as a catalogue of `productCount` needs. */
export function brandsFor(productCount: number): data.BrandSeed[] {
  const extra = Math.max(0, Math.ceil(productCount / PRODUCTS_PER_BRAND) - data.brands.length);
  if (extra === 0) return data.brands;
  const { first, second, region } = data.extraBrandWords;
  const taken = new Set(data.brands.map((b) => b.name));
  const out = data.brands.slice();
  const last = data.brands.reduce((max, b) => Math.max(max, b.priority), 0);
  for (let i = 0, k = 0; k < extra; i++) {
    const f = first[i % first.length] ?? '';
    const s = second[Math.floor(i / first.length) % second.length] ?? '';
    const round = Math.floor(i / (first.length * second.length));
    if (round > region.length) throw new Error(`Too many products: at most ${(first.length * second.length * (region.length + 1) + data.brands.length) * PRODUCTS_PER_BRAND}`);
    const name = round === 0 ? `${f} ${s}` : `${f} ${region[round - 1] ?? ''} ${s}`;
    if (taken.has(name)) continue;
    taken.add(name);
    // Spread over the categories: a start and a stride that differ from brand to brand.
    const start = k % data.categories.length;
    const stride = 1 + (Math.floor(k / data.categories.length) % (data.categories.length - 1));
    const ids = Array.from({ length: CATEGORIES_PER_EXTRA_BRAND }, (_, j) => categoryAt((start + j * stride) % data.categories.length).id);
    out.push({ name, priority: last + 10 * (k + 1), categories: [...new Set(ids)] });
    k++;
  }
  return out;
}

function brandAt(brands: readonly data.BrandSeed[], index: number) {
  const b = brands[index];
  if (!b) throw new Error(`no brand ${index}`);
  return b;
}

function baseAt(categoryIndex: number, baseIndex: number): BaseProductSeed {
  const b = categoryAt(categoryIndex).products[baseIndex];
  if (!b) throw new Error(`no base product ${categoryIndex}/${baseIndex}`);
  return b;
}

/** Chooses category, brand and base product for each product. */
function chooseProducts(rng: Rng, count: number, brands: readonly data.BrandSeed[]): Choice[] {
  const categoryIndexById = new Map(data.categories.map((c, i) => [c.id, i]));
  const brandsOfCategory: number[][] = data.categories.map(() => []);
  brands.forEach((b, bi) => {
    for (const id of new Set(b.categories)) {
      const ci = categoryIndexById.get(id);
      if (ci === undefined) throw new Error(`Brand ${b.name} names unknown category ${id}`);
      brandsOfCategory[ci]?.push(bi);
    }
  });
  // Unused (own brand, base product) pairs per category, kept up to date by take(): asking the question
  // afresh for every product is quadratic and takes minutes at 50,000 products.
  const ownBrands = brandsOfCategory.map((list) => new Set(list));
  const freshCount = brandsOfCategory.map((list, ci) => list.length * categoryAt(ci).products.length);
  const used = new Map<string, number>(); // `${brand}|${category}|${base}` -> times used
  const key = (bi: number, ci: number, pi: number) => `${bi}|${ci}|${pi}`;
  const usedBrands = new Set<number>();
  const choices: Choice[] = [];

  const take = (ci: number, bi: number, pi: number): void => {
    const k = key(bi, ci, pi);
    const times = (used.get(k) ?? 0) + 1;
    used.set(k, times);
    if (times === 1 && ownBrands[ci]?.has(bi)) freshCount[ci] = (freshCount[ci] ?? 0) - 1;
    usedBrands.add(bi);
    choices.push({ categoryIndex: ci, brandIndex: bi, baseIndex: pi, multiPack: times === 1 ? 0 : times });
  };

  /** A fresh brand + base in category ci, preferring the given brands; falls back to any brand. */
  const takeFresh = (ci: number, preferredBrands: number[]): void => {
    const bases = categoryAt(ci).products.length;
    for (let attempt = 0; attempt < 24; attempt++) {
      const bi = pick(rng, preferredBrands);
      const pi = randInt(rng, 0, bases - 1);
      if (!used.has(key(bi, ci, pi))) return take(ci, bi, pi);
    }
    const freshPreferred: [number, number][] = [];
    for (const bi of preferredBrands)
      for (let pi = 0; pi < bases; pi++) if (!used.has(key(bi, ci, pi))) freshPreferred.push([bi, pi]);
    if (freshPreferred.length > 0) {
      const [bi, pi] = pick(rng, freshPreferred);
      return take(ci, bi, pi);
    }
    for (let attempt = 0; attempt < 48; attempt++) {
      const bi = randInt(rng, 0, brands.length - 1);
      const pi = randInt(rng, 0, bases - 1);
      if (!used.has(key(bi, ci, pi))) return take(ci, bi, pi);
    }
    // Every sensible combination is taken: sell an existing one as a value pack.
    take(ci, pick(rng, preferredBrands), randInt(rng, 0, bases - 1));
  };

  // 1. One signature product (the first base product) per category, brands not used yet first.
  for (let ci = 0; ci < data.categories.length && choices.length < count; ci++) {
    const own = brandsOfCategory[ci] ?? [];
    const fresh = own.filter((bi) => !usedBrands.has(bi));
    take(ci, pick(rng, fresh.length > 0 ? fresh : own), 0);
  }
  // 2. One product for every brand not used yet, in one of its own categories.
  for (let bi = 0; bi < brands.length && choices.length < count; bi++) {
    if (usedBrands.has(bi)) continue;
    const ci = categoryIndexById.get(pick(rng, brandAt(brands, bi).categories)) ?? 0;
    takeFresh(ci, [bi]);
  }
  // 3. The rest: a random category among those where a brand of its own still has a base product
  //    to offer, so categories stay balanced; once none is left, any brand in any category.
  const freshLeft = (ci: number): boolean => (freshCount[ci] ?? 0) > 0;
  let open = data.categories.map((_, ci) => ci);
  while (choices.length < count) {
    open = open.filter(freshLeft);
    const ci = open.length > 0 ? pick(rng, open) : randInt(rng, 0, data.categories.length - 1);
    takeFresh(ci, brandsOfCategory[ci] ?? []);
  }
  return choices;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

function describe(
  rng: Rng,
  kind: CategoryKind,
  notes: string[],
  values: { brand: string; short: string; pack: string | undefined; category: string },
): string {
  const openers = data.descriptionOpeners[kind].filter((t) => values.pack !== undefined || !t.includes('{pack}'));
  const sentences = [fill(pick(rng, openers), { ...values, pack: values.pack ?? '' })];
  if (rng() < 0.7) sentences.push(pick(rng, notes));
  if (rng() < 0.45) sentences.push(pick(rng, data.descriptionClosers[kind]));
  return sentences.join(' ');
}

export function metaTitle(name: string): string {
  const long = `${name} – Buy online at Kirana`;
  if (long.length <= 60) return long;
  const short = `${name} | Kirana`;
  if (short.length <= 60) return short;
  return `${name.slice(0, 60 - ' | Kirana'.length - 1).trimEnd()}… | Kirana`;
}

const META_FILLERS = [
  'Fresh stock, quick home delivery and easy returns.',
  'Order now on Kirana, your online grocery store.',
  'Best prices every day.',
];

export function metaDescription(name: string, pricePaise: number, description: string): string {
  let text = `Buy ${name} online at Kirana for ${formatRupees(pricePaise)}.`;
  const candidates = [...(description.match(/[^.!?]+[.!?]/g) ?? []).map((s) => s.trim()), ...META_FILLERS];
  for (const sentence of candidates) {
    if (text.length + 1 + sentence.length <= 160) text += ` ${sentence}`;
  }
  const words = 'Shop dals, atta, masalas, snacks and daily essentials online with fast delivery across India.'.split(' ');
  for (const word of words) {
    if (text.length >= 120) break;
    text += ` ${word}`;
  }
  return text.length > 160 ? `${text.slice(0, 159).trimEnd()}…` : text;
}

function starsFor(rng: Rng): number {
  const r = rng();
  if (r < 0.4) return 5;
  if (r < 0.72) return 4;
  if (r < 0.86) return 3;
  if (r < 0.94) return 2;
  return 1;
}

/** Builds the whole catalogue in memory; the same product count always gives the same plan. */
export function planCatalogue(productCount: number = DEFAULT_PRODUCTS): CataloguePlan {
  const n = Math.max(0, Math.floor(productCount));
  const rng = mulberry32(RANDOM_SEED);
  const brandList = brandsFor(n);
  const choices = chooseProducts(rng, n, brandList);

  // About a third are sold in pack sizes (only products whose pack is a weight or volume can be).
  const variantable = choices
    .map((c, i) => ({ i, c }))
    .filter(({ c }) => c.multiPack === 0 && sizeLadder(baseAt(c.categoryIndex, c.baseIndex)).length >= 2)
    .map(({ i }) => i);
  const variantSet = new Set(shuffled(rng, variantable).slice(0, Math.round(n / 3)));

  // Hot products: at least two variant products, tags 1..hotCount in random order.
  const hotCount = Math.min(MAX_HOT, Math.ceil(n / 4));
  const hotPicked: number[] = shuffled(rng, [...variantSet].sort((a, b) => a - b)).slice(0, Math.min(2, hotCount));
  for (const i of shuffled(rng, [...Array(n).keys()])) {
    if (hotPicked.length >= hotCount) break;
    if (!hotPicked.includes(i)) hotPicked.push(i);
  }
  const hotTag = new Map<number, number>();
  shuffled(rng, hotPicked).forEach((i, t) => hotTag.set(i, t + 1));

  // Among the rest: some with one picture only, some out of stock, some variant sizes without a price.
  const ordinary = shuffled(rng, [...Array(n).keys()].filter((i) => !hotTag.has(i)));
  const onePictureCount = n >= 2 ? Math.max(1, Math.round(n * 0.08)) : 0;
  const onePicture = new Set(ordinary.slice(0, onePictureCount));
  const outOfStock = new Set(shuffled(rng, ordinary).slice(0, Math.round(n * 0.05)));
  const ordinaryVariants = shuffled(rng, ordinary.filter((i) => variantSet.has(i)));
  const missingPriceCount = variantSet.size > 0 ? Math.max(1, Math.round(variantSet.size * 0.05)) : 0;
  const missingPrice = new Set(ordinaryVariants.slice(0, missingPriceCount));

  const products: PlannedProduct[] = choices.map((choice, i) => {
    const category = categoryAt(choice.categoryIndex);
    const brand = brandAt(brandList, choice.brandIndex);
    const base = baseAt(choice.categoryIndex, choice.baseIndex);
    const [baseName, pack, minRupees, maxRupees] = base;
    const basePrice = randInt(rng, minRupees, maxRupees) * 100 + (rng() < 0.25 ? 50 : 0);
    const r = rng();
    const mrpMode: MrpMode = r < 0.1 ? 'none' : r < 0.3 ? 'equal' : 'markup';

    let variants: PlannedVariant[] = [];
    let pricePaise = basePrice;
    let mrpPaise: number;
    let name: string;
    const measure = parseMeasure(pack);
    if (variantSet.has(i) && measure) {
      const ladder = sizeLadder(base);
      const at = ladder.indexOf(measure.amount);
      const size = Math.min(randInt(rng, 2, 4), ladder.length);
      const start = randInt(rng, Math.max(0, at - size + 1), Math.min(at, ladder.length - size));
      const sizes = ladder.slice(start, start + size);
      let previous = 0;
      variants = sizes.map((amount, position) => {
        let sales = roundToHalfRupee(basePrice * Math.pow(amount / measure.amount, 0.92));
        if (sales <= previous) sales = previous + 100;
        previous = sales;
        return {
          name: packLabel(amount, measure.unit),
          position,
          price: { salesPricePaise: sales, mrpPaise: mrpFor(rng, mrpMode, sales) },
          stock: outOfStock.has(i) ? 0 : shelfStock(i * 13 + position * 29),
        };
      });
      if (missingPrice.has(i)) {
        const victim = variants[randInt(rng, 1, variants.length - 1)];
        if (victim) {
          victim.price = undefined;
          victim.stock = 0;
        }
      }
      const first = variants[0]?.price;
      if (!first) throw new Error('first variant must have a price');
      pricePaise = first.salesPricePaise;
      mrpPaise = first.mrpPaise;
      name = `${brand.name} ${baseName}`;
    } else {
      mrpPaise = mrpFor(rng, mrpMode, pricePaise);
      const packPart = isMeasuredPack(pack) ? ` ${pack}` : '';
      name = `${brand.name} ${baseName}${packPart}`;
      if (choice.multiPack > 0) {
        pricePaise = roundToHalfRupee(basePrice * choice.multiPack * 0.95);
        mrpPaise = mrpFor(rng, mrpMode, pricePaise);
        name += ` (Pack of ${choice.multiPack})`;
      }
    }

    const isVariant = variants.length > 0;
    const description = describe(rng, category.kind, category.notes, {
      brand: brand.name,
      short: baseName,
      pack: isVariant || !isMeasuredPack(pack) ? undefined : pack,
      category: category.name,
    });

    // Every product shows its food (issue 24: 8 % used to show the default bag). These once had no picture, which drew
    // nothing from the random stream: one picture keeps it so, and the rest of the catalogue as it was.
    const imageCount = onePicture.has(i) ? 1 : randInt(rng, 1, 3);
    const reviews: PlannedProduct['reviews'] = [];
    if (rng() < 0.4) {
      const howMany = randInt(rng, 1, 6);
      for (let k = 0; k < howMany; k++) {
        const stars = starsFor(rng);
        const texts =
          stars >= 4 ? data.reviewTexts.positive : stars === 3 ? data.reviewTexts.mixed : data.reviewTexts.negative;
        const initial = data.reviewerInitials[randInt(rng, 0, data.reviewerInitials.length - 1)] ?? 'S';
        reviews.push({
          title: `${pick(rng, data.reviewerNames)} ${initial}.`,
          description: pick(rng, texts),
          stars,
          updatedAt: new Date(REVIEW_BASE + randInt(rng, 0, 89) * DAY + randInt(rng, 0, 24 * 60 - 1) * MINUTE),
        });
      }
    }

    const keywords = [baseName, brand.name, category.name, `buy ${baseName} online`, 'kirana', 'online grocery'];
    return {
      name,
      shortName: baseName,
      shortCode: `${category.code}-${String(i + 1).padStart(4, '0')}`,
      description,
      pricePaise,
      mrpPaise,
      type: isVariant ? 'variant' : 'normal',
      brandName: brand.name,
      categoryId: category.id,
      priorityTag: hotTag.get(i) ?? null,
      stock: variants.length > 0 || outOfStock.has(i) ? 0 : shelfStock(i * 37),
      createdAt: new Date(PRODUCT_BASE + i * 97 * MINUTE),
      imageCount,
      variants,
      seo: {
        metaTitle: metaTitle(name),
        metaDescription: metaDescription(name, pricePaise, description),
        metaKeywords: keywords.join(', ').toLowerCase(),
      },
      reviews,
      facts: demoShelfFacts({
        categoryId: category.id,
        kind: category.kind,
        brand: brand.name,
        baseName,
        pack,
        inPackSizes: isVariant,
        multiPack: choice.multiPack,
      }),
    };
  });

  const names = new Set<string>();
  for (const p of products) {
    if (names.has(p.name)) throw new Error(`Duplicate product name in the seed: ${p.name}`);
    names.add(p.name);
  }

  return {
    brands: brandList.map((b) => ({ name: b.name, priority: b.priority })),
    categories: data.categories.map((c) => ({ id: c.id, name: c.name, colour: c.colour, priority: c.priority })),
    products,
  };
}

// ---------------------------------------------------------------------------------------------
// Database

type Inserter = Pick<Database, 'insert'>;

function chunks<T>(rows: readonly T[], size = BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** True when the catalogue has no brands yet (a fresh database). */
export async function isCatalogueEmpty(db: Database): Promise<boolean> {
  const rows = await db.select({ id: schema.brands.id }).from(schema.brands).limit(1);
  return rows.length === 0;
}

/** Thrown by resetCatalogue when orders refer to the catalogue and `force` was not given. */
export class CatalogueInUseError extends Error {
  readonly orders: number;
  constructor(orders: number) {
    super(
      `${orders} order(s) refer to the catalogue's products; a reset would delete them. ` +
        'Run again with --force to delete every order too (carts and wishlists are always emptied).',
    );
    this.name = 'CatalogueInUseError';
    this.orders = orders;
  }
}

/**
 * Empties every catalogue table and restarts their ids; users, addresses and delivery slots stay.
 * Carts, wishlists and stock alerts are always emptied: after a reseed their product ids would name other products.
 * Orders are history a reset must not lose by accident, so with orders it refuses unless `force`, which
 * deletes the orders (lines, events, reported issues) too and frees their delivery slots.
 */
export async function resetCatalogue(db: Database, options: { force?: boolean } = {}): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(schema.orders);
    const orders = row?.n ?? 0;
    if (orders > 0 && !options.force) throw new CatalogueInUseError(orders);
    // No CASCADE: a table added later that points at products makes this fail loudly instead of being emptied unseen.
    await tx.execute(
      sql.raw(
        'TRUNCATE TABLE order_issues, order_notices, order_events, order_lines, orders, cart_lines, wishlist_items, stock_alerts, reviews, product_seo, ' +
          'product_variant_prices, product_variants, product_images, products, categories, brands RESTART IDENTITY',
      ),
    );
    if (orders > 0) await tx.update(schema.deliverySlots).set({ taken: 0 });
  });
}

/** Inserts the demo catalogue. Meant for an empty catalogue (see isCatalogueEmpty / resetCatalogue). */
export async function seedCatalogue(db: Database, options: SeedOptions = {}): Promise<SeedSummary> {
  const log = options.log ?? (() => {});
  const plan = planCatalogue(options.products ?? DEFAULT_PRODUCTS);

  const pictures = drawCataloguePictures(plan);

  return db.transaction(async (tx) => {
    const q: Inserter = tx;

    const pictureUrls = await storePictures(q, pictures.svgs);
    const urlOf = (index: number): string => {
      const url = pictureUrls[index];
      if (url === undefined) throw new Error(`No picture ${index}`);
      return url;
    };
    log(`pictures: ${pictureUrls.length}`);

    const brandIds = new Map<string, number>();
    for (const batch of chunks(plan.brands)) {
      const rows = await q.insert(schema.brands).values(batch).returning({ id: schema.brands.id, name: schema.brands.name });
      for (const r of rows) brandIds.set(r.name, r.id);
    }
    log(`brands: ${brandIds.size}`);

    const categoryRows = plan.categories.map((c, i) => ({ ...c, imageUrl: urlOf(pictures.categories[i] ?? -1) }));
    for (const batch of chunks(categoryRows)) await q.insert(schema.categories).values(batch);
    log(`categories: ${plan.categories.length}`);

    const productIds = new Map<string, number>();
    for (const batch of chunks(plan.products)) {
      const rows = await q
        .insert(schema.products)
        .values(
          batch.map((p) => {
            const brandId = brandIds.get(p.brandName);
            if (brandId === undefined) throw new Error(`Unknown brand ${p.brandName}`);
            return {
              name: p.name,
              shortName: p.shortName,
              shortCode: p.shortCode,
              description: p.description,
              pricePaise: p.pricePaise,
              mrpPaise: p.mrpPaise,
              type: p.type,
              brandId,
              categoryId: p.categoryId,
              priorityTag: p.priorityTag,
              stock: p.stock,
              createdAt: p.createdAt,
              ...p.facts,
            };
          }),
        )
        .returning({ id: schema.products.id, name: schema.products.name });
      for (const r of rows) productIds.set(r.name, r.id);
    }
    log(`products: ${productIds.size}`);
    const idOf = (p: PlannedProduct): number => {
      const id = productIds.get(p.name);
      if (id === undefined) throw new Error(`Product ${p.name} was not inserted`);
      return id;
    };

    const images = plan.products.flatMap((p, i) => {
      const productId = idOf(p);
      return (pictures.products[i] ?? []).map((picture, position) => ({ productId, imageUrl: urlOf(picture), position }));
    });
    for (const batch of chunks(images)) await q.insert(schema.productImages).values(batch);
    log(`images: ${images.length}`);

    const variants = plan.products.flatMap((p, i) => {
      const productId = idOf(p);
      return p.variants.map((v, k) => ({ productId, planned: v, imageUrl: urlOf(pictures.packs[i]?.[k] ?? -1) }));
    });
    const prices: { variantId: number; salesPricePaise: number; mrpPaise: number }[] = [];
    for (const batch of chunks(variants)) {
      const rows = await q
        .insert(schema.productVariants)
        .values(
          batch.map((v) => ({ productId: v.productId, name: v.planned.name, position: v.planned.position, stock: v.planned.stock, imageUrl: v.imageUrl })),
        )
        .returning({
          id: schema.productVariants.id,
          productId: schema.productVariants.productId,
          position: schema.productVariants.position,
        });
      const idByKey = new Map(rows.map((r) => [`${r.productId}|${r.position}`, r.id]));
      for (const v of batch) {
        const variantId = idByKey.get(`${v.productId}|${v.planned.position}`);
        if (variantId === undefined) throw new Error('Variant was not inserted');
        if (v.planned.price) prices.push({ variantId, ...v.planned.price });
      }
    }
    for (const batch of chunks(prices)) await q.insert(schema.productVariantPrices).values(batch);
    log(`variants: ${variants.length} (${prices.length} priced)`);

    const seo = plan.products.map((p) => ({ productId: idOf(p), ...p.seo }));
    for (const batch of chunks(seo)) await q.insert(schema.productSeo).values(batch);

    const reviews = plan.products.flatMap((p) => {
      const productId = idOf(p);
      return p.reviews.map((r) => ({ productId, ...r }));
    });
    for (const batch of chunks(reviews)) await q.insert(schema.reviews).values(batch);
    log(`reviews: ${reviews.length}`);

    return {
      brands: brandIds.size,
      categories: plan.categories.length,
      products: productIds.size,
      variants: variants.length,
      reviews: reviews.length,
    };
  });
}
