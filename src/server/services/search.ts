// Product search for the search page and the search box's suggestions: one ranking for both.
// A whole word beats the start of a word, which beats the inside of a word, which beats a typo; the word a product's
// name ends on (its head: Toned Milk is milk) counts more, and a product whose category matches too a little more;
// products that match every word (and pack size) the shopper typed come first. Synonyms (src/content/settings/synonyms.yaml) add the
// catalogue words a Hindi or Hinglish word means, and a typo adds the catalogue words it is near (`<%` against the
// search_words table, read through an index by the typo's first letters: word similarity at least
// WORD_SIMILARITY_THRESHOLD, set on every connection in src/server/db/client.ts). Candidates come from the pg_trgm GIN
// index on lower(name) (migration 0004) through LIKE.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { parse } from 'yaml';
import type { Database } from '../db/client.ts';
import type { FoodType } from '../../lib/food-type.ts';
import { followSynonyms, normalizeSearchText, searchTerms, type SearchTerm, type Synonyms } from '../../lib/search-text.ts';
import { synonymsSchema } from '../../lib/synonyms-schema.ts';
import { pictureAttributes } from '../../lib/picture.ts';
import type { SuggestionDto } from '../schemas.ts';
// catalogue.ts lists what this ranks; its rupees is used at call time, so the two modules' cycle is harmless.
import { rupees } from './catalogue.ts';

export const SYNONYMS_FILE = 'src/content/settings/synonyms.yaml';

