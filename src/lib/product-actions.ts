// What the ProductActions island is given (its props, kept small) and what its variant selector offers:
// SPEC §2 — only variants that have a price id, starting at the first.
import type { Product } from './api/types.ts';
import { formatUnitPrice } from './money.ts';

export interface VariantChoice {
  id: number;
  name: string;
  priceId: number;
  pricePaise: number;
  mrpPaise: number;
  /** Per kg, litre or piece ('₹120/kg'), computed by the API; absent when the pack names no size. */
  unitPrice?: string;
  /** This pack size is on the shelf. */
  inStock: boolean;
}

// Formatted here and left out when there is none: 25 cards' props stay a few bytes each, not a nested object each.
const unitPriceProp = (unit: Product['unitPrice']) => (unit ? { unitPrice: formatUnitPrice(unit) } : {});

export function variantChoices(product: Pick<Product, 'productVariants'>): VariantChoice[] {
  return product.productVariants.flatMap((v) =>
    v.productVariantPrice
      ? [{
          id: v.id,
          name: v.name,
          priceId: v.productVariantPrice.id,
          pricePaise: v.productVariantPrice.salesPricePaise,
          mrpPaise: v.productVariantPrice.mrpPaise,
          ...unitPriceProp(v.unitPrice),
          inStock: v.inStock,
        }]
      : [],
  );
}

/** Only what the island needs, so each card's serialised props stay small. */
export interface ProductActionsData {
  id: number;
  name: string;
  type: string;
  pricePaise: number;
  mrpPaise: number;
  unitPrice?: string;
  inStock: boolean;
  variants: VariantChoice[];
}

export function productActionsData(product: Product): ProductActionsData {
  return {
    id: product.id,
    name: product.name,
    type: product.type,
    pricePaise: product.pricePaise,
    mrpPaise: product.mrpPaise,
    ...unitPriceProp(product.unitPrice),
    inStock: product.inStock,
    variants: product.type === 'normal' ? [] : variantChoices(product),
  };
}
