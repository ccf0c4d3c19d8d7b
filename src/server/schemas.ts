// zod schemas of the API's inputs and outputs: the validation and the OpenAPI document come from these.
import { z } from '@hono/zod-openapi';
import { CONTACT_LIMITS, NO_CONTROL, NO_CONTROL_EXCEPT_LINES, PHONE_PATTERN, REVIEW_LIMITS } from '../lib/form-limits.ts';
import { FOOD_TYPES } from '../lib/food-type.ts';
import { CATEGORY_ID_PATTERN, NUMERIC_ID_PATTERN } from '../lib/ids.ts';
import { MAX_PAGE_NO, MAX_PRODUCT_ID_SKIP, MAX_SITEMAP_URLS, PAGE_SIZES, SITEMAP_PRODUCTS_PER_FILE } from '../lib/paging.ts';
import { MAX_SEARCH_LENGTH } from '../lib/search-text.ts';
import { LISTING_SORTS, MAX_BRAND_FILTERS, PRICE_BAND_IDS } from '../lib/listing.ts';

/** Caps that keep one request cheap; larger values are a 400, not a silent clamp. */
export const LIMITS = {
  brandPage: PAGE_SIZES.brands,
  categoryPage: PAGE_SIZES.categories,
  productPage: PAGE_SIZES.products,
  maxPageSize: 100,
  maxSearchLength: MAX_SEARCH_LENGTH,
  maxPageNo: MAX_PAGE_NO,
} as const;

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'bad_request' }),
      message: z.string().openapi({ example: 'id must be a positive whole number' }),
    }),
  })
  .openapi('Error');

export const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/**
 * Text a shopper types (a name, a comment, a message): no control characters (`allowed`), trimmed, within its
 * bounds, each rule with a message naming the field.
 */
export const shopperText = (field: string, bounds: { min: number; max: number }, allowed: RegExp = NO_CONTROL) =>
  z
    .string({ error: `${field} is required` })
    .regex(allowed, `${field} must not contain control characters`)
    .trim()
    .min(bounds.min, `${field} must be at least ${bounds.min} characters`)
    .max(bounds.max, `${field} must be at most ${bounds.max} characters`);

export const positiveId = (name: string) =>
  z
    .string()
    .regex(NUMERIC_ID_PATTERN, `${name} must be a positive whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be a positive whole number`)
    .openapi({ param: { name, in: 'path' }, example: '11' });

export const ProductIdParam = z.object({ id: positiveId('id') });
export const ProIdParam = z.object({ proid: positiveId('proid') });
export const BrandIdParam = z.object({ brandId: positiveId('brandId') });

export const CategoryIdParam = z.object({
  categoryId: z
    .string()
    .regex(CATEGORY_ID_PATTERN, 'categoryId must be a slug of lowercase letters, digits and dashes')
    .openapi({ param: { name: 'categoryId', in: 'path' }, example: 'fruits-vegetables' }),
});

export const searchText = z
  .string()
  .regex(NO_CONTROL, 'search text must not contain control characters')
  .transform((s) => s.trim().toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'search text must not be empty')
      .max(LIMITS.maxSearchLength, `search text must be at most ${LIMITS.maxSearchLength} characters`),
  );

export const SearchTextParam = z.object({
  text: searchText.openapi({ param: { name: 'text', in: 'path' }, example: 'tomato' }),
});

export const BrandPagingQuery = z.object({
  skip: wholeNumber('skip', 0, 1_000_000).default(0).openapi({ example: 0 }),
  take: wholeNumber('take', 1, LIMITS.maxPageSize).default(LIMITS.brandPage).openapi({ example: 16 }),
});

const pageNo = wholeNumber('pageNo', 0, LIMITS.maxPageNo).default(0).openapi({ example: 0 });

export const CategoryPagingQuery = z.object({
  pageNo,
  pageSize: wholeNumber('pageSize', 1, LIMITS.maxPageSize).default(LIMITS.categoryPage).openapi({ example: 24 }),
});

/** Product ids by offset in id order (the sitemap): take up to one sitemap file's worth. */
export const ProductIdsQuery = z.object({
  skip: wholeNumber('skip', 0, MAX_PRODUCT_ID_SKIP).default(0).openapi({ example: 0 }),
  take: wholeNumber('take', 1, MAX_SITEMAP_URLS).default(SITEMAP_PRODUCTS_PER_FILE).openapi({ example: 10_000 }),
});

