// zod schemas of the account and cart API (sign-in, tokens, the shopper's profile, cart lines): the
// validation, the OpenAPI document and the browser's types all come from these.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_LIMITS, CART_LIMITS, INDIAN_MOBILE_PATTERN, NO_CONTROL, normalizeIndianMobile, PINCODE_PATTERN } from '../lib/form-limits.ts';
import { NUMERIC_ID_PATTERN } from '../lib/ids.ts';
import { FOOD_TYPE_DESCRIPTION, FoodTypeSchema, shopperText } from './schemas.ts';

const personName = shopperText('name', ACCOUNT_LIMITS.name);

const email = z
  .string({ error: 'email is required' })
  .trim()
  .max(ACCOUNT_LIMITS.email.max, 'email is too long')
  .pipe(z.email('email must be a valid email address'));

/** A 10-digit Indian mobile number; spaces, dashes and a leading +91 or 0 are forgiven and dropped. */
export const mobile = z
  .string({ error: 'phone is required' })
  .transform(normalizeIndianMobile)
  .pipe(z.string().regex(INDIAN_MOBILE_PATTERN, 'phone must be a 10-digit Indian mobile number'));

/** Length only here; the server also refuses common passwords (a message the shopper can act on). */
const newPassword = z
  .string({ error: 'password is required' })
  .min(ACCOUNT_LIMITS.password.min, `password must be at least ${ACCOUNT_LIMITS.password.min} characters`)
  .max(ACCOUNT_LIMITS.password.max, `password must be at most ${ACCOUNT_LIMITS.password.max} characters`);

const anyPassword = z.string({ error: 'password is required' }).min(1, 'password is required').max(ACCOUNT_LIMITS.password.max);

export const UserSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    phoneVerified: z.boolean().openapi({ description: 'the number was proved with a one-time code; needed to place an order' }),
    smsNotices: z.boolean().openapi({ description: "'Text me about my orders': order notices are texted too, not only mailed (default true)" }),
    pincode: z.string().nullable().openapi({ description: 'The delivery PIN code the shopper gave (the header’s "Deliver to"); null: none yet', example: '560034' }),
  })
  .openapi('User');

export const RegisterSchema = z
  .object({ name: personName, email, phone: mobile, password: newPassword })
  .openapi('Register');

export const LoginSchema = z
  .object({
    // It reaches SQL (PostgreSQL text cannot hold U+0000); passwords and tokens are only hashed, so they may hold anything.
    login: z
      .string({ error: 'email or phone is required' })
      .regex(NO_CONTROL, 'email or phone must not contain control characters')
      .trim()
      .min(1, 'email or phone is required')
      .max(ACCOUNT_LIMITS.email.max),
    password: anyPassword,
  })
  .openapi('Login');

/** SPEC §7: the refresh call's body. */
export const RefreshTokenSchema = z
  .object({
    expiredToken: z.string({ error: 'expiredToken is required' }).max(4096),
    refreshToken: z.string({ error: 'refreshToken is required' }).min(1).max(512),
  })
  .openapi('RefreshToken');

export const LogoutSchema = z.object({ refreshToken: z.string().min(1).max(512) }).openapi('Logout');
export const ForgotPasswordSchema = z.object({ email }).openapi('ForgotPassword');
export const ResetPasswordSchema = z
  .object({ token: z.string({ error: 'the reset link is incomplete' }).min(1).max(512), password: newPassword })
  .openapi('ResetPassword');
export const ChangePasswordSchema = z
  .object({ currentPassword: anyPassword, newPassword })
  .openapi('ChangePassword');
export const UpdateProfileSchema = z
  .object({
    name: personName,
    phone: mobile,
    smsNotices: z
      .boolean({ error: 'smsNotices must be true or false' })
      .optional()
      .openapi({ description: "'Text me about my orders'; left out: as it was" }),
    pincode: z
      .string({ error: 'pincode must be text' })
      .trim()
      .regex(PINCODE_PATTERN, 'pincode must be 6 digits and cannot start with 0')
      .nullable()
      .optional()
      .openapi({ description: 'The delivery PIN code (any, served or not); null forgets it; left out: as it was', example: '560034' }),
  })
  .openapi('UpdateProfile');

/** Six digits; spaces a shopper types between them are forgiven. */
const oneTimeCode = z
  .string({ error: 'code is required' })
  .transform((code) => code.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'code must be the 6 digits of the text message'));

export const RequestCodeSchema = z.object({ phone: mobile }).openapi('RequestCode');
/** The request a code answers: CodeSent's `challenge`, given to the one request that asked for the code. */
const challenge = z
  .string()
  .regex(/^[\w-]{16,64}$/, 'Please ask for a new code.')
  .openapi({ description: 'the `challenge` of the CodeSent answer to the request this code finishes' });
