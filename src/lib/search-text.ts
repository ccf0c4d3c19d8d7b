// Search text as the SPEC wants it (trimmed, lowercased), safe to put in a URL and to send to the API.
export const MAX_SEARCH_LENGTH = 100;

/** Trimmed, lowercased, without control characters, cut to the limit by whole characters (never half an emoji). */
export function normalizeSearchText(text: string): string {
  const clean = text.replace(/\p{Cc}/gu, ' ').trim().toLowerCase();
  return Array.from(clean.toWellFormed()).slice(0, MAX_SEARCH_LENGTH).join('').trim();
}
