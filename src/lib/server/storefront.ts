// The shop a page is rendered for (Astro.locals.shop: src/server/storefront.ts).
import type { Storefront } from '../../server/storefront.ts';

/** The page's shop; a page that reads the catalogue is never pre-rendered, so it always has one. */
export function storefrontOf(astro: { locals: App.Locals; url: URL }): Storefront {
  const shop = astro.locals.shop;
  if (!shop) throw new Error(`${astro.url.pathname} was rendered without the shop: serve it with scripts/serve.ts or astro dev`);
  return shop;
}
