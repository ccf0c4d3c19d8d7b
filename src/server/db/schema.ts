// Drizzle schema, PostgreSQL dialect. Money is stored in paise (integers).
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const brands = pgTable(
  'brands',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    // Lower numbers come first in LoadBrandsByPriority.
    priority: integer('priority').notNull().default(100),
  },
  (t) => [
    uniqueIndex('brands_name_key').on(t.name),
    index('brands_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const categories = pgTable(
  'categories',
  {
    // SPEC §2: a category id is a string (a slug such as 'fruits-vegetables').
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    colour: text('colour').notNull(),
    priority: integer('priority').notNull().default(100),
  },
  (t) => [index('categories_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    shortName: text('short_name').notNull(),
    shortCode: text('short_code').notNull(),
    description: text('description').notNull(),
    pricePaise: integer('price_paise').notNull(),
    mrpPaise: integer('mrp_paise').notNull().default(0),
    // 'normal' is a simple product; 'variant' products are sold in pack sizes.
    type: text('type').notNull().default('normal'),
    brandId: integer('brand_id')
      .notNull()
      .references(() => brands.id),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id),
    // A non-null tag marks a hot product; lower tags are shown first.
    priorityTag: integer('priority_tag'),
    inStock: boolean('in_stock').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_brand_idx').on(t.brandId),
    index('products_category_idx').on(t.categoryId),
    index('products_priority_tag_idx').on(t.priorityTag),
    index('products_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    imageUrl: text('image_url').notNull(),
    position: smallint('position').notNull().default(0),
  },
  (t) => [index('product_images_product_idx').on(t.productId)],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: smallint('position').notNull().default(0),
  },
  (t) => [index('product_variants_product_idx').on(t.productId)],
);

export const productVariantPrices = pgTable(
  'product_variant_prices',
  {
    id: serial('id').primaryKey(),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    salesPricePaise: integer('sales_price_paise').notNull(),
    mrpPaise: integer('mrp_paise').notNull().default(0),
  },
  (t) => [uniqueIndex('product_variant_prices_variant_key').on(t.variantId)],
);

export const productSeo = pgTable(
  'product_seo',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    metaTitle: text('meta_title').notNull(),
    metaDescription: text('meta_description').notNull(),
    metaKeywords: text('meta_keywords').notNull().default(''),
  },
  (t) => [uniqueIndex('product_seo_product_key').on(t.productId)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    // SPEC §3: title carries the reviewer's name, description the comment.
    title: text('title').notNull(),
    description: text('description').notNull(),
    stars: smallint('stars').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reviews_product_idx').on(t.productId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    // A 10-digit Indian mobile number (no +91): shoppers may sign in with it.
    phone: text('phone').notNull(),
    // scrypt, with its parameters and salt in the string (src/server/auth/passwords.ts).
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`), uniqueIndex('users_phone_key').on(t.phone)],
);

/**
 * Opaque refresh tokens, stored as their SHA-256. Each sign-in starts a family; a refresh uses its token once and
 * issues the next one in the same family. A token presented twice revokes its whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Password reset links: the token's SHA-256, single-use, short-lived. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

export const cartLines = pgTable(
  'cart_lines',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id').references(() => productVariants.id),
    variantPriceId: integer('variant_price_id').references(() => productVariantPrices.id),
    packing: text('packing').notNull().default('packaging'),
    qty: integer('qty').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cart_lines_user_idx').on(t.userId),
    // One line per product and pack size: adding it again raises the line's qty (an upsert on this index).
    uniqueIndex('cart_lines_user_product_variant_key').on(t.userId, t.productId, sql`coalesce(${t.variantId}, 0)`),
  ],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);
