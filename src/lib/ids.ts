// What a catalogue id looks like, in one place: the API's schemas refuse anything else, and pages read a URL's id
// the same way, so an id that cannot name anything is 'not found' without asking the API.

/** A numeric id as written in a URL: at most 9 digits, so it fits PostgreSQL's integer. */
export const NUMERIC_ID_PATTERN = /^\d{1,9}$/;

/** A category id: a slug of lowercase letters, digits and dashes (unanchored, for route patterns). */
export const CATEGORY_ID_SLUG = '[a-z0-9-]{1,60}';
export const CATEGORY_ID_PATTERN = new RegExp(`^${CATEGORY_ID_SLUG}$`);

/** The positive id a URL parameter names, or null when it cannot name one ('0', '00', 'x', too long). */
export function positiveIdFrom(raw: string | null | undefined): number | null {
  if (!raw || !NUMERIC_ID_PATTERN.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** The category id a URL parameter names, or null when it cannot name one. */
export function categoryIdFrom(raw: string | null | undefined): string | null {
  return raw && CATEGORY_ID_PATTERN.test(raw) ? raw : null;
}

/** A fresh Idempotency-Key for a cart write (sent twice, it counts once): a UUID where the browser makes them (secure pages), else 32 random hex digits. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
