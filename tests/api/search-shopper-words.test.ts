// Search as shoppers type it (issue 24), on the shop's own seeded catalogue (400 products): Devanagari, the ranking
// cases of the issue, brands the shop does not carry, suggestions with a picture, price and food mark, and what a
// search that found nothing offers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { searchTerms } from '../../src/lib/search-text.ts';
import { sizedImageUrl } from '../../src/lib/picture.ts';
import { readSynonyms } from '../../src/server/services/search.ts';
import type { ProductDto, SearchHelpDto, SuggestionDto } from '../../src/server/schemas.ts';
import { startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 400 });
});
afterAll(async () => api?.close());

const suggestions = async (text: string) => {
  const res = await api.get(`/api/app/Products/SearchProducts/${encodeURIComponent(text)}`);
  expect(res.status, text).toBe(200);
  return (await res.json()) as SuggestionDto[];
};
const productSuggestions = async (text: string) => (await suggestions(text)).filter((s) => s.type === 'products');

/** All the products a search lists (up to 100), best first. */
async function found(text: string): Promise<ProductDto[]> {
  const res = await api.get(`/api/app/Products/SearchResults/${encodeURIComponent(text)}?pageSize=100`);
  if (res.status === 404) return [];
  expect(res.status, text).toBe(200);
  return (await res.json()) as ProductDto[];
}
const names = async (text: string) => (await found(text)).map((p) => p.name);

async function help(text: string): Promise<SearchHelpDto> {
  const res = await api.get(`/api/app/Products/SearchHelp/${encodeURIComponent(text)}`);
  expect(res.status, text).toBe(200);
  return (await res.json()) as SearchHelpDto;
}

