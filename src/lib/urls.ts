// The storefront's URLs in one place: every link a crawler follows is built here.
import { refinementParams, type ListingRefinement } from './listing.ts';
import { brandPath, categoryPath, loginUrl, productPath, safeNextPath, suggestionUrl, withNext } from './head-urls.ts';

export { loginUrl, safeNextPath, suggestionUrl } from './head-urls.ts';

export const DEFAULT_PRODUCT_IMAGE = '/images/default-grocery.svg';

export const urls = {
  home: () => '/',
  /** The home page with categories pages 1 to `page` (what `page - 1` clicks on Load More Categories show). */
  homeCategories: (page: number) => (page > 1 ? `/?categories=${page}` : '/'),
  /** Load More Categories without JavaScript: the next page, opened where its new categories begin. */
  moreCategories: (page: number) => `/?categories=${page}#${categoryPageAnchor(page)}`,
  brands: () => '/brands',
  product: productPath,
  /** The product page's reviews; `reviewed` after a review was posted without JavaScript. */
  productReviews: (id: number, reviewed = false) => `/product-detail?id=${id}${reviewed ? '&reviewed=1' : ''}#reviews`,
  /** Every page that shows one product: the product page and its SPEC §2 alias. */
  // A listing's sort and filters (src/lib/listing.ts) come after its own parameters, the page last.
  brand: (id: number, page?: number, refine?: ListingRefinement) => `${brandPath(id)}${listingTail(page, refine)}`,
  category: (id: string, page?: number, refine?: ListingRefinement) => `${categoryPath(id)}${listingTail(page, refine)}`,
  hot: (page?: number, refine?: ListingRefinement) => `/shop?type=hot${listingTail(page, refine)}`,
  search: (text: string, page?: number, refine?: ListingRefinement) =>
    `/search?name=${encodeURIComponent(text)}${listingTail(page, refine)}`,
  /** Every category by name: the Categories menu's destination without JavaScript. */
  categories: () => '/categories',
  /** The sitemap index (robots.txt names it), and its files: the shop's pages, and product pages by number from 1. */
  sitemap: () => '/sitemap.xml',
  sitemapPages: () => '/sitemap-pages.xml',
  sitemapProducts: (part: number) => `/sitemap-products-${part}.xml`,
  /** A phone number as written in the settings ('1800-120-5566'), as a link that dials it. */
  phoneCall: (phone: string) => `tel:${phone.replace(/[\s-]/g, '')}`,
  email: (address: string) => `mailto:${address}`,
  login: loginUrl,
  register: (next?: string) => withNext('/register', next),
  /** Where the shop delivers (issue 25): the PIN code form, and its answer for one PIN. */
  deliverTo: (pincode?: string) => (pincode ? `/deliver-to?pincode=${encodeURIComponent(pincode)}` : '/deliver-to'),
  forgotPassword: () => '/forgotpassword',
  /** Where the two password forms post without JavaScript (issue 25). */
  forgotPasswordSend: () => '/forgotpassword/send',
  resetPassword: (token?: string) => (token ? `/reset-password?token=${encodeURIComponent(token)}` : '/reset-password'),
  resetPasswordSave: () => '/reset-password/save',
  // SPEC §6's protected routes.
  myAccount: () => '/myaccount',
  cart: () => '/cart',
  checkout: () => '/checkout',
  /** One order; without an id, the page itself (its canonical path). */
  orderDetails: (id?: number) => (id === undefined ? '/orderdetails' : `/orderdetails?id=${id}`),
  /** A delivered order's printable tax invoice (issue 25); without an id, the page itself. */
  invoice: (id?: number) => (id === undefined ? '/invoice' : `/invoice?id=${id}`),
  orderComplete: (id?: number) => (id === undefined ? '/OrderComplete' : `/OrderComplete?id=${id}`),
  /** Order Tracking (SPEC §2), page `page` of the shopper's orders. */
  previousOrders: (page?: number) => `/previous-order${page && page > 1 ? `?page=${page}` : ''}`,
  /** Open to everyone (SPEC §2): signed-out visitors see a sign-in prompt there. */
  wishlist: () => '/wishlist',
  /** Where a heart pressed while signed out returns after sign-in: its page, which then keeps the product. */
  wishlistReturn: (pagePath: string, productId: number) => `${pagePath}#${WISHLIST_ADD_PREFIX}${productId}`,
  suggestion: suggestionUrl,
};