export const VerifyCodeSchema = z.object({ phone: mobile, code: oneTimeCode, challenge }).openapi('VerifyCode');
export const VerifyPhoneSchema = z.object({ code: oneTimeCode }).openapi('VerifyPhone');

/** What every code request answers, whether or not the number has an account. */
export const CodeSentSchema = z
  .object({
    message: z.string(),
    challenge: z.string().openapi({
      description: 'send it back with the code (VerifyCode): the code finishes this request only, never another sent to the same number',
    }),
    phone: z.string().openapi({ description: "the number the code went to, masked: '+91 98•••••210'" }),
    resendAfterSeconds: z.number().int(),
    codeMinutes: z.number().int().openapi({ description: 'how long the code works' }),
  })
  .openapi('CodeSent');

/** What saving the profile answers: the account, and the code sent when the shopper asked for a new number. */
export const ProfileSavedSchema = UserSchema.extend({ codeSent: CodeSentSchema.nullable() }).openapi('ProfileSaved');
export type ProfileSavedDto = z.infer<typeof ProfileSavedSchema>;

/** What a sign-in, a registration, a refresh and a password change answer (SPEC §3 keys). */
export const SessionSchema = z
  .object({ token: z.string(), refreshToken: z.string(), user: UserSchema })
  .openapi('Session');

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');

const idOrZero = (name: string) =>
  z.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`).min(0).max(2_147_483_647).default(0);

/**
 * SPEC §3's cart line payload. `price` and `usersId` are accepted for compatibility but never trusted: the price
 * comes from the database and the user from the token (a usersId other than the token's is refused).
 */
export const NewCartLineSchema = z
  .object({
    productsId: z.number({ error: 'productsId is required' }).int().positive('productsId must be positive').max(2_147_483_647),
    usersId: z.number().int().min(0).optional(),
    productVariantsId: idOrZero('productVariantsId'),
    productVariantPriceId: idOrZero('productVariantPriceId'),
    packing: z.string().max(40).optional(),
    price: z.number().optional().openapi({ description: 'ignored: prices come from the database' }),
    qty: z
      .number()
      .int('qty must be a whole number')
      .min(1, 'qty must be at least 1')
      .max(CART_LIMITS.maxQty, `qty must be at most ${CART_LIMITS.maxQty}`)
      .default(1),
  })
  .openapi('NewCartLine');

/** The second reading of the cart post (SPEC §3): combo fields, no qty (one is added). */
export const NewComboCartLineSchema = NewCartLineSchema.omit({ qty: true })
  .extend({ comboProductVariantsId: idOrZero('comboProductVariantsId'), comboProductPriceId: idOrZero('comboProductPriceId') })
  .openapi('NewComboCartLine');

export const UpdateCartLineSchema = z
  .object({
    qty: z
      .number({ error: 'qty must be a number' })
      .int('qty must be a whole number')
      .min(1, 'qty must be at least 1')
      .max(CART_LIMITS.maxQty, `qty must be at most ${CART_LIMITS.maxQty}`),
  })
  .openapi('UpdateCartLine');

export const CartLineSchema = z
  .object({
    id: z.number().int(),
    productsId: z.number().int(),
    productVariantsId: z.number().int().openapi({ description: '0 when the product has no pack sizes' }),
    productVariantPriceId: z.number().int(),
    name: z.string(),
    variantName: z.string().nullable(),
    imageUrl: z.string().nullable(),
    unitPricePaise: z.number().int(),
    unitMrpPaise: z.number().int(),
    qty: z.number().int(),
    lineTotalPaise: z.number().int(),
    inStock: z.boolean().openapi({ description: 'the product (its pack) is on the shelf; a line that is not is left out of the summary and of the order' }),
    maxQty: z.number().int().openapi({
      description: 'the most of this line one order may hold: store.yaml limits.unitsPerProduct, or the units on the shelf when fewer (0 when out of stock)',
    }),
    limitedByStock: z.boolean().openapi({ description: "the shelf, not the per-order limit, sets maxQty: say 'Only {maxQty} left'" }),
    notifyRequested: z.boolean().openapi({ description: 'the shopper asked to be told when this product (pack) is back (POST /api/app/StockAlerts)' }),
    foodType: FoodTypeSchema.openapi({ description: `The product's, as the catalogue says it now. ${FOOD_TYPE_DESCRIPTION}` }),
  })
  .openapi('CartLine');

/** One offer taken off a cart's or an order's subtotal (rules: src/content/settings/store.yaml). */
export const DiscountLineSchema = z
  .object({
    code: z.enum(['all-products', 'first-order', 'best-price', 'coupon']).openapi({ description: "'coupon': the coupon the shopper applied, after the offers" }),
    label: z.string().openapi({ description: "as shown in the summary, e.g. '5% off all products'" }),
    amountPaise: z.number().int().openapi({ description: 'positive: taken off the subtotal' }),
  })
  .openapi('DiscountLine');

