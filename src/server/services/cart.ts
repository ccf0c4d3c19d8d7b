// Shoppers' cart lines. Prices are never stored with a line: they are read from the catalogue each time.
import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import type { FoodType } from '../../lib/food-type.ts';
import type { CartDto, CartLineDto } from '../account-schemas.ts';
import type { Database } from '../db/client.ts';
import { cartLines, orders, productImages, products, productVariantPrices, productVariants, stockAlerts, users } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { priceSummary, type Offers } from './pricing.ts';
import { checkCoupon, withCoupon } from './coupons.ts';
import type { Coupon } from '../../lib/store-settings-schema.ts';

/** What prices a cart and bounds its lines (store.yaml's offers and limits). */
export interface CartRules {
  offers: Offers;
  limits: { unitsPerProduct: number };
  /** store.yaml's coupons (issue 25); none when left out. */
  coupons?: Coupon[];
  /** A coupon's last day is a day of the shop's clock. */
  delivery?: { timeZone: string };
  now?: () => Date;
}

export const tooManyOfOne = (max: number) => `You can order at most ${max} of one item, and this one is already in your cart.`;
/** The shelf, not the per-order limit, stops the shopper: the number is what they can have. */
export const onlyLeft = (left: number, label: string) => `Only ${left} left of ${label}.`;
/** A product, or a product and its pack size, as the cart and the order name it: 'Toor Dal (1 kg)'. */
export const lineLabel = (line: { name: string; variantName: string | null }) =>
  line.variantName ? `${line.name} (${line.variantName})` : line.name;

export interface NewLine {
  productId: number;
  /** 0 when the product is bought without a pack size. */
  variantId: number;
  qty: number;
}

interface Sellable {
  variantId: number | null;
  variantPriceId: number | null;
  /** Units on the shelf: the pack's when there is one, else the product's. */
  stock: number;
  label: string;
}

/** The product (and pack size) a shopper asks for, checked against the catalogue: sold, in stock, priced. */
async function sellable(db: Database, line: NewLine): Promise<Sellable> {
  const [product] = await db
    .select({ name: products.name, inStock: products.inStock, stock: products.stock })
    .from(products)
    .where(eq(products.id, line.productId));
  if (!product) throw notFound(`No product has id ${line.productId}`);
  if (!product.inStock) throw conflict(`Sorry, ${product.name} is out of stock right now.`);
  if (line.variantId === 0) {
    // A product sold in pack sizes has no price of its own to add at: the shopper must pick a priced one.
    const packs = await db
      .select({ priceId: productVariantPrices.id })
      .from(productVariants)
      .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .where(eq(productVariants.productId, line.productId));
    if (packs.some((p) => p.priceId !== null)) throw badRequest(`Please choose a pack size of ${product.name}.`);
    if (packs.length > 0) throw conflict(`Sorry, ${product.name} cannot be bought right now: it has no price yet.`);
    return { variantId: null, variantPriceId: null, stock: product.stock, label: product.name };
  }
  const [variant] = await db
    .select({
      productId: productVariants.productId,
      name: productVariants.name,
      stock: productVariants.stock,
      priceId: productVariantPrices.id,
    })
    .from(productVariants)
    .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
    .where(eq(productVariants.id, line.variantId));
  if (!variant || variant.productId !== line.productId) throw badRequest(`${product.name} has no pack size with id ${line.variantId}`);
  if (variant.priceId === null) throw conflict(`Sorry, ${product.name} (${variant.name}) cannot be bought right now: it has no price yet.`);
  if (variant.stock <= 0) throw conflict(`Sorry, ${product.name} (${variant.name}) is out of stock right now.`);
  return { variantId: line.variantId, variantPriceId: variant.priceId, stock: variant.stock, label: lineLabel({ name: product.name, variantName: variant.name }) };
}

