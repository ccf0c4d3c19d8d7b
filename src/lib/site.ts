// The shop's public origin for canonical links, Open Graph and structured data.
// SITE_URL at run time wins (the build-time `site` cannot know where the shop is deployed); otherwise the
// origin the request came in on; pre-rendered pages use the build-time `site`.
export function siteOrigin(astro: { site: URL | undefined; url: URL; isPrerendered: boolean }): URL {
  const configured = process.env.SITE_URL;
  if (configured) return new URL(configured);
  if (astro.isPrerendered && astro.site) return astro.site;
  return new URL(astro.url.origin);
}
