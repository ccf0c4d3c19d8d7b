// A product's card is the same card wherever it shows (its category's listing, search results), asked for once or
// again, and its wishlist heart comes back to the page it was on.
import { expect, test } from '@playwright/test';
import type { ApiProduct } from './helpers.ts';
import type { CategoryDto } from '../../src/server/schemas.ts';

const cardOf = (html: string, id: number) => {
  // The card's class holds its scoped-style class too (astro.config.mjs: scopedStyleStrategy 'class').
  const start = html.search(new RegExp(`<article class="card[^"]*" data-testid="product-card" data-product-id="${id}"`));
  expect(start, `card ${id} in the page`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</article>', start));
};
const comeBackTo = (card: string) => /name="next" value="([^"]*)"/.exec(card)?.[1];

test('a card on one page is the same card on another, its wishlist heart coming back to each page', async ({ request }) => {
  const [category] = (await (await request.get('/api/app/Categories/LoadCategoriesByPriority?pageSize=1')).json()) as CategoryDto[];
  const [product] = (await (await request.get(`/api/app/Products/LoadProductsByCategory/${category!.id}?pageSize=1`)).json()) as ApiProduct[];
  const pages = [`/shop?type=category&id=${category!.id}`, `/search?name=${encodeURIComponent(product!.name.toLowerCase())}`];
  const cards: string[] = [];
  // Each page twice: the second time from the page cache.
  for (const address of [...pages, ...pages]) {
    const res = await request.get(address);
    expect(res.status(), address).toBe(200);
    const card = cardOf(await res.text(), product!.id);
    expect(comeBackTo(card), address).toBe(`${address.replaceAll('&', '&amp;')}#add-to-wishlist-${product!.id}`);
    // The return address is the page's own, and so is the island's React id prefix (its place among the page's islands).
    cards.push(card.replace(/name="next" value="[^"]*"/, '').replace(/ prefix="r\d+"/, ''));
  }
  expect(new Set(cards).size).toBe(1);
  expect(cards[0]).toContain(product!.name);
});

test("a kept card's Add to cart still runs its script: signed out, it goes to sign in and back to this listing", async ({ page }) => {
  const address = '/shop?type=hot';
  await page.goto(address);
  await page.reload();
  const card = page.getByTestId('product-card').first();
  const button = card.getByRole('button', { name: /^Add to cart/ });
  // The island comes to life on the first interaction, and drops its `ssr` mark once it has.
  await button.hover();
  await expect(card.locator('astro-island')).not.toHaveAttribute('ssr', /.*/);
  await button.click();
  // Without its script the button is a form that comes back to the product page instead.
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent(address)}`);
});