/** A listing URL's sort, filters and page, each as '&name=value'. */
function listingTail(page: number | undefined, refine: ListingRefinement | undefined): string {
  const params = refinementParams(refine).map(([name, value]) => `&${name}=${encodeURIComponent(value)}`);
  return `${params.join('')}${page && page > 1 ? `&page=${page}` : ''}`;
}

/** The fragment of a page reached by signing in from a heart: '#add-to-wishlist-12' (src/client/wishlist-toggle.ts). */
export const WISHLIST_ADD_PREFIX = 'add-to-wishlist-';

/** The id of the first card of a page of categories (from page 2), where Load More opens the next page. */
export const categoryPageAnchor = (page: number) => `categories-page-${page}`;

/** The pages that send a visitor with no stored user to /login (SPEC §6). */
export const PROTECTED_PATHS = ['/myaccount', '/cart', '/checkout', '/orderdetails', '/invoice', '/OrderComplete', '/previous-order'];

/** The back office's pages (issue 34): server-rendered, private, never kept by the service worker. */
export const manageUrls = {
  board: (status?: string) => (status ? `/manage?status=${encodeURIComponent(status)}` : '/manage'),
  signIn: (next?: string) => (next ? `/manage/sign-in?next=${encodeURIComponent(next)}` : '/manage/sign-in'),
  signOut: () => '/manage/sign-out',
  order: (id: number, done?: string) => `/manage/orders/${id}${done ? `?done=${done}` : ''}`,
  slip: (id: number) => `/manage/orders/${id}/slip`,
  /** A slot's pick list: its day and its local start ('14:00'), from the slot id 'YYYY-MM-DDTHH:MM'. */
  pickList: (slotId: string) => `/manage/pick-list?date=${slotId.slice(0, 10)}&slot=${encodeURIComponent(slotId.slice(11, 16))}`,
  /** The reported issues; after settling one, `done` says how and `issue` which. */
  issues: (done?: { how: string; issue: number }) => (done ? `/manage/issues?done=${done.how}&issue=${done.issue}` : '/manage/issues'),
  /** A shopper found by number; after a block or unblock, `done` says which. */
  shoppers: (phone?: string, done?: string) => {
    const query = new URLSearchParams();
    if (phone) query.set('phone', phone);
    if (done) query.set('done', done);
    const text = query.toString();
    return text ? `/manage/shoppers?${text}` : '/manage/shoppers';
  },
  shelf: (q?: string) => (q ? `/manage/shelf?q=${encodeURIComponent(q)}` : '/manage/shelf'),
  shelfProduct: (id: number, done?: string) => `/manage/shelf/${id}${done ? `?done=${done}` : ''}`,
  /** Today at a glance: takings, deliveries by state, what needs a hand. */
  today: () => '/manage/today',
  /** What to restock: shoppers waiting, and packs at `atMost` units or fewer. */
  stock: () => '/manage/stock',
  /** Who may sign in (owners); after a change, `done` says which and `member` whose. */
  staff: (done?: { how: string; member: number }) => (done ? `/manage/staff?done=${done.how}&member=${done.member}` : '/manage/staff'),
  /** The audit log (owners), newest first; `before` pages back to older entries. */
  audit: (before?: number) => (before ? `/manage/audit?before=${before}` : '/manage/audit'),
};

/** Where a back-office sign-in goes next: a /manage page given in `next`, else the board. */
export function manageNextPath(next: string | null | undefined): string {
  const path = safeNextPath(next);
  return /^\/manage(?:[/?#]|$)/.test(path) && !path.startsWith('/manage/sign-') ? path : '/manage';
}
