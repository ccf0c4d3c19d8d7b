// Search text as the SPEC wants it (trimmed, lowercased), safe to put in a URL and to send to the API.
export const MAX_SEARCH_LENGTH = 100;

/**
 * Trimmed, lowercased, without control characters, in Unicode's composed form (NFC: a Devanagari word typed on two
 * keyboards is one text), cut to the limit by whole characters (never half an emoji).
 */
export function normalizeSearchText(text: string): string {
  const clean = text.replace(/\p{Cc}/gu, ' ').trim().toLowerCase();
  return Array.from(clean.toWellFormed().normalize('NFC')).slice(0, MAX_SEARCH_LENGTH).join('').trim();
}

/**
 * A word as the synonym list is looked up: without the nukta (the dot under ज़, ड़) and the zero-width joiners, which
 * shoppers type or leave out as their keyboard lets them (सब्ज़ी and सब्जी are one word to a shopper).
 */
export const synonymKeyOf = (phrase: string): string => phrase.replace(/[\u093c\u200c\u200d]/gu, '');

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
      /**
       * The synonyms came from a word of the list one letter away ('chawl' for chawal): the search keeps a word the
       * catalogue's names have as typed instead ('whole' is not a typo of chole, nor 'masoori' of masoor).
       */
      nearSynonym?: boolean;
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

/** What the synonym a word is means: the word exactly, or with one wrong, missing or extra letter (`nearly`: 'chawl'). */
function synonymOf(typed: string, synonyms: Synonyms): { meanings: readonly string[]; nearly: boolean } | undefined {
  const phrase = synonymKeyOf(typed);
  const exact = synonyms.get(phrase);
  if (exact) return { meanings: exact, nearly: false };
  if (phrase.length < MIN_TYPO_KEY_LENGTH - 1) return undefined;
  // A typo keeps the word's first two letters, as the search's own corrections do: दिल्ली (Delhi) is not बिल्ली (cat).
  const start = phrase.slice(0, 2);
  for (const [key, meanings] of synonyms) {
    if (key.length >= MIN_TYPO_KEY_LENGTH && key.startsWith(start) && editDistanceWithin(phrase, key, 1)) return { meanings, nearly: true };
  }
  return undefined;
}

/**
 * The list with each meaning that is itself a word of the list followed to what it means, so a grocer writes a Hindi
 * word's Latin spelling once: `चावल: chawal` and `chawal: rice` make चावल mean chawal and rice. Keys are taken as
 * synonymKeyOf reads them.
 */
export function followSynonyms(entries: Iterable<readonly [string, readonly string[]]>): Synonyms {
  const direct = new Map<string, readonly string[]>();
  for (const [key, meanings] of entries) direct.set(synonymKeyOf(key), meanings);
  const followed = new Map<string, readonly string[]>();
  for (const [key, meanings] of direct) {
    const all: string[] = [];
    const seen = new Set([key]);
    const visit = (words: readonly string[]) => {
      for (const word of words) {
        if (seen.has(word)) continue;
        seen.add(word);
        all.push(word);
        const further = direct.get(synonymKeyOf(word));
        if (further) visit(further);
      }
    };
    visit(meanings);
    // A word that means only itself ('ghee: ghee') keeps that meaning.
    followed.set(key, all.length > 0 ? all : meanings);
  }
  return followed;
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
  // A word's marks belong to it: Devanagari writes most vowels as marks (दाल is द, the mark ा, ल), and the joiners
  // hold a conjunct together.
  const words = rest.split(/[^\p{L}\p{M}\p{N}.\u200c\u200d]+|(?<!\d)\.|\.(?!\d)/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const seen = new Set<string>();
  for (let i = 0; i < words.length; ) {
    let taken = 1;
    let synonym: ReturnType<typeof synonymOf>;
    for (let n = Math.min(MAX_SYNONYM_WORDS, words.length - i); n >= 1; n--) {
      synonym = synonymOf(words.slice(i, i + n).join(' '), synonyms);
      if (synonym) {
        taken = n;
        break;
      }
    }
    const phrase = words.slice(i, i + taken).join(' ');
    i += taken;
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    // A word the synonym list knows is spelled as the grocer wrote it: its near misses are not what was meant.
    const alternatives = [...new Set([phrase, ...(synonym?.meanings ?? [])])];
    if (!synonym) terms.push({ kind: 'word', alternatives });
    else if (synonym.nearly) terms.push({ kind: 'word', alternatives, typos: false, nearSynonym: true });
    else terms.push({ kind: 'word', alternatives, typos: false });
  }
  for (const size of packs) terms.push({ kind: 'pack', size });
  return terms;
}