export const ProductPagingQuery = z.object({
  pageNo,
  pageSize: wholeNumber('pageSize', 1, LIMITS.maxPageSize).default(LIMITS.productPage).openapi({ example: 24 }),
});

const brandFilterId = z
  .string()
  .regex(NUMERIC_ID_PATTERN, 'brand must be a positive whole number')
  .transform(Number)
  .refine((n) => n > 0, 'brand must be a positive whole number');

/** A listing's filters (src/lib/listing.ts): the same words as the shop's URLs. */
const listingFilterFields = {
  // One brand is a string, a repeated one a list (Hono's query): a list either way.
  brand: z
    .preprocess(
      (value) => (value === undefined ? undefined : [value].flat()),
      z.array(brandFilterId).max(MAX_BRAND_FILTERS, `brand may be given at most ${MAX_BRAND_FILTERS} times`).optional(),
    )
    .openapi({ description: 'A brand id; repeat the parameter for several (products of any of them)', example: ['3'] }),
  food: z.enum(FOOD_TYPES, { error: `food must be one of ${FOOD_TYPES.join(', ')}` }).optional().openapi({ description: "Only products of this food type (FSSAI's mark)" }),
  instock: z.enum(['0', '1'], { error: 'instock must be 0 or 1' }).optional().openapi({ description: '1: only products on the shelf' }),
  price: z.enum(PRICE_BAND_IDS, { error: `price must be one of ${PRICE_BAND_IDS.join(', ')}` }).optional().openapi({
    description:
      "A price band in whole rupees, from the first number (included) to the second (not included); '500-' has no upper bound. The product's own price is compared (a product sold in pack sizes: its first pack's)",
  }),
};

/** A listing's page, sort and filters (issue 24): /shop's and /search's controls over the API. */
export const ListingQuery = ProductPagingQuery.extend({
  sort: z.enum(LISTING_SORTS, { error: `sort must be one of ${LISTING_SORTS.join(', ')}` }).default('relevance').openapi({
    description:
      "relevance: the listing's own order (a search's best match first; a brand's or a category's products on the shelf first, then by name; the hot products in the grocer's order). popular: most units ordered first (orders not cancelled). price-asc, price-desc: by the product's own price. discount: the largest share off the MRP first (of its pack sizes, the best)",
  }),
  ...listingFilterFields,
});

/** Which listing's filters to count: its type, and its id (brand, category) or text (search). */
export const ListingFacetsQuery = z
  .object({
    type: z.enum(['hot', 'brand', 'category', 'search'], { error: 'type must be one of hot, brand, category, search' }).openapi({ description: 'the listing, as /shop and /search name it' }),
    id: z.string().optional().openapi({ description: 'the brand id or the category id (type brand or category)', example: 'dairy-eggs' }),
    name: searchText.optional().openapi({ description: 'the search text (type search)', example: 'rice' }),
    ...listingFilterFields,
  })
  .superRefine((q, ctx) => {
    if (q.type === 'brand' && !(q.id && NUMERIC_ID_PATTERN.test(q.id) && Number(q.id) > 0))
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'id must be a positive whole number (a brand id)' });
    if (q.type === 'category' && !(q.id && CATEGORY_ID_PATTERN.test(q.id)))
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'id must be a slug of lowercase letters, digits and dashes (a category id)' });
    if (q.type === 'search' && !q.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required (the search text)' });
  });

export const BrandSchema = z.object({ id: z.number().int(), name: z.string() }).openapi('Brand');

export const CategorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    image: z.string(),
    count: z.number().int(),
  })
  .openapi('Category');

/** FSSAI's mark of a food (issue 24); null for what is not food, or a food whose grocer has not said. */
export const FoodTypeSchema = z.enum(FOOD_TYPES).nullable();
export const FOOD_TYPE_DESCRIPTION =
  "FSSAI's mark: 'veg' (green circle in a green square), 'non_veg' (brown triangle in a brown square), 'egg' (contains egg: FSSAI's non-vegetarian mark); null when it is not food or the seller has not given it";