/** The money of a cart, and of an order (the same fields, so the cart, checkout, order and details agree). */
export const CartSummarySchema = z
  .object({
    itemCount: z.number().int().openapi({ description: 'sum of the quantities (the badge)' }),
    subtotalPaise: z.number().int().openapi({ description: 'at selling prices' }),
    mrpTotalPaise: z.number().int(),
    savingsPaise: z.number().int().openapi({ description: 'against MRP, before the discounts' }),
    discounts: z.array(DiscountLineSchema).openapi({ description: 'each offer on its own line, in the order applied' }),
    discountPaise: z.number().int().openapi({ description: 'the sum of the discounts' }),
    deliveryPaise: z.number().int(),
    totalPaise: z.number().int().openapi({ description: 'subtotal − discounts + delivery: what the shopper pays' }),
  })
  .openapi('CartSummary');

/** The whole cart: GetCartsByUser answers it, and so does every change to a line. */
/** Why a coupon does not apply (issue 25): each reason its own code; PlaceOrder answers the same codes with 409. */
export const COUPON_REFUSAL_CODES = ['coupon_unknown', 'coupon_expired', 'coupon_below_minimum', 'coupon_used'] as const;
export type CouponRefusalCode = (typeof COUPON_REFUSAL_CODES)[number];

/** A coupon code checked against the cart: its money off, or the reason it does not apply. */
export const CouponCheckSchema = z
  .object({
    code: z.string().openapi({ description: 'the code as store.yaml keeps it (upper case)', example: 'WELCOME50' }),
    applies: z.boolean(),
    label: z.string().nullable().openapi({ description: "store.yaml's words for it, e.g. '₹50 off orders of ₹299 or more'; null when it does not apply" }),
    amountPaise: z.number().int().openapi({ description: 'taken off after the offers; 0 when it does not apply' }),
    reason: z
      .object({
        code: z.enum(COUPON_REFUSAL_CODES),
        message: z.string().openapi({ example: 'Add ₹49 more to use WELCOME50.' }),
      })
      .nullable()
      .openapi({ description: 'why it does not apply; null when it does' }),
  })
  .openapi('CouponCheck');

/** `?coupon=WELCOME50` on the cart: the summary with the coupon's line when it applies, and `coupon` says how it went. */
export const CartCouponQuery = z.object({
  coupon: z
    .string()
    .trim()
    .min(1, 'coupon must not be empty')
    .max(40, 'coupon must be at most 40 characters')
    .optional()
    .openapi({ description: 'a coupon code to price the cart with (any case)', example: 'WELCOME50' }),
});

export const CartSchema = z
  .object({
    lines: z.array(CartLineSchema),
    summary: CartSummarySchema,
    coupon: CouponCheckSchema.optional().openapi({ description: 'only when a coupon was asked for: applied (its line is in summary.discounts) or refused, and why' }),
  })
  .openapi('Cart');

/** 'Notify me when back' (issue 24): the product, and its pack size (0 for a product sold in one size). */
export const StockAlertRequestSchema = z
  .object({
    productsId: z.number({ error: 'productsId is required' }).int().positive('productsId must be positive').max(2_147_483_647),
    productVariantsId: idOrZero('productVariantsId'),
  })
  .openapi('StockAlertRequest');

export const StockAlertSchema = StockAlertRequestSchema.extend({
  notifyRequested: z.boolean().openapi({ description: 'the shopper waits to be told it is back' }),
}).openapi('StockAlert');

export const CartTotalSchema = z.object({ cartsTotal: z.number().int() }).openapi('CartTotal');

export const UserIdParam = z.object({
  userId: z
    .string()
    .regex(NUMERIC_ID_PATTERN, 'userId must be a positive whole number')
    .transform(Number)
    .openapi({ param: { name: 'userId', in: 'path' }, example: '1' }),
});

export const CartLineIdParam = z.object({
  id: z
    .string()
    .regex(NUMERIC_ID_PATTERN, 'id must be a positive whole number')
    .transform(Number)
    .openapi({ param: { name: 'id', in: 'path' }, example: '1' }),
});

export type UserDto = z.infer<typeof UserSchema>;
export type CodeSentDto = z.infer<typeof CodeSentSchema>;
export type SessionDto = z.infer<typeof SessionSchema>;
export type CartDto = z.infer<typeof CartSchema>;
export type CartLineDto = z.infer<typeof CartLineSchema>;
export type CartSummaryDto = z.infer<typeof CartSummarySchema>;
export type DiscountLineDto = z.infer<typeof DiscountLineSchema>;
export type CouponCheckDto = z.infer<typeof CouponCheckSchema>;
export type RegisterInput = z.input<typeof RegisterSchema>;
export type LoginInput = z.input<typeof LoginSchema>;
export type NewCartLineInput = z.input<typeof NewCartLineSchema>;
export type StockAlertDto = z.infer<typeof StockAlertSchema>;
export type StockAlertInput = z.input<typeof StockAlertRequestSchema>;