/** The grocer's synonym list, keys and meanings in the form searches are (lowercased, trimmed). */
export function readSynonyms(file = path.resolve(SYNONYMS_FILE)): Synonyms {
  const parsed = synonymsSchema.safeParse(parse(fs.readFileSync(file, 'utf8')) ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${file}: ${problems}`);
  }
  return followSynonyms(
    Object.entries(parsed.data).map(([key, meaning]) => [
      normalizeSearchText(key),
      (Array.isArray(meaning) ? meaning : [meaning]).map(normalizeSearchText),
    ]),
  );
}

let synonymsRead: Synonyms | undefined;
/** Read once, on the first search (the file changes with a deploy, like store.yaml). */
const synonyms = (): Synonyms => (synonymsRead ??= readSynonyms());

/** The terms of a search text, with the grocer's synonyms. */
export const termsOf = (text: string): SearchTerm[] => searchTerms(text, synonyms());

/**
 * The terms, with the catalogue words each typo may mean. A word some product name has as a whole word ('dairy') is
 * taken as meant: its near misses would only add noise. One query, on indexes.
 */
async function termsFor(db: Database, text: string): Promise<SearchTerm[]> {
  const terms = termsOf(text);
  const checked = terms.flatMap((t) =>
    t.kind === 'word' && t.typos !== false && t.alternatives[0]!.length >= MIN_TYPO_LENGTH ? [t] : [],
  );
  const nearSynonyms = terms.flatMap((t) => (t.kind === 'word' && t.nearSynonym ? [t] : []));
  if (checked.length === 0 && nearSynonyms.length === 0) return terms;
  const hasWhole = (word: string) => sql`exists (select 1 from products where lower(name) ~ ${`\\m${escapeRegex(word)}\\M`})`;
  // Per word: null when a name has it whole, else its corrections; per near synonym, whether a name has it whole.
  const [row] = rowsOf<Record<string, { word: string; similarity: number }[] | boolean | null>>(
    await db.execute(
      sql`select ${sql.join(
        [
          ...checked.map((t, i) => {
            const word = t.alternatives[0]!;
            return sql`case when ${hasWhole(word)} then null else ${correctionsOf(word)} end as ${sql.identifier(`c${i}`)}`;
          }),
          ...nearSynonyms.map((t, i) => sql`${hasWhole(t.alternatives[0]!)} as ${sql.identifier(`n${i}`)}`),
        ],
        sql`, `,
      )}`,
    ),
  );
  checked.forEach((t, i) => {
    const corrections = row?.[`c${i}`];
    if (corrections === null) t.typos = false;
    else t.corrections = Array.isArray(corrections) ? corrections : [];
  });
  // A word the catalogue's names have is what the shopper meant, not a typo of a word of the synonym list.
  nearSynonyms.forEach((t, i) => {
    if (row?.[`n${i}`] === true) t.alternatives = t.alternatives.slice(0, 1);
  });
  return terms;
}

/**
 * The catalogue words a typo may be, nearest first (JSON). A typo keeps the word's first letters ('buter' is butter;
 * 'vutter' is not): they are rarely the mistyped ones, and a shopper who gets them wrong meant another word.
 */
const TYPO_SAME_START = 2;
/** At most this many corrections of one word ('buter': butter, buttermilk). */
const MAX_CORRECTIONS = 3;
export function correctionsOf(word: string): SQL {
  return sql`(select coalesce(json_agg(json_build_object('word', word, 'similarity', similarity)), '[]'::json)
    from (select word, word_similarity(${word}, word) as similarity from search_words
      where ${word} <% word and word like ${`${escapeLike(word.slice(0, TYPO_SAME_START))}%`} and word <> ${word}
      order by similarity desc, length(word), word limit ${MAX_CORRECTIONS}) nearest)`;
}

// Ranking weights of one word against one name.
const WHOLE_WORD = 1;
/**
 * A whole word that is the product name's head, the word it ends on before its pack size and bracketed words: 'Toned
 * Milk 1 l' is milk, 'Milk Bread' is bread and 'Ghee Diya (10 pcs)' a lamp, as an English compound names its last word.
 */
const HEAD_WORD = 1.1;
const WORD_START = 0.9;
const INSIDE_WORD = 0.5;
/**
 * A correction's score is scaled by its word similarity to the typo (0.45 to 1) and by this: a close typo ranks about
 * an exact match inside a word.
 */
const TYPO = 0.8;
/** A product whose category matches counts a little less than one whose own name does. */
const VIA_CATEGORY = 0.9;
/**
 * Added when the product's category matches too: the ghee of 'Edible Oils & Ghee' comes before a ghee lamp, rice of
 * 'Rice & Grains' before rice bran oil. Small enough that a category alone never beats the word in a name.
 */
const IN_ITS_AISLE = 0.05;
/**
 * What a pack size the shopper gave is worth: it picks among the sizes of what the words ask for, and never makes
 * another thing in that size ('basmati rice 5 kg': basmati in 1 kg before Kolam rice in 5 kg).
 */
const PACK_SIZE = 0.5;
/**
 * Shorter words are not typo-tolerant: 'dal' is as near to 'da', 'dates' and 'dark' as a typo would be, and each such
 * near miss would bring its own thousands of candidates.
 */
const MIN_TYPO_LENGTH = 5;
/** Trigrams cannot narrow a shorter text: such words rank, but do not pick candidates (unless nothing else can). */
const MIN_INDEXED_LENGTH = 3;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a word is too short to count inside another word: 'ri' means rice or ridge gourd, not every name with 'ri'
 * in it (a quarter of a large catalogue). Such a word matches the start of a word only.
 */
const startsOnly = (word: string) => word.length < MIN_INDEXED_LENGTH;

/** Whether some word of a lowercased name starts with `prefix`: LIKE patterns the trigram index answers. */
const aWordStarts = (name: SQL, prefix: string): SQL => {
  const like = escapeLike(prefix);
  return sql`(${name} like ${`${like}%`} or ${name} like ${`% ${like}%`})`;
};

/** A word a term may match, and what a match of it is worth (less than 1 for a typo's correction). */
interface WeightedWord {
  word: string;
  weight: number;
}

/** The words one term may match: the shopper's, the synonyms' catalogue words, and the corrections of a typo. */
const weightedWords = (term: SearchTerm & { kind: 'word' }): WeightedWord[] => [
  ...term.alternatives.map((word) => ({ word, weight: 1 })),
  ...(term.corrections ?? []).map(({ word, similarity }) => ({ word, weight: similarity * TYPO })),
];

/** After a product name's head: bracketed words, a pack size ('1 kg', '9 m') and more bracketed words, then the end. */
const AFTER_HEAD = String.raw`(\s*\([^)]*\))*(\s+[0-9.]+\s*[a-z]+)?(\s*\([^)]*\))*\s*$`;

/**
 * How well one word (or synonym phrase) matches a lowercased name: 0 when it does not. Most candidates hold only some
 * of a search's words, so the cheap test that a name does not hold a word at all comes before the regular expressions.
 * `heads`: the name is a product's, whose head word counts more (a brand's or category's name has no head).
 */
function wordScore(name: SQL, { word, weight }: WeightedWord, heads = false): SQL {
  const re = escapeRegex(word);
  const head = heads ? sql`when ${name} ~ ${`\\m${re}\\M${AFTER_HEAD}`} then ${sql.raw(String(HEAD_WORD))}` : sql``;
  const score = sql`(case when strpos(${name}, ${word}) = 0 then 0
    ${head}
    when ${name} ~ ${`\\m${re}\\M`} then ${sql.raw(String(WHOLE_WORD))}
    when ${name} ~ ${`\\m${re}`} then ${sql.raw(String(WORD_START))}
    else ${sql.raw(String(startsOnly(word) ? 0 : INSIDE_WORD))} end)`;
  return weight === 1 ? score : sql`${score} * ${weight}::float8`;
}

/**
 * Whether a lowercased name may match a word: the part the trigram index answers. A short word's pattern starts at
 * the name's start or after a space, which the index reads as the trigrams that begin a word ('  r', ' ri').
 */
function mayMatch(name: SQL, word: string): SQL {
  return startsOnly(word) ? aWordStarts(name, word) : sql`${name} like ${`%${escapeLike(word)}%`}`;
}

/** Every word the terms may match, pack sizes aside. */
const wordsOf = (terms: SearchTerm[]) => terms.flatMap((t) => (t.kind === 'word' ? weightedWords(t).map((w) => w.word) : []));

/** The words that pick candidates: those the index can narrow, or every word when none can. */
function candidateWords(terms: SearchTerm[]): string[] {
  const words = [...new Set(wordsOf(terms))];
  const long = words.filter((w) => w.length >= MIN_INDEXED_LENGTH);
  return long.length > 0 ? long : words;
}

const productName = sql.raw('lower(p.name)');

/** One term's score for the `name` of a category or a brand (a category's is scored once, not once per product). */
function nameTermScore(term: SearchTerm): SQL {
  if (term.kind === 'pack') return sql`0`;
  return sql`greatest(${sql.join(weightedWords(term).map((w) => wordScore(sql.raw('lower(name)'), w)), sql`, `)})`;
}

/** The query's table of the products that have a pack of the `index`th pack size (one read of the packs' index). */
const packTable = (index: number) => sql.identifier(`pack${index}`);

/** Whether the product `alias` comes in a pack size: its name says so, or it is in the size's pack table. */
function hasPack(alias: string, size: string, index: number): SQL {
  const name = sql.raw(`lower(${alias}.name)`);
  const re = `(^|[^0-9.])${escapeRegex(size)}\\M`;
  return sql`(strpos(${name}, ${size}) > 0 and ${name} ~ ${re}
    or exists (select 1 from ${packTable(index)} where product_id = ${sql.raw(`${alias}.id`)}))`;
}

/**
 * One term's score for a product: its best alternative in the product's name or (a little less) its category's
 * (`index`: the term's column in the categories' scores), or a pack size's (`index`: its pack table).
 */
function productTermScore(term: SearchTerm, index: number): SQL {
  if (term.kind === 'pack') return sql`(case when ${hasPack('p', term.size, index)} then ${sql.raw(String(PACK_SIZE))} else 0 end)`;
  const scores = weightedWords(term).map((w) => wordScore(productName, w, true));
  const category = sql`c.${sql.identifier(`c${index}`)}`;
  scores.push(sql`${category} * ${sql.raw(String(VIA_CATEGORY))}`);
  return sql`(greatest(${sql.join(scores, sql`, `)}) + ${category} * ${sql.raw(String(IN_ITS_AISLE))})`;
}

/**
 * How many of its terms a product (or brand, or category) must match to be found at all: one of a search of one or
 * two terms, all but one of a longer one ('fresh tomatoes organic' finds nothing rather than everything fresh).
 */
export const requiredMatches = (termCount: number) => (termCount <= 2 ? Math.min(termCount, 1) : termCount - 1);

/** How many terms a row matched, and its total score, from its columns s0, s1, … (ordered by RANK_ORDER). */
function rankingOf(count: number): { matched: SQL; score: SQL } {
  const columns = Array.from({ length: count }, (_, i) => sql.identifier(`s${i}`));
  return {
    matched: sql.join(
      columns.map((c) => sql`(${c} > 0)::int`),
      sql` + `,
    ),
    score: sql.join(columns, sql` + `),
  };
}

/** Best first: the most terms matched, then the best total, then the shortest name (the closest), then by name. */
const RANK_ORDER = sql.raw('matched desc, score desc, length(name) asc, name asc, id asc');

interface RankedProduct {
  id: number;
  name: string;
  matched: number;
  score: number;
  total: number;
  /** FSSAI's mark, which a product suggestion carries (issue 24). */
  foodType: FoodType | null;
}

/** The query that ranks products for search terms (exported for EXPLAIN in tests); undefined when nothing to search. */
export function productSearchQuery(terms: SearchTerm[], offset: number, limit: number, withTotal = true): SQL | undefined {
  const words = candidateWords(terms);
  const packs = terms.flatMap((t, index) => (t.kind === 'pack' ? [{ size: t.size, index }] : []));
  if (words.length === 0 && packs.length === 0) return undefined;
  // Candidates by name (bitmap scans of the trigram index) and by category (the category index), as a union of two
  // parts that do not overlap: an OR of the two would make PostgreSQL read every product, and removing duplicates
  // from thousands of rows costs more than telling them apart.
  const nameMayMatch = (column: string) =>
    sql.join(
      words.map((w) => mayMatch(sql.raw(`lower(${column})`), w)),
      sql` or `,
    );
  // A product found only by its category scores what its category does (and its pack size, when the shopper gave
  // one), so within a category such products rank by name alone, those in that size first. A search that counts
  // nothing needs only the first `offset + limit` of each (read in that order from products_category_name_order_idx).
  // Not so when a word too short to pick candidates, or a second pack size, may still tell them apart.
  const categoryOnlyRankByName = !withTotal && packs.length <= 1 && words.length === new Set(wordsOf(terms)).size;
  const firstOfCategory = (pack: SQL) =>
    sql`(select id, name, category_id from products q where category_id = m.id and not (${nameMayMatch('q.name')}) and ${pack}
        order by length(name), name, id limit ${offset + limit})`;
  const [pack] = packs;
  const byCategoryOnly = categoryOnlyRankByName
    ? sql`select p.id, p.name, p.category_id from categories m cross join lateral (${
        pack
          ? sql`${firstOfCategory(hasPack('q', pack.size, pack.index))}
              union all ${firstOfCategory(sql`not ${hasPack('q', pack.size, pack.index)}`)}`
          : firstOfCategory(sql`true`)
      }) p
        where ${nameMayMatch('m.name')}`
    : sql`select id, name, category_id from products
        where category_id in (select id from categories where ${nameMayMatch('name')}) and not (${nameMayMatch('name')})`;
  const candidates =
    words.length > 0
      ? sql`(select id, name, category_id from products where ${nameMayMatch('name')}
          union all
          ${byCategoryOnly})`
      : sql`products`;
  const packOnly =
    words.length > 0
      ? sql`true`
      : sql`(${sql.join(
          packs.map(({ size, index }) => productTermScore({ kind: 'pack', size }, index)),
          sql` + `,
        )}) > 0`;
  // Materialized and `offset 0`: each category and each product is scored once, not again in every place a score is
  // used (PostgreSQL would otherwise inline both and repeat the regular expressions).
  const scoreColumns = terms.map((t, i) => sql`${productTermScore(t, i)} as ${sql.identifier(`s${i}`)}`);
  const categoryColumns = terms.map((t, i) => sql`${nameTermScore(t)} as ${sql.identifier(`c${i}`)}`);
  const { matched, score } = rankingOf(terms.length);
  return sql`
    with c as materialized (select id, ${sql.join(categoryColumns, sql`, `)} from categories)
    ${sql.join(
      packs.map(({ size, index }) => sql`, ${packTable(index)} as materialized (select product_id from product_variants where lower(name) = ${size})`),
      sql``,
    )}
    select id, name, (${matched})::int as matched, (${score})::float8 as score,
      ${withTotal ? sql`(count(*) over ())::int` : sql`0`} as total,
      (select f.food_type from products f where f.id = scored.id) as "foodType"
    from (
      select p.id, p.name, ${sql.join(scoreColumns, sql`, `)}
      from ${candidates} p join c on c.id = p.category_id
      where ${packOnly}
      offset 0
    ) scored
    where ${matched} >= ${requiredMatches(terms.length)}
    order by ${RANK_ORDER}
    offset ${offset} limit ${limit}`;
}

async function rankedProducts(
  db: Database,
  terms: SearchTerm[],
  offset: number,
  limit: number,
  withTotal = true,
): Promise<RankedProduct[]> {
  const query = productSearchQuery(terms, offset, limit, withTotal);
  return query ? rowsOf<RankedProduct>(await db.execute(query)) : [];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** One page of the products a search finds, best first, and how many it finds in all. */
export async function searchProductIds(
  db: Database,
  text: string,
  pageNo: number,
  pageSize: number,
): Promise<{ ids: number[]; total: number }> {
  const rows = await rankedProducts(db, await termsFor(db, text), pageNo * pageSize, pageSize);
  return { ids: rows.map((r) => r.id), total: rows[0]?.total ?? 0 };
}

/** Brands or categories whose names match, best first. */
async function rankedNames<Id>(db: Database, table: 'brands' | 'categories', terms: SearchTerm[], limit: number) {
  const wordTerms = terms.filter((t) => t.kind === 'word');
  const words = candidateWords(wordTerms);
  if (words.length === 0) return [];
  const name = sql.raw('lower(name)');
  const scoreColumns = wordTerms.map((t, i) => sql`${nameTermScore(t)} as ${sql.identifier(`s${i}`)}`);
  const { matched, score } = rankingOf(wordTerms.length);
  const query = sql`
    select id, name, (${matched})::int as matched, (${score})::float8 as score
    from (select id, name, ${sql.join(scoreColumns, sql`, `)} from ${sql.identifier(table)}
      where ${sql.join(words.map((w) => mayMatch(name, w)), sql` or `)}) scored
    order by matched desc, score desc, name asc
    limit ${limit}`;
  return rowsOf<{ id: Id; name: string; matched: number; score: number }>(await db.execute(query));
}

/** What a product suggestion shows beside its name and food mark: its first picture and its price. */
interface ProductCardColumns {
  pricePaise: number;
  imageUrl: string | null;
}

/** The best products for the terms, each with what its suggestion shows: the ranking's few rows, then their columns. */
async function rankedProductCards(db: Database, terms: SearchTerm[], limit: number): Promise<(RankedProduct & ProductCardColumns)[]> {
  // Suggestions show no count: without one, PostgreSQL keeps only the best few while it ranks.
  const query = productSearchQuery(terms, 0, limit, false);
  if (!query) return [];
  return rowsOf<RankedProduct & ProductCardColumns>(
    await db.execute(sql`
      select r.*, (select price_paise from products where products.id = r.id) as "pricePaise",
        (select i.image_url from product_images i where i.product_id = r.id order by i.position, i.id limit 1) as "imageUrl"
      from (${query}) r
      order by ${RANK_ORDER}`),
  );
}

/** At most this many brands, and as many categories, among the suggestions. */
const NAMES_PER_KIND = 3;
/** At equal rank a category leads (a whole aisle), then a brand, then a product. */
const KIND_ORDER = { Category: 0, Brand: 1, products: 2 } as const;

/** Suggestions for the search box: the best products (with a small picture, price and food mark), brands and categories, best first. */
export async function suggest(db: Database, text: string, limit = 10): Promise<SuggestionDto[]> {
  const terms = await termsFor(db, text);
  const [productRows, brandRows, categoryRows] = await Promise.all([
    rankedProductCards(db, terms, limit),
    rankedNames<number>(db, 'brands', terms, NAMES_PER_KIND),
    rankedNames<string>(db, 'categories', terms, NAMES_PER_KIND),
  ]);
  // A brand or a category has no pack size: it counts as matching the shopper's pack sizes when it matches the words.
  const packs = terms.length - terms.filter((t) => t.kind === 'word').length;
  // A brand's or category's name is all of what it is: its words count as a product's head word in its own aisle, so
  // the bonuses that tell products apart never put one before the brand or aisle the shopper named.
  const named = (r: { matched: number; score: number }) => ({
    matched: r.matched + packs,
    score: r.score * (HEAD_WORD + IN_ITS_AISLE) + packs * PACK_SIZE,
  });
  const enough = (r: { matched: number }) => r.matched >= requiredMatches(terms.length);
  const ranked = [
    ...categoryRows.map((r) => ({ ...named(r), dto: { id: r.id, name: r.name, type: 'Category' as const } })),
    ...brandRows.map((r) => ({ ...named(r), dto: { id: r.id, name: r.name, type: 'Brand' as const } })),
    ...productRows.map((r) => ({
      matched: r.matched,
      score: r.score,
      dto: {
        id: r.id,
        name: r.name,
        type: 'products' as const,
        foodType: r.foodType,
        imageUrl: r.imageUrl === null ? null : pictureAttributes(r.imageUrl, 'suggestion').src,
        price: rupees(r.pricePaise),
        pricePaise: r.pricePaise,
      },
    })),
  ];
  const best = ranked
    .filter(enough)
    .sort((a, b) => b.matched - a.matched || b.score - a.score || KIND_ORDER[a.dto.type] - KIND_ORDER[b.dto.type]);
  return best.slice(0, limit).map((r) => r.dto);
}

/** A term of a search as the search read it (issue 24's "We looked for"): as typed, and what it was taken to mean. */
export interface UnderstoodTerm {
  typed: string;
  /** The catalogue words a synonym gave it and the corrections of a typo; empty when it was taken as typed. */
  meant: string[];
}

/** At most this many of a search's words are weighed for its nearest categories (each costs two queries). */
const NEAREST_WORDS = 5;
/** Each word's best products that vote for their categories. */
const VOTING_PRODUCTS = 8;
/** At most this many nearest categories. */
const NEAREST_CATEGORIES = 2;

/**
 * How a search was read, and the categories nearest to it, best first: for each word, the categories its words or
 * synonyms name, and those its best products are in, each word weighing alike. For a search that found nothing.
 */
export async function understandSearch(db: Database, text: string): Promise<{ understood: UnderstoodTerm[]; nearestCategoryIds: string[] }> {
  const terms = await termsFor(db, text);
  const understood = terms.map((t): UnderstoodTerm =>
    t.kind === 'pack'
      ? { typed: t.size, meant: [] }
      : { typed: t.alternatives[0]!, meant: [...new Set([...t.alternatives.slice(1), ...(t.corrections ?? []).map((c) => c.word)])] },
  );
  const votes = new Map<string, number>();
  const vote = (categoryId: string, weight: number) => votes.set(categoryId, (votes.get(categoryId) ?? 0) + weight);
  const words = terms.filter((t) => t.kind === 'word').slice(0, NEAREST_WORDS);
  await Promise.all(
    words.map(async (term) => {
      const [named, found] = await Promise.all([
        rankedNames<string>(db, 'categories', [term], NEAREST_CATEGORIES),
        categoriesOfBest(db, [term], VOTING_PRODUCTS),
      ]);
      // A category the word names outweighs one that merely holds some of its products.
      for (const c of named) vote(c.id, c.score);
      const total = found.reduce((sum, c) => sum + c.products, 0);
      for (const c of found) vote(c.categoryId, c.products / total);
    }),
  );
  const nearestCategoryIds = [...votes]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, NEAREST_CATEGORIES)
    .map(([id]) => id);
  return { understood, nearestCategoryIds };
}

/** The categories of the best `limit` products for the terms, with how many of those each holds. */
async function categoriesOfBest(db: Database, terms: SearchTerm[], limit: number): Promise<{ categoryId: string; products: number }[]> {
  const query = productSearchQuery(terms, 0, limit, false);
  if (!query) return [];
  return rowsOf<{ categoryId: string; products: number }>(
    await db.execute(sql`
      select p.category_id as "categoryId", count(*)::int as products
      from (${query}) r join products p on p.id = r.id
      group by p.category_id`),
  );
}
