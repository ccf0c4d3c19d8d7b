// What the ProductActions island is given (its props, kept small) and what its variant selector offers:
// SPEC §2 — only variants that have a price id, starting at the first.
import type { Product } from './api/types.ts';
import type { UnitPrice } from './unit-price.ts';

export interface VariantChoice {
  id: number;
  name: string;
  priceId: number;
  pricePaise: number;
  mrpPaise: number;
  /** Per kg, litre or piece, computed by the API. */
  unitPrice: UnitPrice | null;
  /** This pack size is on the shelf. */
  inStock: boolean;
}

export function variantChoices(product: Pick<Product, 'productVariants'>): VariantChoice[] {
  return product.productVariants.flatMap((v) =>
    v.productVariantPrice
      ? [{
          id: v.id,
          name: v.name,
          priceId: v.productVariantPrice.id,
          pricePaise: v.productVariantPrice.salesPricePaise,
          mrpPaise: v.productVariantPrice.mrpPaise,
          unitPrice: v.unitPrice,
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
  unitPrice: UnitPrice | null;
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
    unitPrice: product.unitPrice,
    inStock: product.inStock,
    variants: product.type === 'normal' ? [] : variantChoices(product),
  };
}
