// Whole-catalogue walks of the few (brands and categories: the sitemap, the brands page), page by page through the API.
// Products are many: the sitemap reads their ids alone, one file's worth per call (src/lib/server/sitemap.ts).
import type { Catalogue } from '../api/catalogue.ts';
import type { Brand, Category } from '../api/types.ts';

const MAX = 100;

export async function allBrands(catalogue: Catalogue): Promise<Brand[]> {
  const all: Brand[] = [];
  for (let skip = 0; ; skip += MAX) {
    const page = await catalogue.brands(skip, MAX);
    all.push(...page);
    if (page.length < MAX) return all;
  }
}

export async function allCategories(catalogue: Catalogue): Promise<Category[]> {
  const all: Category[] = [];
  for (let pageNo = 0; ; pageNo++) {
    const { categories, total } = await catalogue.categories(pageNo, MAX);
    all.push(...categories);
    if (categories.length === 0 || all.length >= total) return all;
  }
}
