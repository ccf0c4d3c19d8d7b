// SPEC §7 catalogue calls at their exact paths, plus the paged product listings the shop and search pages use.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CATALOGUE_CACHE_CONTROL } from '../../lib/api/headers.ts';
import { notFound } from '../errors.ts';
import {
  BrandIdParam,
  BrandPagingQuery,
  BrandSchema,
  CategoryIdParam,
  CategoryPagingQuery,
  CategorySchema,
  ErrorSchema,
  ListingFacetsQuery,
  ListingFacetsSchema,
  ListingQuery,
  ProductIdParam,
  ProductIdsQuery,
  ProductPagingQuery,
  ProductSchema,
  ProductSeoSchema,
  ProIdParam,
  SearchHelpSchema,
  SearchTextParam,
  SuggestionSchema,
  VariantPriceSchema,
  VariantSchema,
  type ProductDto,
} from '../schemas.ts';
import { REFINED_SEARCH_LIMIT, type ListingFilter, type Page } from '../services/catalogue.ts';
import { refinement, type ListingRefinement } from '../../lib/listing.ts';
import type { CatalogueReads } from '../catalogue-reads.ts';
import { json, PUBLIC } from './openapi.ts';

const errors = {
  400: json(ErrorSchema, 'Bad input'),
  404: json(ErrorSchema, 'Not found'),
};
const totalHeader = {
  headers: z.object({ 'X-Total-Count': z.string().openapi({ description: 'items across all pages' }) }),
};

/** The sort and filters of a listing's query, in their canonical form (none: the plain listing, its cache entry too). */
function refinementOf(query: z.infer<typeof ListingQuery> | z.infer<typeof ListingFacetsQuery>): ListingRefinement | undefined {
  return refinement({
    sort: 'sort' in query ? query.sort : undefined,
    brandIds: query.brand,
    food: query.food,
    inStock: query.instock === '1',
    price: query.price,
  });
}

function sendPage(c: Context, page: Page<ProductDto>) {
  if (page.items.length === 0) throw notFound('No Products found');
  c.header('X-Total-Count', String(page.total));
  c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
  return c.json(page.items, 200);
}