/**
 * Adds to the shopper's line of this product and pack size in one statement, so adds at the same moment all count
 * on one line. A line would pass the most a shopper can order, or the units on the shelf: nothing changes, 409 with
 * the number they can have ('Only 8 left of Toor Dal (1 kg).').
 */
export async function addToCart(db: Database, userId: number, line: NewLine, maxQty: number): Promise<void> {
  if (line.qty > maxQty) throw conflict(`You can order at most ${maxQty} of one item.`);
  const { variantId, variantPriceId, stock, label } = await sellable(db, line);
  const most = Math.min(maxQty, stock);
  const refusal = () => (stock < maxQty ? conflict(onlyLeft(stock, label)) : conflict(tooManyOfOne(maxQty)));
  if (line.qty > most) throw refusal();
  const result = await db.execute<{ id: number }>(sql`
    insert into ${cartLines} (user_id, product_id, variant_id, variant_price_id, qty)
    values (${userId}, ${line.productId}, ${variantId}, ${variantPriceId}, ${line.qty})
    on conflict (user_id, product_id, (coalesce(variant_id, 0)))
    do update set qty = ${cartLines}.qty + excluded.qty, variant_price_id = excluded.variant_price_id
      where ${cartLines}.qty + excluded.qty <= ${most}
    returning id`);
  if (rowsOf(result).length === 0) throw refusal();
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Sets a line's quantity; false when the shopper has no such line (another's line is "no such line" too). More than
 * the shelf holds is 409 with the units left ('Only 8 left of …', or out of stock); fewer is always fine.
 */
export async function setLineQty(db: Database, userId: number, lineId: number, qty: number, maxQty: number): Promise<boolean> {
  if (qty > maxQty) throw conflict(`You can order at most ${maxQty} of one item.`);
  const rows = await db
    .update(cartLines)
    .set({ qty })
    .where(
      and(
        eq(cartLines.id, lineId),
        eq(cartLines.userId, userId),
        sql`(${qty} <= ${cartLines.qty} or ${qty} <= ${lineStock})`,
      ),
    )
    .returning({ id: cartLines.id });
  if (rows.length > 0) return true;
  const [line] = await db
    .select({ name: products.name, variantName: productVariants.name, stock: lineStock })
    .from(cartLines)
    .innerJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(productVariants, eq(productVariants.id, cartLines.variantId))
    .where(and(eq(cartLines.id, lineId), eq(cartLines.userId, userId)));
  if (!line) return false;
  if (line.stock > 0) throw conflict(onlyLeft(line.stock, lineLabel(line)));
  throw conflict(`Sorry, ${line.name} is out of stock right now: you can keep or lower the quantity, not raise it.`);
}

export async function removeLine(db: Database, userId: number, lineId: number): Promise<boolean> {
  const rows = await db
    .delete(cartLines)
    .where(and(eq(cartLines.id, lineId), eq(cartLines.userId, userId)))
    .returning({ id: cartLines.id });
  return rows.length > 0;
}

/** The badge: the units of the lines on the shelf, the same count as the cart's summary (an out-of-stock line is set apart). */
export async function cartItemCount(db: Database, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`coalesce(sum(${cartLines.qty}) filter (where ${lineStock} > 0), 0)::int` })
    .from(cartLines)
    .where(eq(cartLines.userId, userId));
  return row?.count ?? 0;
}

/** The units on the shelf for a cart line: its pack's when it has one, else its product's (a correlated read on cart_lines). */
const lineStock = sql<number>`(case when ${cartLines.variantId} is null
  then (select ${products.stock} from ${products} where ${products.id} = ${cartLines.productId})
  else coalesce((select ${productVariants.stock} from ${productVariants} where ${productVariants.id} = ${cartLines.variantId}), 0) end)`;

/** The shopper asked to hear when this line's product (pack) is back, and has not been told yet. */
const lineAlertAsked = sql<boolean>`exists (select 1 from ${stockAlerts} where ${stockAlerts.userId} = ${cartLines.userId}
  and ${stockAlerts.productId} = ${cartLines.productId} and ${stockAlerts.productVariantId} = coalesce(${cartLines.variantId}, 0)
  and ${stockAlerts.notifiedAt} is null)`;

