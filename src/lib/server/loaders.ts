// Page data loaders: each runs in a page's frontmatter, where status and headers may still be set.
import type { AstroGlobal } from 'astro';
import { isHTTPError } from 'ky';
import type { Catalogue, ProductPage as ProductListPage } from '../api/catalogue.ts';
import { feedback } from '../api/feedback.ts';
import { storefrontOf } from './storefront.ts';
import type { Category, Product, ProductSeo, Review } from '../api/types.ts';
import { positiveIdFrom } from '../ids.ts';
import { cacheCataloguePage, notFoundStatus } from './page-status.ts';
import { PAGE_SIZES, RELATED_ON_PRODUCT_PAGE, pageFromUrl } from '../paging.ts';
import { postForShopper } from './form-post.ts';
import { urls } from '../urls.ts';

/** A row of the product section: a category and its first products. */
export interface Aisle {
  category: Category;
  products: Product[];
}

/** The first `count` categories that have products (by priority), each with its first `perAisle` products. */
export async function loadAisles(catalogue: Catalogue, count: number, perAisle: number): Promise<Aisle[]> {
  // One page of categories holds enough to choose from; a category with no products yet is skipped.
  const { categories } = await catalogue.categories(0, PAGE_SIZES.categories);
  return Promise.all(
    categories
      .filter((category) => category.count > 0)
      .slice(0, count)
      .map(async (category) => ({ category, products: (await catalogue.categoryProducts(category.id, 0, perAisle)).products })),
  );
}

export interface HomeData {
  hot: ProductListPage;
  aisles: Aisle[];
  /** Every category up to this page: /?categories=N is what N clicks on Load More Categories show. */
  categories: Category[];
  categoryPage: number;
  moreCategoriesHref: string | undefined;
}

export async function loadHome(astro: AstroGlobal): Promise<HomeData> {
  // A page number that cannot exist shows no categories, like a page past the end.
  const requestedPage = pageFromUrl(astro.url, 'categories');
  const categoryPage = requestedPage ?? 1;
  const catalogue = storefrontOf(astro).catalogue;
  const [hot, aisles, lastPage] = await Promise.all([
    catalogue.hotProducts(),
    loadAisles(catalogue, 3, 5),
    requestedPage === null ? Promise.resolve({ categories: [], total: 0 }) : catalogue.categories(categoryPage - 1),
  ]);
  // A page of categories past the end is not a page.
  if (lastPage.categories.length === 0 && (requestedPage === null || categoryPage > 1)) {
    notFoundStatus(astro);
    return { hot, aisles, categories: [], categoryPage, moreCategoriesHref: undefined };
  }
  cacheCataloguePage(astro);
  // The pages before it (only when the last one exists, so their number is bounded by the catalogue).
  const earlier = await Promise.all(Array.from({ length: categoryPage - 1 }, (_, pageNo) => catalogue.categories(pageNo)));
  const categories = [...earlier.flatMap((page) => page.categories), ...lastPage.categories];
  const moreCategoriesHref = categories.length < lastPage.total ? urls.moreCategories(categoryPage + 1) : undefined;
  return { hot, aisles, categories, categoryPage, moreCategoriesHref };
}

export interface ReviewFormState {
  error?: string;
  values?: { title: string; description: string; stars: string };
}

export interface ProductPageData {
  product: Product | null;
  seo: ProductSeo | null;
  reviews: Review[];
  related: ProductListPage;
  form: ReviewFormState;
}

/** A review posted without JavaScript: stored through the API, then POST-redirect-GET. */
async function postReview(astro: AstroGlobal, id: number): Promise<Response | ReviewFormState> {
  let form: FormData;
  try {
    form = await astro.request.formData();
  } catch {
    astro.response.status = 400;
    return { error: 'Please fill in the review form and send it again.' };
  }
  const values = {
    title: String(form.get('title') ?? ''),
    description: String(form.get('description') ?? ''),
    stars: String(form.get('stars') ?? ''),
  };
  const review = { title: values.title, description: values.description, stars: Number(values.stars) || 0, productsId: id };
  const error = await postForShopper(astro, (options) => feedback(storefrontOf(astro).api).postReview(review, options), 'Your review could not be posted.');
  if (error) return { error, values };
  // The API has told every cache what the review made stale.
  return new Response(null, { status: 303, headers: { Location: urls.productReviews(id, true) } });
}

export async function loadProductPage(astro: AstroGlobal): Promise<Response | ProductPageData> {
  const id = positiveIdFrom(astro.url.searchParams.get('id')) ?? 0;
  const catalogue = storefrontOf(astro).catalogue;
  let form: ReviewFormState = {};
  if (astro.request.method === 'POST' && id > 0) {
    const posted = await postReview(astro, id);
    if (posted instanceof Response) return posted;
    form = posted;
  }
  const [product, seo, reviews, related] = id
    ? await Promise.all([
        catalogue.product(id),
        catalogue.productSeo(id),
        catalogue.reviews(id).catch((error: unknown) => {
          // An unknown product has no reviews; any other failure is the API's, and shows as such.
          if (isHTTPError(error) && error.response.status === 404) return [] as Review[];
          throw error;
        }),
        catalogue.relatedProducts(id, RELATED_ON_PRODUCT_PAGE),
      ])
    : [null, null, [] as Review[], { products: [], total: 0 }];
  if (!product) notFoundStatus(astro);
  else if (astro.request.method === 'GET') cacheCataloguePage(astro);
  return { product, seo, reviews, related, form };
}
