// Search text as the SPEC wants it (trimmed, lowercased), safe to put in a URL and to send to the API.
export const MAX_SEARCH_LENGTH = 100;

/** Trimmed, lowercased, without control characters, cut to the limit by whole characters (never half an emoji). */
export function normalizeSearchText(text: string): string {
  const clean = text.replace(/\p{Cc}/gu, ' ').trim().toLowerCase();
  return Array.from(clean.toWellFormed()).slice(0, MAX_SEARCH_LENGTH).join('').trim();
}

/** Hindi/Hinglish (or any) words a shopper types → the catalogue words they mean (src/content/settings/synonyms.yaml). */
export type Synonyms = ReadonlyMap<string, readonly string[]>;

/**
 * One thing the shopper asked for: a word (with the catalogue words it may also mean) or a pack size, written the way
 * the catalogue writes it ('1 kg', '500 g', '1 l', '200 ml').
 */
export type SearchTerm =
  | {
      kind: 'word';
      /** The shopper's word first, then the catalogue words a synonym gives it. */
      alternatives: string[];
      /** Whether near misses of the shopper's word count (the search turns it off for a word the catalogue has). */
      typos?: boolean;
      /** Catalogue words the shopper's word may be a typo of, with their word similarity to it (the search finds them). */
      corrections?: { word: string; similarity: number }[];
    }
  | { kind: 'pack'; size: string };

const UNITS: Record<string, 'g' | 'kg' | 'ml' | 'l'> = {
  g: 'g', gm: 'g', gms: 'g', gram: 'g', grams: 'g', gr: 'g', grm: 'g',
  kg: 'kg', kgs: 'kg', kilo: 'kg', kilos: 'kg', kilogram: 'kg', kilograms: 'kg',
  ml: 'ml', mls: 'ml', millilitre: 'ml', millilitres: 'ml', milliliter: 'ml', milliliters: 'ml',
  l: 'l', lt: 'l', ltr: 'l', ltrs: 'l', litre: 'l', litres: 'l', liter: 'l', liters: 'l',
};
const PACK_SIZE = new RegExp(`(?<![\\p{L}\\p{N}.])(\\d+(?:\\.\\d+)?)\\s*(${Object.keys(UNITS).join('|')})(?![\\p{L}\\p{N}])`, 'gu');

/** A pack size the way the catalogue writes it: 1000 g and 1kg are both '1 kg', 0.5 l is '500 ml'. */
export function canonicalPackSize(amount: number, unit: string): string | undefined {
  const base = UNITS[unit];
  if (base === undefined || !Number.isFinite(amount) || amount <= 0) return undefined;
  const small = base === 'kg' || base === 'l' ? amount * 1000 : amount;
  const [smallUnit, bigUnit] = base === 'g' || base === 'kg' ? ['g', 'kg'] : ['ml', 'l'];
  const rounded = Math.round(small * 1000) / 1000;
  return rounded >= 1000 ? `${rounded / 1000} ${bigUnit}` : `${rounded} ${smallUnit}`;
}

/** The weights and volumes a text names, in grams or millilitres ('Atta 5 kg' → 5000 g, '1.5 ltr' → 1500 ml). */
export function measuresIn(text: string): { amount: number; unit: 'g' | 'ml' }[] {
  return [...text.toLowerCase().matchAll(PACK_SIZE)].flatMap(([, amount, unit]) => {
    const base = UNITS[unit!];
    const value = Number(amount);
    if (base === undefined || !(value > 0)) return [];
    const big = base === 'kg' || base === 'l';
    return [{ amount: Math.round((big ? value * 1000 : value) * 1000) / 1000, unit: base === 'g' || base === 'kg' ? 'g' : 'ml' }];
  });
}

/** Words no longer than this are not worth a synonym typo match (one wrong letter makes another word). */
const MIN_TYPO_KEY_LENGTH = 5;

/** Levenshtein distance, stopping early once it exceeds `max`. */
function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...current) > max) return false;
    previous = current;
  }
  return previous[b.length]! <= max;
}

/** The synonym a word is, exactly or with one wrong, missing or extra letter ('chawl' → 'chawal'). */
function synonymOf(phrase: string, synonyms: Synonyms): readonly string[] | undefined {
  const exact = synonyms.get(phrase);
  if (exact) return exact;
  if (phrase.length < MIN_TYPO_KEY_LENGTH - 1) return undefined;
  for (const [key, meanings] of synonyms) {
    if (key.length >= MIN_TYPO_KEY_LENGTH && editDistanceWithin(phrase, key, 1)) return meanings;
  }
  return undefined;
}

/** The longest synonym key, in words ('kali mirch' is two). */
const MAX_SYNONYM_WORDS = 3;

/**
 * What a search text asks for: its pack sizes, and its words each with the catalogue words a synonym gives them.
 * Several-word synonyms ('kali mirch') are taken before their single words.
 */
export function searchTerms(text: string, synonyms: Synonyms): SearchTerm[] {
  const clean = normalizeSearchText(text);
  const terms: SearchTerm[] = [];
  const packs = new Set<string>();
  const rest = clean.replace(PACK_SIZE, (_, amount: string, unit: string) => {
    const size = canonicalPackSize(Number(amount), unit);
    if (size !== undefined) packs.add(size);
    return ' ';
  });
  const words = rest.split(/[^\p{L}\p{N}.]+|(?<!\d)\.|\.(?!\d)/u).filter((w) => w.length > 0);
  const seen = new Set<string>();
  for (let i = 0; i < words.length; ) {
    let taken = 1;
    let meanings: readonly string[] | undefined;
    for (let n = Math.min(MAX_SYNONYM_WORDS, words.length - i); n >= 1; n--) {
      meanings = synonymOf(words.slice(i, i + n).join(' '), synonyms);
      if (meanings) {
        taken = n;
        break;
      }
    }
    const phrase = words.slice(i, i + taken).join(' ');
    i += taken;
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    // A word the synonym list knows is spelled as the grocer wrote it: its near misses are not what was meant.
    const alternatives = [...new Set([phrase, ...(meanings ?? [])])];
    terms.push(meanings ? { kind: 'word', alternatives, typos: false } : { kind: 'word', alternatives });
  }
  for (const size of packs) terms.push({ kind: 'pack', size });
  return terms;
}
