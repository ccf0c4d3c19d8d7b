// Page data loaders: each runs in a page's frontmatter, where status and headers may still be set.
import type { AstroGlobal } from 'astro';
import { isHTTPError } from 'ky';
import { PAGE_SIZES, type ProductPage as ProductListPage } from './api/catalogue.ts';
import { changedPagesHeader } from './api/headers.ts';
import { serverApi, serverCatalogue } from './api/server.ts';
import type { Category, Product, ProductSeo, Review } from './api/types.ts';
import { cacheCataloguePage, notFoundStatus } from './page.ts';
import { pageFromUrl } from './paging.ts';
import { urls } from './urls.ts';

export interface HomeData {
  hot: ProductListPage;
  categories: Category[];
  categoryPage: number;
  moreCategoriesHref: string | undefined;
}

export async function loadHome(astro: AstroGlobal): Promise<HomeData> {
  const categoryPage = pageFromUrl(astro.url, 'categories');
  const [hot, categories] = await Promise.all([serverCatalogue.hotProducts(), serverCatalogue.categories(categoryPage - 1)]);
  // Is there anything after this page? Only a full page can have more; one category past its end tells.
  const hasMore =
    categories.length === PAGE_SIZES.categories &&
    (await serverCatalogue.categories(categoryPage * PAGE_SIZES.categories, 1)).length > 0;
  // A page of categories past the end is not a page.
  if (categories.length === 0 && categoryPage > 1) notFoundStatus(astro);
  else cacheCataloguePage(astro);
  return { hot, categories, categoryPage, moreCategoriesHref: hasMore ? `/?categories=${categoryPage + 1}` : undefined };
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
  try {
    await serverApi.post('Reviews', {
      json: { title: values.title, description: values.description, stars: Number(values.stars) || 0, productsId: id },
    });
  } catch (error) {
    if (!isHTTPError(error) || error.response.status >= 500) throw error;
    // ky has already read the body into error.data.
    const body = error.data as { error?: { message?: string } } | undefined;
    astro.response.status = error.response.status;
    return { error: body?.error?.message ?? 'Your review could not be posted.', values };
  }
  // Declares, like the API's answer, the pages the review changed (the page cache forgets them).
  return new Response(null, {
    status: 303,
    headers: { Location: `${urls.product(id)}&reviewed=1#reviews`, ...changedPagesHeader(urls.productPages(id)) },
  });
}

export async function loadProductPage(astro: AstroGlobal): Promise<Response | ProductPageData> {
  const rawId = astro.url.searchParams.get('id') ?? '';
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : 0;
  let form: ReviewFormState = {};
  if (astro.request.method === 'POST' && id > 0) {
    const posted = await postReview(astro, id);
    if (posted instanceof Response) return posted;
    form = posted;
  }
  const [product, seo, reviews, related] = id
    ? await Promise.all([
        serverCatalogue.product(id),
        serverCatalogue.productSeo(id),
        serverCatalogue.reviews(id).catch((error: unknown) => {
          // An unknown product has no reviews; any other failure is the API's, and shows as such.
          if (isHTTPError(error) && error.response.status === 404) return [] as Review[];
          throw error;
        }),
        serverCatalogue.relatedProducts(id, 10),
      ])
    : [null, null, [] as Review[], { products: [], total: 0 }];
  if (!product) notFoundStatus(astro);
  else if (astro.request.method === 'GET') cacheCataloguePage(astro);
  return { product, seo, reviews, related, form };
}