export function registerCatalogueRoutes(app: OpenAPIHono, reads: CatalogueReads) {
  // Before /app/Products/{id}, which would take 'Ids' for an id.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/Ids',
      security: [],
      tags: ['Products'],
      summary: 'Product ids in id order, paged by skip and take (10,000 by default, 50,000 at most): what the sitemap needs',
      request: { query: ProductIdsQuery },
      responses: {
        200: { ...json(z.array(z.number().int()), 'Product ids; an empty list past the end'), ...totalHeader },
        400: errors[400],
      },
    }),
    async (c) => {
      const { skip, take } = c.req.valid('query');
      const page = await reads.productIds(skip, take);
      c.header('X-Total-Count', String(page.total));
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(page.items, 200);
    },
  );

  // Before /app/Products/{id} too.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/ListingFacets',
      security: PUBLIC,
      tags: ['Products'],
      summary: "What a listing's filters offer: its brands, food types, 'in stock' and price bands, each with a count",
      description:
        'Each filter is counted with the listing\'s other filters applied but not its own: the count is what choosing that value (instead) would show.',
      request: { query: ListingFacetsQuery },
      responses: { 200: json(ListingFacetsSchema, 'The filters and their counts'), 400: errors[400] },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const refine = refinementOf(query);
      const filter: ListingFilter =
        query.type === 'brand'
          ? { kind: 'brand', brandId: Number(query.id), refine }
          : query.type === 'category'
            ? { kind: 'category', categoryId: query.id!, refine }
            : query.type === 'search'
              ? { kind: 'search', text: query.name!, refine }
              : { kind: 'hot', refine };
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(await reads.facets(filter), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Brands/LoadBrandsByPriority',
      security: PUBLIC,
      tags: ['Brands'],
      summary: 'Brands by priority, paged by skip and take (16 by default)',
      request: { query: BrandPagingQuery },
      responses: { 200: json(z.array(BrandSchema), 'Brands; an empty list past the end'), 400: errors[400] },
    }),
    async (c) => {
      const { skip, take } = c.req.valid('query');
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(await reads.brands(skip, take), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Categories/LoadCategoriesByPriority',
      security: PUBLIC,
      tags: ['Categories'],
      summary: 'Categories by priority with their product counts; pageNo starts at 0, pageSize 24 by default',
      request: { query: CategoryPagingQuery },
      responses: {
        200: { ...json(z.array(CategorySchema), 'Categories; an empty list past the end'), ...totalHeader },
        400: errors[400],
      },
    }),
    async (c) => {
      const { pageNo, pageSize } = c.req.valid('query');
      const page = await reads.categories(pageNo, pageSize);
      c.header('X-Total-Count', String(page.total));
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(page.items, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/SearchProducts/{text}',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'Typo-tolerant suggestions for the search box: products, brands and categories',
      request: { params: SearchTextParam },
      responses: { 200: json(z.array(SuggestionSchema), 'Suggestions, best first'), 400: errors[400] },
    }),
    async (c) => {
      const { text } = c.req.valid('param');
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(await reads.suggestions(text), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/SearchHelp/{text}',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'How a search was read (synonyms, corrections) and the categories nearest to it, for a search that found nothing',
      request: { params: SearchTextParam },
      responses: { 200: json(SearchHelpSchema, 'The terms as read, and the nearest categories'), 400: errors[400] },
    }),
    async (c) => {
      const { text } = c.req.valid('param');
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(await reads.searchHelp(text), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/LoadProductsByPriorityTag',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'Hot (priority-tagged) products, paged, sorted and filtered',
      request: { query: ListingQuery },
      responses: { 200: { ...json(z.array(ProductSchema), 'Hot products'), ...totalHeader }, ...errors },
    }),
    async (c) => {
      const query = c.req.valid('query');
      return sendPage(c, await reads.products({ kind: 'hot', refine: refinementOf(query) }, query.pageNo, query.pageSize));
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/LoadProductsByBrand/{brandId}',
      security: PUBLIC,
      tags: ['Products'],
      summary: "A brand's products, paged, sorted and filtered; 404 when the page is empty",
      request: { params: BrandIdParam, query: ListingQuery },
      responses: { 200: { ...json(z.array(ProductSchema), 'Products of the brand'), ...totalHeader }, ...errors },
    }),
    async (c) => {
      const { brandId } = c.req.valid('param');
      const query = c.req.valid('query');
      const page = await reads.products({ kind: 'brand', brandId, refine: refinementOf(query) }, query.pageNo, query.pageSize);
      if (page.items.length === 0 && !(await reads.brand(brandId))) throw notFound(`No brand has id ${brandId}`);
      return sendPage(c, page);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/LoadProductsByCategory/{categoryId}',
      security: PUBLIC,
      tags: ['Products'],
      summary: "A category's products, paged, sorted and filtered; 404 when the page is empty",
      request: { params: CategoryIdParam, query: ListingQuery },
      responses: { 200: { ...json(z.array(ProductSchema), 'Products of the category'), ...totalHeader }, ...errors },
    }),
    async (c) => {
      const { categoryId } = c.req.valid('param');
      const query = c.req.valid('query');
      const page = await reads.products({ kind: 'category', categoryId, refine: refinementOf(query) }, query.pageNo, query.pageSize);
      if (page.items.length === 0 && !(await reads.category(categoryId))) throw notFound(`No category has id ${categoryId}`);
      return sendPage(c, page);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/SearchResults/{text}',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'Typo-tolerant search results, best match first, paged; 404 when nothing matches',
      description: `Sorted or filtered, a search lists its best ${REFINED_SEARCH_LIMIT} matches sorted and filtered.`,
      request: { params: SearchTextParam, query: ListingQuery },
      responses: { 200: { ...json(z.array(ProductSchema), 'Matching products'), ...totalHeader }, ...errors },
    }),
    async (c) => {
      const { text } = c.req.valid('param');
      const query = c.req.valid('query');
      return sendPage(c, await reads.products({ kind: 'search', text, refine: refinementOf(query) }, query.pageNo, query.pageSize));
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/LoadRelatedProducts/{id}',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'Other products of the same category, paged; 404 when there are none',
      request: { params: ProductIdParam, query: ProductPagingQuery },
      responses: { 200: { ...json(z.array(ProductSchema), 'Related products'), ...totalHeader }, ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { pageNo, pageSize } = c.req.valid('query');
      const page = await reads.products({ kind: 'related', productId: id }, pageNo, pageSize);
      // Whether the product exists is asked only when there is nothing to show, to word the 404.
      if (page.items.length === 0 && !(await reads.productExists(id))) throw notFound(`No product has id ${id}`);
      return sendPage(c, page);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Products/{id}',
      security: PUBLIC,
      tags: ['Products'],
      summary: 'One product with images, variants and its review summary',
      request: { params: ProductIdParam },
      responses: { 200: json(ProductSchema, 'The product'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const product = await reads.product(id);
      if (!product) throw notFound(`No product has id ${id}`);
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(product, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/ProductSEOs/{proid}',
      security: PUBLIC,
      tags: ['Products'],
      summary: "A product's SEO title, description and keywords",
      request: { params: ProIdParam },
      responses: { 200: json(ProductSeoSchema, 'SEO data'), ...errors },
    }),
    async (c) => {
      const { proid } = c.req.valid('param');
      const seo = await reads.productSeo(proid);
      if (!seo) throw notFound(`No SEO data for product ${proid}`);
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(seo, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/ProductVariants/{proid}',
      security: PUBLIC,
      tags: ['Products'],
      summary: "A product's pack-size variants, each with its price or null",
      request: { params: ProIdParam },
      responses: { 200: json(z.array(VariantSchema), 'Variants in display order'), ...errors },
    }),
    async (c) => {
      const { proid } = c.req.valid('param');
      const variants = await reads.variants(proid);
      if (!variants) throw notFound(`No product has id ${proid}`);
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(variants, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/ProductVariantPrices/{proid}',
      security: PUBLIC,
      tags: ['Products'],
      summary: "The prices of a product's variants (salesPrice, mrp)",
      request: { params: ProIdParam },
      responses: { 200: json(z.array(VariantPriceSchema), 'Prices of the variants that have one'), ...errors },
    }),
    async (c) => {
      const { proid } = c.req.valid('param');
      const variants = await reads.variants(proid);
      if (!variants) throw notFound(`No product has id ${proid}`);
      c.header('Cache-Control', CATALOGUE_CACHE_CONTROL);
      return c.json(variants.flatMap((v) => (v.productVariantPrice ? [v.productVariantPrice] : [])), 200);
    },
  );
}