export const SuggestionSchema = z
  .object({
    id: z.union([z.number().int(), z.string()]),
    name: z.string(),
    type: z.enum(['products', 'Brand', 'Category']),
    foodType: FoodTypeSchema.optional().openapi({ description: `Products only. ${FOOD_TYPE_DESCRIPTION}` }),
    // Issue 24: a product suggestion shows its picture and price, so the shopper knows it before opening it.
    imageUrl: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "Products only: the product's first picture, at the smallest width the API makes; null when it has none" }),
    price: z.number().optional().openapi({ description: 'Products only: rupees' }),
    pricePaise: z.number().int().optional().openapi({ description: 'Products only: the price in paise' }),
  })
  .openapi('SearchSuggestion');

/** What a search that found nothing can still offer (issue 24): how it read the words, and the nearest categories. */
export const SearchHelpSchema = z
  .object({
    understood: z
      .array(
        z.object({
          typed: z.string().openapi({ description: "A word, phrase or pack size of the search as it was read ('5 kg')" }),
          meant: z
            .array(z.string())
            .openapi({ description: 'The catalogue words it was also taken to mean (synonyms, corrections of a typo); empty when none' }),
        }),
      )
      .openapi({ description: 'The terms of the search, in the order typed, pack sizes last' }),
    categories: z
      .array(CategorySchema)
      .openapi({ description: 'The nearest categories, best first: those the words name, and those holding what each word finds' }),
  })
  .openapi('SearchHelp');

export const VariantPriceSchema = z
  .object({
    id: z.number().int(),
    productVariantsId: z.number().int(),
    salesPrice: z.number().openapi({ description: 'rupees' }),
    mrp: z.number().openapi({ description: 'rupees; 0 when there is none' }),
    salesPricePaise: z.number().int(),
    mrpPaise: z.number().int(),
  })
  .openapi('ProductVariantPrice');

export const UnitPriceSchema = z
  .object({
    paise: z.number().int(),
    per: z.enum(['kg', 'l', 'piece']),
  })
  .openapi('UnitPrice', {
    description: 'The price per kg, litre or piece (paise), read from the pack; null when the pack names none',
  });

export const VariantSchema = z
  .object({
    id: z.number().int(),
    productsId: z.number().int(),
    name: z.string(),
    productVariantPrice: VariantPriceSchema.nullable(),
    /** From this pack's name ('500 g') and its price; null without a price. */
    unitPrice: UnitPriceSchema.nullable(),
    /** This pack size has stock on the shelf. */
    inStock: z.boolean(),
    // Issue 24: a 2 kg pack is not the 1 kg pack's picture.
    imageUrl: z.string().nullable().openapi({ description: "This pack's own picture; null when it has none (the product's picture shows it)" }),
  })
  .openapi('ProductVariant');

export const ProductImageSchema = z.object({ id: z.number().int(), imageUrl: z.string() }).openapi('ProductImage');

export const ProductSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    shortName: z.string(),
    shortCode: z.string(),
    description: z.string(),
    price: z.number().openapi({ description: 'rupees' }),
    mrp: z.number().openapi({ description: 'rupees; 0 when there is none' }),
    pricePaise: z.number().int(),
    mrpPaise: z.number().int(),
    stars: z.number().openapi({ description: 'average review stars, 0 when unreviewed' }),
    reviewCount: z.number().int(),
    type: z.string().openapi({ description: "'normal' is a simple product" }),
    brandId: z.number().int(),
    brandName: z.string(),
    categoryId: z.string(),
    categoryName: z.string(),
    imageUrl: z.string().nullable(),
    productImages: z.array(ProductImageSchema),
    productVariants: z.array(VariantSchema),
    /** From the pack in the product's name ('Basmati Rice 1 kg') and its price; each pack size has its own. */
    unitPrice: UnitPriceSchema.nullable(),
    hot: z.boolean(),
    inStock: z.boolean(),
    foodType: FoodTypeSchema.openapi({ description: FOOD_TYPE_DESCRIPTION }),
    // What the Legal Metrology (Packaged Commodities) Rules ask an online seller to show, as the seller gave it (issue
    // 24); null when not given: the product page says so, it never invents one.
    netQuantity: z.string().nullable().openapi({ description: "Net quantity of a product sold in one size ('500 g'); a pack size's is its name. Null when not given" }),
    countryOfOrigin: z.string().nullable().openapi({ description: 'Country of origin; null when not given' }),
    manufacturer: z.string().nullable().openapi({ description: 'Name and address of the manufacturer, packer or importer; null when not given' }),
    shelfLife: z.string().nullable().openapi({ description: "Best before or shelf life ('9 months from packing'); null when not given" }),
    fssaiLicence: z.string().nullable().openapi({ description: "The brand owner's FSSAI licence number (14 digits); null when not given" }),
  })
  .openapi('Product');

