// Search rules of issue 12 on the shop's own seeded catalogue (400 products): ranking, typos, synonyms, several words
// and pack sizes, the same for the suggestions and the search results.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDto, SuggestionDto } from '../../src/server/schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ products: 400 });
});
afterAll(async () => api?.close());

const suggestions = async (text: string) =>
  (await (await api.get(`/api/app/Products/SearchProducts/${encodeURIComponent(text)}`)).json()) as SuggestionDto[];

/** Names of all the products a search lists, best first. */
async function results(text: string): Promise<string[]> {
  const res = await api.get(`/api/app/Products/SearchResults/${encodeURIComponent(text)}?pageSize=100`);
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return ((await res.json()) as ProductDto[]).map((p) => p.name);
}

async function resultsWithPacks(text: string): Promise<{ name: string; category: string; packs: string[] }[]> {
  const res = await api.get(`/api/app/Products/SearchResults/${encodeURIComponent(text)}?pageSize=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as ProductDto[]).map((p) => ({
    name: p.name,
    category: p.categoryName,
    packs: p.productVariants.map((v) => v.name),
  }));
}

/** Every name matching `first` comes before every name matching `later`; both must be there. */
function expectBefore(names: string[], first: RegExp, later: RegExp) {
  const lastFirst = names.findLastIndex((n) => first.test(n));
  const firstLater = names.findIndex((n) => later.test(n));
  expect(lastFirst, `no ${first} in ${names.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(firstLater, `no ${later} in ${names.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(lastFirst).toBeLessThan(firstLater);
}

describe('ranking: a whole word or a word start beats a match inside a word', () => {
  it("'dal' lists every Dal before Sandalwood, and suggests Toor Dal and Chana Dal, never Punjab Da Swad's other goods", async () => {
    expectBefore(await results('dal'), /\bdal\b/i, /sandalwood/i);
    const suggested = await suggestions('dal');
    const brand = suggested.findIndex((s) => s.type === 'Brand' && s.name === 'Punjab Da Swad');
    const toorDal = suggested.findIndex((s) => /toor dal/i.test(s.name));
    expect(brand === -1 || brand > toorDal).toBe(true);
    const products = suggested.filter((s) => s.type === 'products').map((s) => s.name);
    expect(products.some((n) => /toor dal/i.test(n))).toBe(true);
    expect(products.some((n) => /chana dal/i.test(n))).toBe(true);
    expect(products.filter((n) => !/\bdal/i.test(n) && /punjab da swad|sandalwood/i.test(n))).toEqual([]);
  });

  it("'rice' lists rice before anything of Malabar Spice Route", async () => {
    const names = await results('rice');
    expect(names.slice(0, 10).every((n) => /\brice\b/i.test(n))).toBe(true);
    expect(names.filter((n) => /^malabar spice route (?!.*\brice)/i.test(n))).toEqual([]);
    expect((await suggestions('rice')).filter((s) => /malabar/i.test(s.name))).toEqual([]);
  });

  it("a word of one or two letters ('ri') matches the start of a word only, as a shopper typing rice means", async () => {
    const found = await resultsWithPacks('ri');
    expect(found.length).toBeGreaterThan(0);
    // Each has a word starting 'ri' in its name, or is in such a category (Rice & Grains).
    expect(found.filter((p) => !/\bri/i.test(p.name) && !/\bri/i.test(p.category))).toEqual([]);
    const suggested = (await suggestions('ri')).filter((s) => s.type === 'products').map((s) => s.name);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.filter((n) => !/\bri/i.test(n))).toEqual([]);
  });

  it("'oil' lists oils before Boiled rice", async () => {
    expectBefore(await results('oil'), /\boil\b/i, /boiled/i);
    const suggested = (await suggestions('oil')).map((s) => s.name);
    expect(suggested.length).toBe(10);
    expect(suggested.every((n) => /\boil\b/i.test(n))).toBe(true);
  });
});

describe('typos', () => {
  it.each([
    ['tomatoe', /tomato/i],
    ['buter', /butter/i],
    ['basmti', /basmati/i],
  ])('%s finds %s first, in the results and the suggestions', async (typo, expected) => {
    const names = await results(typo);
    expect(names.length).toBeGreaterThan(0);
    expect(names.slice(0, 3).every((n) => expected.test(n))).toBe(true);
    expect((await suggestions(typo)).filter((s) => s.type === 'products')[0]?.name).toMatch(expected);
  });

  it("takes a typo to keep a word's first two letters: 'vutter' is not butter", async () => {
    expect((await results('buttr')).some((n) => /butter/i.test(n))).toBe(true);
    expect((await results('vutter')).filter((n) => /butter/i.test(n))).toEqual([]);
  });

  it('corrects a typo of a word that only a product added later has (the vocabulary follows the catalogue)', async () => {
    expect(await results('shrikand')).toEqual([]);
    await api.db.execute(sql`
      insert into products (name, short_name, short_code, description, price_paise, mrp_paise, brand_id, category_id, stock)
      select 'Kesar Shrikhand', 'Shrikhand', 'SRK-1', 'Sweet strained curd with saffron.', 9000, 9500, b.id, c.id, 5
      from (select min(id) as id from brands) b, (select min(id) as id from categories) c`);
    expect(await results('shrikand')).toEqual(['Kesar Shrikhand']);
    expect((await suggestions('shrikand'))[0]).toMatchObject({ type: 'products', name: 'Kesar Shrikhand' });
  });
});

describe('synonyms (src/content/settings/synonyms.yaml)', () => {
  it.each([
    ['chawal', /\brice\b/i],
    ['tamatar', /\btomato/i],
    ['doodh', /\bmilk\b/i],
    ['kali mirch', /black pepper/i],
  ])('%s finds %s in the results and the suggestions', async (word, expected) => {
    const names = await results(word);
    expect(names.length).toBeGreaterThan(0);
    expect(expected.test(names[0]!)).toBe(true);
    expect((await suggestions(word)).some((s) => expected.test(s.name))).toBe(true);
  });

  it('takes a word of the list as meant, not as a typo of look-alike names: chawal finds rice and nothing else', async () => {
    const found = await resultsWithPacks('chawal');
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((p) => !/\brice\b/i.test(p.name) && !/\brice\b/i.test(p.category))).toEqual([]);
  });

  it('forgives a typo in a synonym (chawl is chawal)', async () => {
    const rice = await results('chawal');
    // 'chawl' also finds its own near misses, after everything 'chawal' finds.
    expect((await results('chawl')).slice(0, rice.length)).toEqual(rice);
    expect(await suggestions('chawl')).toEqual(await suggestions('chawal'));
  });
});

describe('several words and pack sizes', () => {
  const hasKg = (p: { name: string; packs: string[] }) => / 1 kg$/.test(p.name) || p.packs.includes('1 kg');

  it("'toor dal 1kg' lists Toor Dal in 1 kg first, then other Toor Dal or other dals", async () => {
    const found = await resultsWithPacks('toor dal 1kg');
    const all = found.filter((p) => /toor dal/i.test(p.name) && hasKg(p));
    expect(all.length).toBeGreaterThan(0);
    expect(found.slice(0, all.length)).toEqual(all);
    expect(found.slice(all.length).some((p) => /\bdal\b/i.test(p.name) && !/toor/i.test(p.name))).toBe(true);
  });

  it("'1kg', '1 kg' and '1000 g' are the same pack", async () => {
    const written = await results('toor dal 1kg');
    expect(await results('toor dal 1 kg')).toEqual(written);
    expect(await results('toor dal 1000 g')).toEqual(written);
    expect(await results('toor dal 1000gms')).toEqual(written);
  });

  it("'desi dairy milk 1 l' lists the brand's 1 l milk first", async () => {
    const [first] = await resultsWithPacks('desi dairy milk 1 l');
    expect(first!.name).toMatch(/^Desi Dairy Co\. .*\bmilk\b/i);
    expect(/ 1 l$/.test(first!.name) || first!.packs.includes('1 l')).toBe(true);
    expect((await suggestions('desi dairy milk 1 l'))[0]!.name).toBe(first!.name);
  });

  it('a brand suggestion needs all its words, and leads the products of that brand', async () => {
    const found = await suggestions('punjab da swad');
    expect(found[0]).toMatchObject({ type: 'Brand', name: 'Punjab Da Swad' });
    expect(found.slice(1).every((s) => s.type === 'products' && s.name.startsWith('Punjab Da Swad'))).toBe(true);
  });
});

describe('how much of a longer search must match', () => {
  it('three or more terms: all but one ("fresh tomatoes organic" finds nothing, not everything fresh)', async () => {
    expect(await results('fresh tomatoes organic')).toEqual([]);
    expect(await suggestions('fresh tomatoes organic')).toEqual([]);
    const found = await resultsWithPacks('toor dal 1kg');
    // A word may match the product's category ('Dals & Pulses') rather than its name.
    const terms = (p: { name: string; category: string; packs: string[] }) =>
      [/\btoor\b/i.test(p.name), /\bdal/i.test(`${p.name} ${p.category}`), / 1 kg$/.test(p.name) || p.packs.includes('1 kg')].filter(Boolean).length;
    expect(found.every((p) => terms(p) >= 2)).toBe(true);
  });
});

describe('a product found by its own name', () => {
  it('comes first when searched by its whole name, lowercased (as the pages link to it)', async () => {
    const all = await api.db.select({ name: products.name }).from(products).orderBy(products.id);
    const sample = all.filter((_, i) => i % 10 === 0);
    expect(sample.length).toBeGreaterThan(5);
    for (const product of sample) {
      const [first] = await results(product.name.toLowerCase());
      expect(first, product.name).toBe(product.name);
    }
  });
});
