// What a search that found nothing can still offer (issue 24): the words it understood and the nearest categories.
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { categories } from '../db/schema.ts';
import type { CategoryDto, SearchHelpDto } from '../schemas.ts';
import { categoryColumns, toCategoryDto } from './catalogue.ts';
import { understandSearch } from './search.ts';

/** Categories by id, in the order of `ids`, with their product counts, as the category listing gives them. */
async function categoriesByIds(db: Database, ids: string[]): Promise<CategoryDto[]> {
  if (ids.length === 0) return [];
  const rows = await db.select(categoryColumns).from(categories).where(inArray(categories.id, ids));
  const byId = new Map(rows.map((r) => [r.id, toCategoryDto(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function searchHelp(db: Database, text: string): Promise<SearchHelpDto> {
  const { understood, nearestCategoryIds } = await understandSearch(db, text);
  return { understood, categories: await categoriesByIds(db, nearestCategoryIds) };
}
