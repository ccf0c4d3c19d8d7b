// Structured data (schema.org JSON-LD) for crawlers.
import type { Product } from '../api/types.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../urls.ts';
import { shareableImageUrl } from '../picture.ts';
import { gramsOf, netQuantityOf, splitManufacturer } from '../product-facts.ts';

export interface Crumb {
  name: string;
  href?: string;
}

const absolute = (path: string, site: URL) => new URL(path, site).toString();

/** Serialises JSON-LD so that no text in it can close the <script> element. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function breadcrumbList(crumbs: Crumb[], site: URL, currentPath: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absolute(c.href ?? currentPath, site),
    })),
  };
}

export function itemList(products: Product[], site: URL, offset = 0) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: products.map((p, i) => ({
      '@type': 'ListItem',
      position: offset + i + 1,
      url: absolute(urls.product(p.id), site),
      name: p.name,
    })),
  };
}

export function productLd(
  product: Product,
  site: URL,
  reviewSummary: { count: number; average: number },
) {
  const images = product.productImages.length
    ? product.productImages.map((i) => absolute(shareableImageUrl(i.imageUrl), site))
    : [absolute(DEFAULT_PRODUCT_IMAGE, site)];
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    sku: product.shortCode,
    image: images,
    category: product.categoryName,
    brand: { '@type': 'Brand', name: product.brandName },
    offers: {
      '@type': 'Offer',
      url: absolute(urls.product(product.id), site),
      priceCurrency: 'INR',
      price: (product.pricePaise / 100).toFixed(2),
      availability: product.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
      // The MRP, as the price a sale is struck from (Google reads a ListPrice so).
      ...(product.mrpPaise > product.pricePaise
        ? {
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              priceType: 'https://schema.org/ListPrice',
              price: (product.mrpPaise / 100).toFixed(2),
              priceCurrency: 'INR',
            },
          }
        : {}),
    },
    ...shelfFactsLd(product),
    ...(reviewSummary.count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: reviewSummary.average.toFixed(1),
            reviewCount: reviewSummary.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

/**
 * The product's facts (issue 24) that schema.org has words for, each only when the seller gave it: the net quantity as
 * a weight (or as text, a volume or a count), the country of origin, the manufacturer, and a vegetarian diet. Shelf
 * life and the FSSAI licence have none.
 */
function shelfFactsLd(product: Product) {
  const net = netQuantityOf(product);
  const grams = net === null ? null : gramsOf(net);
  const maker = product.manufacturer === null ? null : splitManufacturer(product.manufacturer);
  return {
    ...(grams !== null
      ? {
          weight:
            grams < 1000
              ? { '@type': 'QuantitativeValue', value: grams, unitCode: 'GRM', unitText: 'g' }
              : { '@type': 'QuantitativeValue', value: grams / 1000, unitCode: 'KGM', unitText: 'kg' },
        }
      : net !== null
        ? { size: net }
        : {}),
    ...(product.countryOfOrigin ? { countryOfOrigin: { '@type': 'Country', name: product.countryOfOrigin } } : {}),
    ...(maker ? { manufacturer: { '@type': 'Organization', name: maker.name, ...(maker.address ? { address: maker.address } : {}) } } : {}),
    // schema.org defines suitableForDiet for recipes and menu items: on a product, validators may call it unexpected.
    ...(product.foodType === 'veg' ? { suitableForDiet: 'https://schema.org/VegetarianDiet' } : {}),
  };
}
