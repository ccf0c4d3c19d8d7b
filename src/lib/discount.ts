// A product card's discount badge (issue 24): how much its packs save against their MRP, as the card shows them.
import type { Product } from './api/types.ts';
import { percentOff } from './money.ts';
import { variantChoices } from './product-actions.ts';

export interface CardDiscount {
  /** Whole percent off the MRP (floored, as the product page's 'N% off'). */
  percent: number;
  /** The packs save different shares: the badge says the best one, as 'Up to'. */
  upTo: boolean;
}

/**
 * The badge of a card: the best saving of the pack sizes its selector offers (a product sold in them), else of the
 * product itself; null when nothing is off. The card's selector can change the pack, and the badge is not an island,
 * so it must be true whichever pack is chosen: 'Up to' when they differ. The 'discount' sort orders by the same
 * saving (bestSaving in src/server/services/catalogue.ts).
 */
export function cardDiscount(product: Pick<Product, 'type' | 'pricePaise' | 'mrpPaise' | 'productVariants'>): CardDiscount | null {
  const packs = product.type === 'normal' ? [] : variantChoices(product);
  const percents =
    packs.length > 0 ? packs.map((p) => percentOff(p.pricePaise, p.mrpPaise)) : [percentOff(product.pricePaise, product.mrpPaise)];
  const percent = Math.max(...percents);
  return percent > 0 ? { percent, upTo: percents.some((p) => p !== percent) } : null;
}

/** '14% OFF', 'Up to 20% OFF'. */
export const discountLabel = ({ percent, upTo }: CardDiscount) => `${upTo ? 'Up to ' : ''}${percent}% OFF`;
