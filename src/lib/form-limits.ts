// The bounds of what shoppers type into the review and contact forms, in one place: the API's schemas
// enforce them, the browser checks them before sending, and the forms' minlength/maxlength show them.

export const REVIEW_LIMITS = {
  name: { min: 2, max: 60 },
  comment: { min: 3, max: 1000 },
  stars: { min: 1, max: 5 },
} as const;

export const CONTACT_LIMITS = {
  name: { min: 2, max: 80 },
  email: { max: 200 },
  /** The longest phone PHONE_PATTERN accepts: an optional '+', then 9 to 20 characters. */
  phone: { max: 20 },
  message: { min: 10, max: 2000 },
} as const;

/**
 * No C0 control characters or DEL: they hide or restyle text (a terminal escape), and PostgreSQL text cannot hold
 * U+0000. Names, titles and other one-line text.
 */
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** NO_CONTROL for text of several lines (a comment, a message): a line break (CR, LF) and a tab are text there. */
export const NO_CONTROL_EXCEPT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** A phone number of digits, spaces or dashes, optionally starting with '+'; or nothing (it is optional). */
export const PHONE_PATTERN = /^(\+?[0-9][0-9 -]{7,18})?$/;

/** Accounts (SPEC §5 shows no rules; these are ours): read by the API's schemas and the sign-in forms. */
export const ACCOUNT_LIMITS = {
  name: { min: 2, max: 80 },
  email: { max: 200 },
  /** At least 8 (OWASP ASVS); at most 128, so hashing a password stays cheap. */
  password: { min: 8, max: 128 },
} as const;

/** A 10-digit Indian mobile number: it starts with 6, 7, 8 or 9. */
export const INDIAN_MOBILE_PATTERN = /^[6-9]\d{9}$/;

export const CART_LIMITS = {
  /**
   * The most of one line any request may carry, and the ceiling of store.yaml's limits.unitsPerProduct, which is the
   * shop's own limit (the cart and the order apply it, and the shelf's stock under it).
   */
  maxQty: 20,
} as const;

/** The mobile number as the API keeps it: spaces and dashes dropped, a leading +91 or 0 before 10 digits dropped. */
export function normalizeIndianMobile(phone: string): string {
  return phone.replace(/[\s-]/g, '').replace(/^(\+91|0)(?=\d{10}$)/, '');
}

export const ADDRESS_LIMITS = {
  name: { min: 2, max: 60 },
  line: { min: 3, max: 120 },
  landmark: { max: 80 },
  city: { min: 2, max: 60 },
  /** Delivery instructions ('Ring the bell twice, leave with the guard'). */
  instructions: { max: 200 },
  /** Addresses one shopper can keep. */
  perUser: 10,
} as const;

/** What kind of place an address is (addresses.address_type). */
export const ADDRESS_TYPE_VALUES = ['home', 'work', 'other'] as const;

/** An Indian PIN code: six digits, never starting with 0. */
export const PINCODE_PATTERN = /^[1-9]\d{5}$/;

/** What a client may send as an Idempotency-Key (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;
