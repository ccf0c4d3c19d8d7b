import { sql } from 'drizzle-orm';
import { it } from 'vitest';
import { categories as catalogueData } from '../../src/server/seed/data.ts';
import { searchProductIds, suggest } from '../../src/server/services/search.ts';
import { startTestApi } from './harness.ts';
it('time', async () => {
  const api = await startTestApi({ products: 400 });
  const bases = catalogueData.flatMap((c) => c.products.map(([name]) => ({ name, category_id: c.id })));
  await api.db.execute(sql`
    with base as (select row_number() over () as n, name, category_id
                  from json_to_recordset(${JSON.stringify(bases)}::json) as x(name text, category_id text)),
         b as (select array_agg(id order by id) ids, array_agg(name order by id) names from brands)
    insert into products (name, short_name, short_code, description, price_paise, mrp_paise, brand_id, category_id, stock)
    select b.names[1 + i % cardinality(b.ids)] || ' ' || base.name || ' No. ' || i,
      'Synthetic ' || i, 'SYN-' || i, 'x', 10000, 12000, b.ids[1 + i % cardinality(b.ids)], base.category_id, 10
    from generate_series(1, 50000) i cross join b join base on base.n = 1 + (i * 7) % ${bases.length}`);
  await api.db.execute(sql`analyze`);
  const words = ["atta", "desi dairy milk 1 l", "masala", "paneer"];
  const { productSearchQuery, termsOf } = await import('../../src/server/services/search.ts');
  for (const w of ['atta', 'desi dairy milk 1 l']) {
    const q = productSearchQuery(termsOf(w), 0, 10, false)!;
    const r = (await api.db.execute(sql`explain (analyze, costs off) ${q}`)) as any;
    console.log(w + '\n' + r.rows.map((x: any) => Object.values(x)[0]).filter((l: string) => !l.includes('Sort Key')).join('\n'));
  }
  for (const [label, fn] of [['suggest', (w: string) => suggest(api.db, w)], ['search', (w: string) => searchProductIds(api.db, w, 0, 24)]] as const) {
    const times: number[] = [];
    for (let round = 0; round < 4; round++) for (const w of words) { const t = performance.now(); await fn(w); times.push(performance.now() - t); }
    times.sort((a, b) => a - b);
    console.log(label, 'median', times[Math.floor(times.length / 2)]!.toFixed(1), 'p99', times[Math.floor(times.length * 0.99)]!.toFixed(1), 'max', times.at(-1)!.toFixed(1));
    for (const w of words) { const t = performance.now(); await fn(w); console.log('  ', label, w, (performance.now() - t).toFixed(1)); }
  }
  await api.close();
}, 600000);
