import type { APIRequestContext } from '@playwright/test';
import type { CategoryDto, ProductDto } from '../../src/server/schemas.ts';

/** A product as the API answers it (the type comes from the API's own schema). */
export type ApiProduct = ProductDto;

/** Reads the seeded catalogue through the real API, to choose what a test looks at. */
export async function allProducts(request: APIRequestContext): Promise<ApiProduct[]> {
  const categories = (await (await request.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=100')).json()) as CategoryDto[];
  const all: ApiProduct[] = [];
  for (const c of categories.filter((c) => c.count > 0)) {
    all.push(...((await (await request.get(`/api/app/Products/LoadProductsByCategory/${c.id}?pageSize=100`)).json()) as ApiProduct[]));
  }
  return all;
}

export const rupees = (paise: number) =>
  new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: paise % 100 === 0 ? 0 : 2,
    maximumFractionDigits: paise % 100 === 0 ? 0 : 2,
  }).format(paise / 100);
