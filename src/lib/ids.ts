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
