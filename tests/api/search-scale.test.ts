// Search at 50,000 products: the trigram index on lower(name) picks the candidates and an index on the catalogue's
// words corrects a typo (EXPLAIN shows both), and the shop's own products still rank first among 50,000 look-alikes.
// Speed itself is measured by the bench, not here.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuggestionDto } from '../../src/server/schemas.ts';
import { categories as catalogueData } from '../../src/server/seed/data.ts';
import { correctionsOf, productSearchQuery, termsOf } from '../../src/server/services/search.ts';
import { listProducts, productListQuery } from '../../src/server/services/catalogue.ts';
import { startTestApi, type TestApi } from './harness.ts';

const SYNTHETIC_PRODUCTS = 50_000;
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ products: 400 });
  // Look-alikes of the shop's own: a brand, one of the ~330 base products of the seed data in its category, and a
  // number, so each word is about as common as in a big shop (a base product in about 0.3% of the names).
  const bases = catalogueData.flatMap((c) => c.products.map(([name]) => ({ name, category_id: c.id })));
  await api.db.execute(sql`
    with base as (select row_number() over () as n, name, category_id
                  from json_to_recordset(${JSON.stringify(bases)}::json) as x(name text, category_id text)),
         b as (select array_agg(id order by id) ids, array_agg(name order by id) names from brands)
    insert into products (name, short_name, short_code, description, price_paise, mrp_paise, brand_id, category_id, stock)
    select b.names[1 + i % cardinality(b.ids)] || ' ' || base.name || ' No. ' || i,
      'Synthetic ' || i, 'SYN-' || i, 'A look-alike product for the search scale test.', 10000, 12000,
      b.ids[1 + i % cardinality(b.ids)], base.category_id, 10
    from generate_series(1, ${SYNTHETIC_PRODUCTS}) i cross join b
    join base on base.n = 1 + (i * 7) % ${bases.length}`);
  await api.db.execute(sql`analyze`);
}, 300_000);
afterAll(async () => api?.close());

/** EXPLAIN of a query, as text. */
async function explain(query: SQL): Promise<string> {
  const result = (await api.db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
  return result.rows.map((r) => Object.values(r)[0]).join('\n');
}

const plan = (text: string, withTotal = true) => explain(productSearchQuery(termsOf(text), 0, 10, withTotal)!);

describe(`search at ${SYNTHETIC_PRODUCTS.toLocaleString('en-IN')} more products`, () => {
  it.each(['basmti', 'toor dal 1kg', 'chawal', 'desi dairy milk 1 l', 'sandalwood', 'ri', 'दाल', 'चावल 5 kg'])(
    "EXPLAIN of '%s' uses the trigram index on lower(name)",
    async (text) => {
      const shown = await plan(text);
      console.log(`EXPLAIN ${text}\n${shown.replace(/Sort Key: .*/g, 'Sort Key: (rank)')}`);
      expect(shown).toMatch(/Bitmap Index Scan on products_name_lower_trgm/);
      expect(shown).not.toMatch(/Seq Scan on products\b/);
    },
  );

  it.each(['buter', 'tomatoe', 'basmti'])("EXPLAIN of correcting '%s' reads the catalogue's words through an index", async (typo) => {
    const shown = await explain(sql`select ${correctionsOf(typo)}`);
    console.log(`EXPLAIN corrections of ${typo}\n${shown}`);
    expect(shown).toMatch(/Index (Only )?Scan (using|on) search_words_\w+/);
    expect(shown).not.toMatch(/Seq Scan on search_words/);
  });

  it("EXPLAIN of the suggestions for 'masala' reads the products found by category alone in rank order, a few", async () => {
    expect(await plan('masala', false)).toMatch(/Index (Only )?Scan using products_category_name_order_idx/);
  });

  it.each(['toor dal 1kg', 'desi dairy milk 1 l'])("EXPLAIN of '%s' finds the packs of its size through their index", async (text) => {
    expect(await plan(text)).toMatch(/Index Scan (using|on) product_variants_name_lower_idx/);
  });

  it.each(['masala', 'atta', 'snacks', 'spices', 'dairy', 'chai', 'toor dal', 'amul milk', 'ri masala', 'sunflower oil 1 l', 'toor dal 1kg', 'dals 500 g', 'dal 1kg 500 g'])(
    "suggestions for '%s' are the first products of the full ranking (they read only the first few found by category)",
    async (text) => {
      const ids = async (withTotal: boolean) => {
        const result = await api.db.execute(productSearchQuery(termsOf(text), 0, 10, withTotal)!);
        return (result as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
      };
      const suggested = await ids(false);
      expect(suggested).toHaveLength(10);
      expect(suggested).toEqual(await ids(true));
    },
  );

  it("EXPLAIN of a product's related row reads a page of its aisle in listing order, and counts the aisle apart", async () => {
    const shown = await explain(productListQuery(api.db, { kind: 'related', productId: 1 }, 0, 10).getSQL());
    expect(shown).toMatch(/Index Scan using products_category_listing_idx on products/);
    expect(shown).not.toMatch(/WindowAgg/);
  });

  it('a page of an aisle is the whole aisle in listing order, cut at the page, with the whole count', async () => {
    const aisle = (await api.db.execute(sql`select category_id from products where id = 1`)) as unknown as { rows: { category_id: string }[] };
    const categoryId = aisle.rows[0]!.category_id;
    const all = (await api.db.execute(
      sql`select id from products where category_id = ${categoryId} order by in_stock desc, name, id`,
    )) as unknown as { rows: { id: number }[] };
    expect(all.rows.length).toBeGreaterThan(100);
    const page = await listProducts(api.db, { kind: 'category', categoryId }, 2, 24);
    expect(page.items.map((p) => p.id)).toEqual(all.rows.slice(48, 72).map((r) => r.id));
    expect(page.total).toBe(all.rows.length);
    const related = await listProducts(api.db, { kind: 'related', productId: 1 }, 0, 10);
    expect(related.items.map((p) => p.id)).toEqual(all.rows.filter((r) => r.id !== 1).slice(0, 10).map((r) => r.id));
    expect(related.total).toBe(all.rows.length - 1);
  });

  it('still suggests the Toor Dal of the seeded shop first for "toor dal 1kg"', async () => {
    const found = (await (await api.get('/api/app/Products/SearchProducts/toor%20dal%201kg')).json()) as SuggestionDto[];
    expect(found[0]!.name).toMatch(/toor dal 1 kg$/i);
  });
});
