// The storefront's URLs in one place: every link a crawler follows is built here.
export const DEFAULT_PRODUCT_IMAGE = '/images/default-grocery.svg';

export const urls = {
  home: () => '/',
  product: (id: number) => `/product-detail?id=${id}`,
  /** Every page that shows one product: the product page and its SPEC §2 alias. */
  productPages: (id: number) => [`/product-detail?id=${id}`, `/product?id=${id}`],
  brand: (id: number, page?: number) => `/shop?type=brand&id=${id}${page && page > 1 ? `&page=${page}` : ''}`,
  category: (id: string, page?: number) =>
    `/shop?type=category&id=${encodeURIComponent(id)}${page && page > 1 ? `&page=${page}` : ''}`,
  hot: (page?: number) => `/shop?type=hot${page && page > 1 ? `&page=${page}` : ''}`,
  search: (text: string, page?: number) =>
    `/search?name=${encodeURIComponent(text)}${page && page > 1 ? `&page=${page}` : ''}`,
  /** A phone number as written in the settings ('1800-120-5566'), as a link that dials it. */
  phoneCall: (phone: string) => `tel:${phone.replace(/[\s-]/g, '')}`,
  email: (address: string) => `mailto:${address}`,
};

/** The id of a category's card in a category grid, for links that open a page at that card. */
export const categoryAnchor = (categoryId: string) => `category-${categoryId}`;