/** What a listing's filters offer (issue 24), each value with the products it would show given the other filters. */
export const ListingFacetsSchema = z
  .object({
    brands: z
      .array(z.object({ id: z.number().int(), name: z.string(), count: z.number().int() }))
      .openapi({ description: 'The brands with the most products in the listing (at most 30), and any chosen, by name' }),
    foodTypes: z.array(z.object({ value: z.enum(FOOD_TYPES), count: z.number().int() })),
    inStock: z.number().int().openapi({ description: 'products on the shelf' }),
    priceBands: z.array(z.object({ id: z.enum(PRICE_BAND_IDS), count: z.number().int() })),
  })
  .openapi('ListingFacets');

export const ProductSeoSchema = z
  .object({
    id: z.number().int(),
    productsId: z.number().int(),
    metaTitle: z.string(),
    metaDescription: z.string(),
    metaKeywords: z.string(),
  })
  .openapi('ProductSEO');

export const ReviewSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    stars: z.number().int(),
    productsId: z.number().int(),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    // Issue 24: what lets a shopper weigh a review.
    date: z.string().openapi({ format: 'date-time', description: 'when the review was posted (the same instant as updatedAt)' }),
    signedIn: z.boolean().openapi({ description: 'posted by a signed-in shopper (a bearer token); false for an anonymous review' }),
    certifiedBuyer: z
      .boolean()
      .openapi({ description: 'posted by a signed-in shopper who has a delivered order of this product; listed first' }),
  })
  .openapi('Review');

export const NewReviewSchema = z
  .object({
    title: shopperText('name', REVIEW_LIMITS.name),
    description: shopperText('comment', REVIEW_LIMITS.comment, NO_CONTROL_EXCEPT_LINES),
    stars: z
      .number({ error: 'stars must be a number from 1 to 5' })
      .int('stars must be a whole number from 1 to 5')
      .min(REVIEW_LIMITS.stars.min, 'stars must be from 1 to 5')
      .max(REVIEW_LIMITS.stars.max, 'stars must be from 1 to 5'),
    productsId: z
      .number({ error: 'productsId is required' })
      .int('productsId must be a whole number')
      .positive('productsId must be positive')
      .max(2_147_483_647, 'productsId is too large'),
  })
  .openapi('NewReview');

export type ProductDto = z.infer<typeof ProductSchema>;
export type BrandDto = z.infer<typeof BrandSchema>;
export type CategoryDto = z.infer<typeof CategorySchema>;
export type SuggestionDto = z.infer<typeof SuggestionSchema>;
export type SearchHelpDto = z.infer<typeof SearchHelpSchema>;
export type ReviewDto = z.infer<typeof ReviewSchema>;
export type ProductSeoDto = z.infer<typeof ProductSeoSchema>;
export type VariantDto = z.infer<typeof VariantSchema>;
export type ListingFacetsDto = z.infer<typeof ListingFacetsSchema>;
export type NewReview = z.infer<typeof NewReviewSchema>;

export const NewContactMessageSchema = z
  .object({
    name: shopperText('name', CONTACT_LIMITS.name),
    email: z.string({ error: 'email is required' }).trim().max(CONTACT_LIMITS.email.max, 'email is too long').pipe(z.email('email must be a valid email address')),
    phone: z
      .string()
      .trim()
      .regex(PHONE_PATTERN, 'phone must be digits, spaces or dashes')
      .optional()
      .transform((p) => p || undefined),
    message: shopperText('message', CONTACT_LIMITS.message, NO_CONTROL_EXCEPT_LINES),
  })
  .openapi('NewContactMessage');

export const ContactMessageReceiptSchema = z
  .object({ id: z.number().int(), receivedAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('ContactMessageReceipt');

export type NewContactMessage = z.infer<typeof NewContactMessageSchema>;
/** What a client sends (the phone may be empty). */
export type NewContactMessageInput = z.input<typeof NewContactMessageSchema>;
export type ContactMessageReceiptDto = z.infer<typeof ContactMessageReceiptSchema>;