/**
 * The offers' "first order": neither the shopper nor their verified number has an order that is not cancelled, so a
 * new account on a number that ordered before gets no second first-order offer.
 */
export async function isFirstOrder(db: Database, userId: number): Promise<boolean> {
  const verifiedPhone = db
    .select({ phone: users.phone })
    .from(users)
    .where(and(eq(users.id, userId), sql`${users.phoneVerifiedAt} is not null`));
  const [placed] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(ne(orders.status, 'cancelled'), or(eq(orders.userId, userId), eq(orders.verifiedPhone, sql`(${verifiedPhone})`))))
    .limit(1);
  return placed === undefined;
}

/**
 * The cart with today's prices (a pack size's price when the line has one, else the product's) and the summary the
 * offers give it: the same function prices the checkout and the order (src/server/services/orders.ts).
 */
export async function cartOf(db: Database, userId: number, rules: CartRules, couponCode?: string): Promise<CartDto> {
  const { offers, limits } = rules;
  const rows = await db
    .select({
      id: cartLines.id,
      productsId: cartLines.productId,
      productVariantsId: sql<number>`coalesce(${cartLines.variantId}, 0)`,
      productVariantPriceId: sql<number>`coalesce(${productVariantPrices.id}, 0)`,
      name: products.name,
      variantName: productVariants.name,
      // The pack's own picture (a 2 kg bag is not the 1 kg pouch), else the product's first.
      imageUrl: sql<string | null>`coalesce(${productVariants.imageUrl}, (select ${productImages.imageUrl} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.position}, ${productImages.id} limit 1))`,
      unitPricePaise: sql<number>`coalesce(${productVariantPrices.salesPricePaise}, ${products.pricePaise})`,
      mrpPaise: sql<number>`coalesce(${productVariantPrices.mrpPaise}, ${products.mrpPaise})`,
      qty: cartLines.qty,
      stock: lineStock,
      notifyRequested: lineAlertAsked,
      foodType: sql<FoodType | null>`${products.foodType}`,
    })
    .from(cartLines)
    .innerJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(productVariants, eq(productVariants.id, cartLines.variantId))
    .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, cartLines.variantId))
    .where(eq(cartLines.userId, userId))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id));
  const lines: CartLineDto[] = rows.map(({ mrpPaise, stock, ...r }) => ({
    ...r,
    // An MRP missing (0) or below the selling price is no saving.
    unitMrpPaise: Math.max(mrpPaise, r.unitPricePaise),
    lineTotalPaise: r.unitPricePaise * r.qty,
    inStock: stock > 0,
    maxQty: Math.min(limits.unitsPerProduct, stock),
    limitedByStock: stock < limits.unitsPerProduct,
  }));
  // An out-of-stock line stays in the cart, set apart: it is not priced into the total, nor ordered.
  const onShelf = lines.filter((l) => l.inStock);
  const summary = priceSummary(
    {
      subtotalPaise: sum(onShelf.map((l) => l.lineTotalPaise)),
      mrpTotalPaise: sum(onShelf.map((l) => l.unitMrpPaise * l.qty)),
      itemCount: sum(onShelf.map((l) => l.qty)),
      firstOrder: onShelf.length > 0 && (await isFirstOrder(db, userId)),
    },
    offers,
  );
  if (couponCode === undefined) return { lines, summary };
  // The coupon after the offers, on what they leave (src/server/services/coupons.ts).
  const coupon = await checkCoupon(db, userId, couponCode, summary, {
    coupons: rules.coupons ?? [],
    timeZone: rules.delivery?.timeZone ?? 'Asia/Kolkata',
    now: rules.now ?? (() => new Date()),
  });
  return { lines, summary: withCoupon(summary, coupon), coupon };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export const lineNotFound = (id: number) => notFound(`Your cart has no line ${id}`);
