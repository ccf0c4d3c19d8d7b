// Drizzle schema, PostgreSQL dialect. Money is stored in paise (integers).
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
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
    // Search matches lowercased names with LIKE (src/server/services/search.ts): without this index it read all
    // 1,250 brands of a large shop for every suggestion (14 ms).
    index('brands_name_lower_trgm').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
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
    /** A picture of the category's food (an image_files URL); null: the tile drawn from its name and colour. */
    imageUrl: text('image_url'),
  },
  (t) => [index('categories_name_lower_trgm').using('gin', sql`lower(${t.name}) gin_trgm_ops`)],
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
    /**
     * Units on the shelf. For a product sold in pack sizes it is the sum of its packs' stock, kept so by a trigger
     * (migration 0003), so a listing reads one column.
     */
    stock: integer('stock').notNull().default(0),
    inStock: boolean('in_stock').notNull().generatedAlwaysAs(sql`stock > 0`),
    /** The grocer's own key of an imported product (`npm run import`); null for products made otherwise. */
    handle: text('handle'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // What the Legal Metrology (Packaged Commodities) Rules and the Consumer Protection (E-Commerce) Rules ask an
    // online seller to show (issue 24). Null where the grocer has not given it: the page says so, it never invents.
    /** FSSAI's mark: 'veg' (green), 'non_veg' (brown), 'egg'; null for what is not food (a lamp, soap). */
    foodType: text('food_type'),
    /** Net quantity of a product sold in one size ('500 g'); pack sizes carry their own in their names. */
    netQuantity: text('net_quantity'),
    countryOfOrigin: text('country_of_origin'),
    /** Name and address of the manufacturer, packer or importer, as on the pack. */
    manufacturer: text('manufacturer'),
    /** Best before or shelf life, as on the pack ('6 months from packing'). */
    shelfLife: text('shelf_life'),
    /** The brand owner's FSSAI licence number (14 digits). */
    fssaiLicence: text('fssai_licence'),
  },
  (t) => [
    uniqueIndex('products_handle_key').on(t.handle),
    check('products_food_type_known', sql`${t.foodType} in ('veg', 'non_veg', 'egg')`),
    index('products_brand_idx').on(t.brandId),
    index('products_category_idx').on(t.categoryId),
    index('products_priority_tag_idx').on(t.priorityTag),
    // Search matches lowercased names with LIKE (src/server/services/search.ts).
    index('products_name_lower_trgm').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // Suggestions read the products a search finds by their category alone in the order they rank: shortest name first.
    index('products_category_name_order_idx').on(t.categoryId, sql`length(${t.name})`, t.name, t.id),
    // An aisle's listing and a product's related row in the order they show (on the shelf first, then by name):
    // a page of them is read from here, not sorted from the whole aisle.
    index('products_category_listing_idx').on(t.categoryId, t.inStock.desc().nullsFirst(), t.name, t.id),
    check('products_stock_not_negative', sql`${t.stock} >= 0`),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Picture originals, addressed by the SHA-256 of their bytes: a grocer's JPEG/PNG/WebP photos and the seed's drawn
 * SVGs. Stored in the database so they travel with the shop's data (embedded or PostgreSQL); the sizes and formats
 * served to browsers are derived from them once and cached on disk (src/server/services/image-files.ts).
 */
export const imageFiles = pgTable('image_files', {
  sha256: text('sha256').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    /** Units of this pack size on the shelf; an order takes them in its transaction. */
    stock: integer('stock').notNull().default(0),
    /** This pack's own picture (a 5 kg bag is not the 1 kg pouch); null: the product's first picture. */
    imageUrl: text('image_url'),
  },
  (t) => [
    index('product_variants_product_idx').on(t.productId),
    // A search for a pack size ('toor dal 1kg') finds the packs of that size (src/server/services/search.ts).
    index('product_variants_name_lower_idx').on(sql`lower(${t.name})`),
    check('product_variants_stock_not_negative', sql`${t.stock} >= 0`),
  ],
);

/**
 * The words of product, brand and category names (lowercased, letters only, four or more), kept by triggers
 * (migration 0007): a shopper's typo is corrected against the few that start as it does (read through the primary key,
 * or the trigram index where the collation cannot range over a prefix), so a search checks word similarity against a
 * handful of words instead of every name (src/server/services/search.ts). A word a rename
 * leaves behind stays; it costs a lookup, and a search for it finds nothing, as before.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_word_trgm').using('gin', sql`${t.word} gin_trgm_ops`),
]);

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
    /** The signed-in shopper who posted it; null for an anonymous review (SPEC §7 posts without a token). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('reviews_product_idx').on(t.productId)],
);

/** "Notify me when back": a shopper waiting for a product (or one pack of it) to come back on the shelf. */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** 0 for a product sold in one size. */
    productVariantId: integer('product_variant_id').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the shopper was told it is back; null while they wait. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('stock_alerts_shopper_product_key').on(t.userId, t.productId, t.productVariantId),
    index('stock_alerts_product_idx').on(t.productId),
  ],
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
    /** When the shopper proved the phone is theirs with a one-time code; null: not yet (no order until it is). */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /**
     * When a link mailed to the email came back (a password reset): until then the email is only what the person who
     * registered typed, and the account's number is theirs, not necessarily the email's owner's.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The PIN code the shopper delivers to (the header's "Deliver to"), kept with the account; null: not given. */
    pincode: text('pincode'),
    /** Whether order notices also go by text message (mail always goes); My Account turns it off. */
    smsNotices: boolean('sms_notices').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`), uniqueIndex('users_phone_key').on(t.phone)],
);

export const PHONE_CODE_PURPOSES = ['register', 'signin', 'verify', 'staff'] as const;
export type PhoneCodePurpose = (typeof PHONE_CODE_PURPOSES)[number];

/**
 * One-time codes sent by text message: an HMAC of the code (never the code), a few tries, a short life. Every request
 * leaves a row, also for a number no account has (then nothing is sent), so the resend wait and the answers are the
 * same whether or not the number is a shopper's.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: serial('id').primaryKey(),
    /** A 10-digit Indian mobile number (no +91). */
    phone: text('phone').notNull(),
    purpose: text('purpose').$type<PhoneCodePurpose>().notNull(),
    codeHash: text('code_hash').notNull(),
    /**
     * The code is derived from this with the shop's secret (never stored): every request while a number's code is live
     * gets the same code again, so a request never voids the code its owner is typing.
     */
    seed: text('seed'),
    /** SHA-256 of the token given to the one request that made this row: the code finishes only that request. */
    challengeHash: text('challenge_hash'),
    /** The account the code is for (a sign-in, a verify, or a registration for a number that has one); else null. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The staff member a back-office sign-in code is for (purpose 'staff', issue 34); else null. */
    staffId: integer('staff_id').references(() => staff.id, { onDelete: 'cascade' }),
    /** A registration waiting for its code: name, email and the password's hash (the account is made once verified). */
    registration: jsonb('registration').$type<{ name: string; email: string; passwordHash: string }>(),
    attempts: smallint('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('phone_codes_phone_created_idx').on(t.phone, t.createdAt), index('phone_codes_challenge_idx').on(t.challengeHash)],
);

/** Mobile numbers the grocer has stopped from ordering (`npm run orders -- block <mobile>`). */
export const blockedPhones = pgTable('blocked_phones', {
  phone: text('phone').primaryKey(),
  reason: text('reason').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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

/**
 * A cart write sent with an Idempotency-Key (issue 26: cart actions made offline are sent again when the connection
 * returns): the answer it got, so the same key again answers the same and changes nothing. Kept 24 hours per shopper.
 */
export const cartWriteKeys = pgTable(
  'cart_write_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** What the key stands for (the write and its parsed body): the same key with another is refused. */
    requestHash: text('request_hash').notNull(),
    status: smallint('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('cart_write_keys_created_idx').on(t.createdAt)],
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

export const ADDRESS_TYPES = ['home', 'work', 'other'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

/** A shopper's saved delivery addresses; at most one is the default. */
export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    line1: text('line1').notNull(),
    line2: text('line2').notNull().default(''),
    landmark: text('landmark').notNull().default(''),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pincode: text('pincode').notNull(),
    /** Home, Work or Other, as the shopper names the place. */
    addressType: text('address_type').$type<AddressType>().notNull().default('home'),
    /** For the delivery person: "Ring twice", "Leave with the guard". */
    instructions: text('instructions').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('addresses_type_known', sql`${t.addressType} in ('home', 'work', 'other')`),
    index('addresses_user_idx').on(t.userId),
    uniqueIndex('addresses_one_default_key').on(t.userId).where(sql`${t.isDefault}`),
  ],
);

/**
 * Delivery slots, made when first listed or chosen (settings: src/content/settings/store.yaml). An order takes a place
 * with `taken = taken + 1 where taken < capacity`, so two shoppers racing for the last place cannot both get it.
 */
export const deliverySlots = pgTable(
  'delivery_slots',
  {
    /** The slot's start in the shop's time zone, e.g. '2026-11-23T08:00'. */
    id: text('id').primaryKey(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    capacity: integer('capacity').notNull(),
    taken: integer('taken').notNull().default(0),
  },
  (t) => [index('delivery_slots_starts_idx').on(t.startsAt), check('delivery_slots_taken_not_negative', sql`${t.taken} >= 0`)],
);

export const ORDER_STATUSES = ['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Cash or UPI on delivery, or UPI now (paid before the order is packed: see PaymentStatus). */
export const PAYMENT_METHODS = ['cash', 'upi', 'upi_now'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/**
 * 'on_delivery': paid to the delivery person; 'awaiting': a pay-now order until the grocer confirms the payment
 * ('paid') or its time runs out ('expired': the order is cancelled and gives its stock and slot back).
 */
export const PAYMENT_STATUSES = ['on_delivery', 'awaiting', 'paid', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** Who cancelled an order: the shopper, the shop, or nobody (a pay-now order whose payment did not come in time). */
export type CancelledBy = 'shopper' | 'shop' | 'payment_expired';

/** One discount line of an order's summary, as it was when the order was placed. */
export interface DiscountLine {
  code: string;
  label: string;
  amountPaise: number;
}

/** The delivery address as it was when the order was placed (editing the saved one later does not change it). */
export interface AddressSnapshot {
  name: string;
  phone: string;
  line1: string;
  line2: string;
  landmark: string;
  city: string;
  state: string;
  pincode: string;
  /** Absent in orders placed before issue 25. */
  addressType?: AddressType;
  instructions?: string;
}

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').$type<OrderStatus>().notNull().default('placed'),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    paymentStatus: text('payment_status').$type<PaymentStatus>().notNull().default('on_delivery'),
    /** A pay-now order's deadline: unpaid by then, it expires. */
    paymentDueAt: timestamp('payment_due_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The coupon applied (store.yaml's code, upper case); its discount is one of `discounts`. */
    couponCode: text('coupon_code'),
    slotId: text('slot_id')
      .notNull()
      .references(() => deliverySlots.id),
    address: jsonb('address').$type<AddressSnapshot>().notNull(),
    subtotalPaise: integer('subtotal_paise').notNull(),
    mrpTotalPaise: integer('mrp_total_paise').notNull(),
    discounts: jsonb('discounts').$type<DiscountLine[]>().notNull(),
    discountPaise: integer('discount_paise').notNull(),
    deliveryPaise: integer('delivery_paise').notNull(),
    totalPaise: integer('total_paise').notNull(),
    /** The shopper's verified mobile number when they ordered: the limits per number (open orders, first-order offer) count by it. */
    verifiedPhone: text('verified_phone'),
    /** Who cancelled a cancelled order ('shopper' or 'shop'), and the shop's reason told to the shopper. */
    cancelledBy: text('cancelled_by').$type<CancelledBy>(),
    cancelReason: text('cancel_reason'),
    /** The client's Idempotency-Key, and a hash of the request it came with (the same key with another body is 422). */
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    index('orders_slot_idx').on(t.slotId),
    index('orders_verified_phone_idx').on(t.verifiedPhone),
    check('orders_status_known', sql`${t.status} in ('placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled')`),
    check('orders_payment_known', sql`${t.paymentMethod} in ('cash', 'upi', 'upi_now')`),
    check('orders_payment_status_known', sql`${t.paymentStatus} in ('on_delivery', 'awaiting', 'paid', 'expired')`),
    index('orders_payment_due_idx').on(t.paymentDueAt).where(sql`${t.paymentStatus} = 'awaiting'`),
    // A coupon once per verified number: an order that is cancelled gives its coupon back (the row keeps the code).
    uniqueIndex('orders_coupon_once_per_phone_key')
      .on(t.couponCode, t.verifiedPhone)
      .where(sql`${t.couponCode} is not null and ${t.status} <> 'cancelled'`),
  ],
);

/** An order's lines: names and prices copied at order time, so later catalogue changes do not rewrite history. */
export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    variantId: integer('variant_id').references(() => productVariants.id),
    name: text('name').notNull(),
    variantName: text('variant_name'),
    imageUrl: text('image_url'),
    unitPricePaise: integer('unit_price_paise').notNull(),
    unitMrpPaise: integer('unit_mrp_paise').notNull(),
    qty: integer('qty').notNull(),
    lineTotalPaise: integer('line_total_paise').notNull(),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId)],
);

/** The status timeline: one row per step an order took (placed, packed, …, or cancelled). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').$type<OrderStatus>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId)],
);

/**
 * The notices of orders' steps, a transactional outbox (issue 33): the write that makes a step (placed, packed, …,
 * cancelled, payment confirmed) inserts its row in its own transaction, so a step that committed is never left untold,
 * even by a shop killed right after the commit; one row per order and step, so it is told at most once in the shop's
 * records whoever sends it. A drainer (services/notices.ts) claims a pending row with FOR UPDATE SKIP LOCKED, sends it
 * and marks it sent. `texted` says whether it goes as a text, decided at the first claim, which is what the texts per
 * number per hour (store.yaml limits.orderTextsPerNumberPerHour) count.
 */
export const orderNotices = pgTable(
  'order_notices',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** When the write recorded it: pending notices are sent oldest first. */
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    /** The number the text went (or would have gone) to; null until first claimed. */
    phone: text('phone'),
    texted: boolean('texted').notNull().default(false),
    /** When a drainer first claimed it: the texts of the last hour are counted by it. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Not claimed again before this: a sender's lease (a killed sender's lapses), or the wait after a failed send. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Each channel once: a retry after a failed mail does not text again. */
    textSentAt: timestamp('text_sent_at', { withTimezone: true }),
    mailSentAt: timestamp('mail_sent_at', { withTimezone: true }),
    /** Null while pending. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.event] }),
    index('order_notices_texted_idx').on(t.phone, t.claimedAt).where(sql`${t.texted}`),
    index('order_notices_pending_idx').on(t.recordedAt).where(sql`${t.sentAt} is null`),
  ],
);

export const ISSUE_KINDS = ['missing', 'damaged', 'wrong_item', 'quality'] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];
/** 'open' until the grocer settles it with a refund or a replacement. */
export const ISSUE_OUTCOMES = ['open', 'refunded', 'replaced'] as const;
export type IssueOutcome = (typeof ISSUE_OUTCOMES)[number];

/**
 * A shopper's photo for an issue report (issue 32), apart from the public product pictures: served only to its shopper
 * and the grocer. What is kept is not what was sent but a JPEG re-made from it (turned upright, at most
 * ISSUE_PHOTO_MAX_SIDE px, no EXIF or GPS), a few hundred KB at most: small enough that the embedded database is not
 * held up writing or reading it. An upload no report names within a day is deleted (services/issue-photos.ts).
 */
export const issuePhotos = pgTable(
  'issue_photos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    /** A small JPEG for the order page's thumbnail; null until a photo moved from image_files is re-made. */
    thumbnail: bytea('thumbnail'),
    /** The kept bytes (photo and thumbnail): what the account's quota counts. */
    byteSize: integer('byte_size').notNull(),
    /** false: moved as it was sent from image_files by migration 0016, metadata and all; the sweep re-makes it. */
    stripped: boolean('stripped').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('issue_photos_user_created_idx').on(t.userId, t.createdAt)],
);

/** What a shopper reported about a line of a delivered order, within the return window, and how it was settled. */
export const orderIssues = pgTable(
  'order_issues',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<IssueKind>().notNull(),
    note: text('note').notNull().default(''),
    /** The shopper's photo, one of their own uploads; null: none. */
    photoId: integer('photo_id').references(() => issuePhotos.id, { onDelete: 'set null' }),
    outcome: text('outcome').$type<IssueOutcome>().notNull().default('open'),
    /** What the grocer told the shopper when settling. */
    settleNote: text('settle_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('order_issues_order_idx').on(t.orderId),
    // The sweep looks for uploads no report names.
    index('order_issues_photo_idx').on(t.photoId),
    // One open or settled report per line: a second would be the same complaint twice.
    uniqueIndex('order_issues_line_key').on(t.orderLineId),
    check('order_issues_kind_known', sql`${t.kind} in ('missing', 'damaged', 'wrong_item', 'quality')`),
    check('order_issues_outcome_known', sql`${t.outcome} in ('open', 'refunded', 'replaced')`),
  ],
);

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index('wishlist_items_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * Rate-limit counters shared by every instance on one PostgreSQL (rate-limiter-flexible's RateLimiterDrizzle, used
 * with DATABASE_URL; src/server/rate-limit.ts). A key is `<limiter>:<address, account or user id>`; a row past its
 * `expire` counts from zero again, and rows expired an hour ago are deleted every 5 minutes.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

export const STAFF_ROLES = ['owner', 'staff', 'editor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * The people of the back office (issue 34): an owner (everything, and the staff), staff (orders, issues, stock) and
 * editors (content pages). They sign in with their mobile number and a texted code; an owner adds a password.
 */
export const staff = pgTable(
  'staff',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** A 10-digit Indian mobile number (no +91): where sign-in codes go. */
    phone: text('phone').notNull(),
    role: text('role').$type<StaffRole>().notNull(),
    /** scrypt (auth/passwords.ts); an owner's second factor, null for the other roles. */
    passwordHash: text('password_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('staff_phone_key').on(t.phone),
    check('staff_role_check', sql`${t.role} in ('owner', 'staff', 'editor')`),
    check('staff_owner_password_check', sql`${t.role} <> 'owner' or ${t.passwordHash} is not null`),
  ],
);

/**
 * A staff member's signed-in browser: the SHA-256 of the cookie's token (never the token), ended after 12 h idle,
 * and deleted when the member's role changes or the member is removed.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_sessions_token_key').on(t.tokenHash), index('staff_sessions_staff_idx').on(t.staffId)],
);

/**
 * Every back-office action (issue 34): who, what, when, from where. Append-only: a trigger (migration 0020) refuses
 * UPDATE, DELETE and TRUNCATE, and no route changes it. The actor is copied as text, not a key, so removing a staff
 * member leaves their rows as they were.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** 'staff' (a signed-in member), 'grocer_token' (a script with the grocer's token), 'command_line' (a tool on the database). */
    actorKind: text('actor_kind').$type<'staff' | 'grocer_token' | 'command_line'>().notNull(),
    staffId: integer('staff_id'),
    /** The actor as a person reads it: 'Asha (owner, 98•••••210)', 'grocer token'. */
    actor: text('actor').notNull(),
    /** The route ('POST /grocer/Orders/{id}/Cancel') or the tool's action ('staff add'). */
    action: text('action').notNull(),
    /** What it was done to: the request's path ('/api/grocer/Orders/12'), a staff member. */
    target: text('target'),
    /** The answer's status (a refusal is recorded too). */
    status: integer('status').notNull(),
    /** The client's address, or 'command line'. */
    address: text('address').notNull(),
    /** The input, secrets left out. */
    detail: jsonb('detail'),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);
