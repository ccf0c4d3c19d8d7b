// zod schemas of the API's inputs and outputs: the validation and the OpenAPI document come from these.
import { z } from '@hono/zod-openapi';
import { CONTACT_LIMITS, NO_CONTROL, NO_CONTROL_EXCEPT_LINES, PHONE_PATTERN, REVIEW_LIMITS } from '../lib/form-limits.ts';
import { CATEGORY_ID_PATTERN, NUMERIC_ID_PATTERN } from '../lib/ids.ts';
import { MAX_PAGE_NO, MAX_PRODUCT_ID_SKIP, MAX_SITEMAP_URLS, PAGE_SIZES, SITEMAP_PRODUCTS_PER_FILE } from '../lib/paging.ts';
import { MAX_SEARCH_LENGTH } from '../lib/search-text.ts';

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

export const BrandSchema = z.object({ id: z.number().int(), name: z.string() }).openapi('Brand');

export const CategorySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    image: z.string(),
    count: z.number().int(),
  })
  .openapi('Category');

export const SuggestionSchema = z
  .object({
    id: z.union([z.number().int(), z.string()]),
    name: z.string(),
    type: z.enum(['products', 'Brand', 'Category']),
  })
  .openapi('SearchSuggestion');

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
  })
  .openapi('Product');

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
export type ReviewDto = z.infer<typeof ReviewSchema>;
export type ProductSeoDto = z.infer<typeof ProductSeoSchema>;
export type VariantDto = z.infer<typeof VariantSchema>;
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