/** Every name matching `first` comes before every name matching `later`; both must be there. */
function expectBefore(list: string[], first: RegExp, later: RegExp) {
  const lastFirst = list.findLastIndex((n) => first.test(n));
  const firstLater = list.findIndex((n) => later.test(n));
  expect(lastFirst, `no ${first} in ${list.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(firstLater, `no ${later} in ${list.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(lastFirst, list.join(', ')).toBeLessThan(firstLater);
}

const packsOf = (p: ProductDto) => [...p.productVariants.map((v) => v.name), ...(/ (\d+(?:\.\d+)? (?:g|kg|ml|l))$/.exec(p.name)?.slice(1) ?? [])];

describe('the ranking cases of issue 24', () => {
  it("'ghee': a ghee to eat first, every one of them before a ghee lamp", async () => {
    const list = await names('ghee');
    expect(list[0]).toMatch(/\b(cow|desi) ghee\b/i);
    expect(list[1]).not.toMatch(/diya/i);
    expectBefore(list, /\b(cow|desi) ghee\b/i, /ghee diya/i);
    const suggested = (await productSuggestions('ghee')).map((s) => s.name);
    expect(suggested[0]).toMatch(/\b(cow|desi) ghee\b/i);
    expect(suggested[1]).not.toMatch(/diya/i);
  });

  it("'doodh': milk first, milk to drink before milk bread, chocolate or puppy food", async () => {
    const list = await names('doodh');
    expect(list[0]).toMatch(/\b(toned|full cream) milk\b/i);
    expectBefore(list, /\b(toned|full cream) milk\b/i, /puppy|milk bread|milk chocolate/i);
    const [first] = await productSuggestions('doodh');
    expect(first!.name).toMatch(/\b(toned|full cream) milk\b/i);
  });

  it("'sabzi': the vegetables aisle, suggested first, and never sabudana", async () => {
    const [first] = await suggestions('sabzi');
    expect(first).toMatchObject({ type: 'Category', id: 'fruits-vegetables' });
    const products = await found('sabzi');
    expect(products.length).toBeGreaterThan(0);
    expect(products.filter((p) => p.categoryId !== 'fruits-vegetables').map((p) => p.name)).toEqual([]);
    expect((await suggestions('sabzi')).filter((s) => /sabudana/i.test(s.name))).toEqual([]);
  });

  it("'basmati rice 5 kg': a basmati rice (in 5 kg when there is one) first, not Kolam", async () => {
    const products = await found('basmati rice 5 kg');
    const basmati = products.filter((p) => /\bbasmati rice\b/i.test(p.name));
    expect(basmati.length).toBeGreaterThan(0);
    const [first] = products;
    expect(first!.name).toMatch(/\bbasmati rice\b/i);
    if (basmati.some((p) => packsOf(p).includes('5 kg'))) expect(packsOf(first!)).toContain('5 kg');
    // Every basmati rice, in any size, before Kolam rice in 5 kg.
    expectBefore(products.map((p) => p.name), /\bbasmati rice\b/i, /\bkolam\b/i);
    expect((await productSuggestions('basmati rice 5 kg'))[0]!.name).toMatch(/\bbasmati rice\b/i);
  });

  it.each([
    ['maggi', /\binstant noodles\b/i, 'noodles-pasta'],
    ['surf excel', /\bdetergent\b/i, 'detergents-laundry'],
  ])("'%s', a brand the shop does not carry, finds its nearest products (%s) first, and nothing from other aisles", async (text, nearest, aisle) => {
    const products = await found(text);
    expect(products.length).toBeGreaterThan(0);
    expect(products[0]!.name).toMatch(nearest);
    expect(products.filter((p) => p.categoryId !== aisle).map((p) => p.name)).toEqual([]);
    const suggested = await productSuggestions(text);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested[0]!.name).toMatch(nearest);
  });

  it("keeps the older cases: 'dal' lists dals before sandalwood, 'oil' oils before boiled rice", async () => {
    expectBefore(await names('dal'), /\bdal\b/i, /sandalwood/i);
    expectBefore(await names('oil'), /\boil\b/i, /boiled/i);
  });
});

describe('Devanagari finds what its Latin spelling finds', () => {
  it.each([
    ['दाल', 'dal', /\bdal\b/i],
    ['चावल', 'chawal', /\brice\b/i],
    ['दूध', 'doodh', /\bmilk\b/i],
    ['घी', 'ghee', /\bghee\b/i],
    ['आटा', 'atta', /\batta\b/i],
    ['सब्ज़ी', 'sabzi', /./],
  ])('%s finds what %s finds', async (hindi, latin, expected) => {
    const products = await names(hindi);
    expect(products.length).toBeGreaterThan(0);
    expect(products).toEqual(await names(latin));
    expect(products[0]).toMatch(expected);
    expect((await suggestions(hindi)).map((s) => s.name)).toEqual((await suggestions(latin)).map((s) => s.name));
  });

  it('दाल finds the dals: those with dal in their names or in Dals & Pulses, before anything else', async () => {
    const products = await found('दाल');
    expect(products.filter((p) => /\bdal\b/i.test(p.name)).length).toBeGreaterThan(2);
    const dalish = (p: ProductDto) => /\bdal/i.test(p.name) || p.categoryId === 'dals-pulses';
    const firstOther = products.findIndex((p) => !dalish(p));
    if (firstOther >= 0) expect(products.slice(firstOther).filter(dalish).map((p) => p.name)).toEqual([]);
  });

  it('takes a word with or without its nukta, typed composed or not, as one word', async () => {
    const withNukta = await names('\u0938\u092c\u094d\u095b\u0940'); // सब्ज़ी with ज़ as one character (U+095B)
    expect(withNukta.length).toBeGreaterThan(0);
    expect(await names('\u0938\u092c\u094d\u091c\u093c\u0940')).toEqual(withNukta); // ज and the nukta apart
    expect(await names('\u0938\u092c\u094d\u091c\u0940')).toEqual(withNukta); // सब्जी, no nukta
  });

  it('reads a Hindi phrase of several words and a pack size: सरसों का तेल 1 l', async () => {
    const [first] = await found('सरसों का तेल 1 l');
    expect(first!.name).toMatch(/mustard oil/i);
    expect(packsOf(first!)).toContain('1 l');
  });

  it('accepts Devanagari with its marks and joiners in both search calls', async () => {
    for (const text of ['\u0915\u094d\u200d\u0937', 'दाल', 'हरी मिर्च']) {
      expect((await api.get(`/api/app/Products/SearchProducts/${encodeURIComponent(text)}`)).status, text).toBe(200);
      expect([200, 404], text).toContain((await api.get(`/api/app/Products/SearchResults/${encodeURIComponent(text)}`)).status);
    }
  });
});

describe('a product suggestion shows its picture, price and food mark', () => {
  it("carries the product's first picture at the smallest width, its price in paise and rupees, and its food type", async () => {
    const suggested = await productSuggestions('dal');
    expect(suggested.length).toBeGreaterThan(2);
    for (const s of suggested) {
      const product = (await (await api.get(`/api/app/Products/${s.id}`)).json()) as ProductDto;
      expect(s.pricePaise).toBe(product.pricePaise);
      expect(s.price).toBe(product.pricePaise / 100);
      expect(s.foodType).toBe(product.foodType);
      const first = product.productImages[0]?.imageUrl ?? null;
      expect(s.imageUrl).toBe(first === null ? null : (sizedImageUrl(first, 160) ?? first));
    }
    const pictured = suggested.find((s) => s.imageUrl);
    expect(pictured, 'a suggestion with a picture').toBeDefined();
    const picture = await api.get(pictured!.imageUrl!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
  });

  it('a brand or category suggestion carries none of them', async () => {
    const named = (await suggestions('dal')).concat(await suggestions('desi dairy')).filter((s) => s.type !== 'products');
    expect(named.length).toBeGreaterThan(0);
    for (const s of named) expect(Object.keys(s).sort()).toEqual(['id', 'name', 'type']);
  });
});

describe('a search that finds nothing: the words it understood and the nearest category', () => {
  it('says how it read each word: a synonym, a Hindi word, a typo, a pack size, a word it does not know', async () => {
    const { understood } = await help('सब्ज़ी buter mandii 5kg');
    expect(understood).toEqual([
      { typed: 'सब्ज़ी'.normalize('NFC'), meant: ['sabzi', 'vegetables'] },
      { typed: 'buter', meant: expect.arrayContaining(['butter']) },
      { typed: 'mandii', meant: expect.any(Array) },
      { typed: '5 kg', meant: [] },
    ]);
    expect((await help('qqqzzzxxx')).understood).toEqual([{ typed: 'qqqzzzxxx', meant: [] }]);
  });

  it('offers the category its words name first, with its picture and count', async () => {
    const text = 'सब्ज़ी मंडी दिल्ली';
    expect(await found(text)).toEqual([]);
    const { categories } = await help(text);
    expect(categories[0]).toMatchObject({ id: 'fruits-vegetables', name: 'Fruits & Vegetables' });
    expect(categories[0]!.count).toBeGreaterThan(0);
    expect(categories[0]!.image).toMatch(/^\/api\/images\//);
  });

  it('offers the category where the products of its words are when no word names one', async () => {
    // Nothing has two of the three words; 'tomatoes' alone finds cherry tomatoes, in Fruits & Vegetables.
    expect(await found('tomatoes jumbo xxl')).toEqual([]);
    expect((await help('tomatoes jumbo xxl')).categories.map((c) => c.id)).toContain('fruits-vegetables');
  });

  it('offers no category for words that find nothing at all', async () => {
    expect((await help('qqqzzzxxx')).categories).toEqual([]);
  });
});

describe('a word of the catalogue is never a typo of a word of the synonym list', () => {
  it("keeps every word of the products' names that is one letter from a word of the list as typed ('masoori', not masoor)", async () => {
    const synonyms = readSynonyms();
    const vocabulary = (await api.db.execute(sql`select word from search_words`)) as unknown as { rows: { word: string }[] };
    const near = vocabulary.rows
      .map((r) => r.word)
      .filter((word) => {
        const [term] = searchTerms(word, synonyms);
        return term?.kind === 'word' && term.nearSynonym === true && term.alternatives[0] === word;
      });
    expect(near.length, 'catalogue words one letter from a word of the list').toBeGreaterThan(0);
    const takenOver: string[] = [];
    for (const word of near) {
      const { understood } = await help(word);
      if (understood[0]!.meant.length > 0) takenOver.push(`${word}: ${understood[0]!.meant.join(', ')}`);
    }
    expect(takenOver).toEqual([]);
    expect(await names('whole wheat atta')).not.toContainEqual(expect.stringMatching(/chole|chana/i));
  });

  it('still forgives a typo of a word of the list that no name has (chawl is chawal)', async () => {
    expect((await help('chawl')).understood).toEqual([{ typed: 'chawl', meant: ['rice'] }]);
  });
});
