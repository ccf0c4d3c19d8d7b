// The facts of a product page's 'Product details' (issue 24): what the Legal Metrology (Packaged Commodities) Rules and
// the Consumer Protection (E-Commerce) Rules ask an online seller to show, as the seller gave them. A fact not given
// reads NOT_GIVEN: the shop never invents one. Pure, for src/components/ProductDetails.astro and JSON-LD.
import type { Product } from './api/types.ts';
import { formatRupees } from './money.ts';
import { variantChoices, type VariantChoice } from './product-actions.ts';

export const NOT_GIVEN = 'Not given by the seller';

export interface ProductFact {
  /** For tests and the pack-size script: 'net-quantity', 'mrp', … */
  key: 'net-quantity' | 'mrp' | 'country-of-origin' | 'manufacturer' | 'shelf-life' | 'fssai-licence';
  label: string;
  /** null: not given by the seller. */
  value: string | null;
}

/** The pack a product page starts at, as its pack-size selector does: the first priced one on the shelf, else the first. */
export function startingPack(product: Pick<Product, 'type' | 'productVariants'>): VariantChoice | undefined {
  if (product.type === 'normal') return undefined;
  const choices = variantChoices(product);
  return choices.find((v) => v.inStock) ?? choices[0];
}

/** An MRP in rupees, or null when the seller gave none (0). */
const mrpText = (mrpPaise: number) => (mrpPaise > 0 ? formatRupees(mrpPaise) : null);

/**
 * The net quantity shoppers buy: a pack size's name ('500 g'), else the product's own. A product sold in pack sizes
 * whose pack is not chosen (JSON-LD) names its first.
 */
export function netQuantityOf(product: Pick<Product, 'netQuantity' | 'type' | 'productVariants'>, pack = startingPack(product)): string | null {
  return pack?.name ?? product.netQuantity;
}

export function productFacts(product: Product, pack = startingPack(product)): ProductFact[] {
  return [
    { key: 'net-quantity', label: 'Net quantity', value: netQuantityOf(product, pack) },
    { key: 'mrp', label: 'MRP (incl. of all taxes)', value: mrpText(pack ? pack.mrpPaise : product.mrpPaise) },
    { key: 'country-of-origin', label: 'Country of origin', value: product.countryOfOrigin },
    { key: 'manufacturer', label: 'Manufacturer / packer', value: product.manufacturer },
    { key: 'shelf-life', label: 'Best before / shelf life', value: product.shelfLife },
    { key: 'fssai-licence', label: 'FSSAI licence no.', value: product.fssaiLicence },
  ];
}

/** Each pack's net quantity and MRP, for the script that follows the pack-size selector: [id, name, MRP or null]. */
export function packFacts(product: Pick<Product, 'type' | 'productVariants'>): [number, string, string | null][] {
  if (product.type === 'normal') return [];
  return variantChoices(product).map((v) => [v.id, v.name, mrpText(v.mrpPaise)]);
}

/**
 * A manufacturer as the grocer wrote it ('Gramin Harvest Pvt. Ltd., Plot 12, MIDC Bhosari, Pune 411026'): the
 * company's name before the first comma, its address after.
 */
export function splitManufacturer(text: string): { name: string; address: string | null } {
  const comma = text.indexOf(',');
  if (comma < 0) return { name: text.trim(), address: null };
  return { name: text.slice(0, comma).trim(), address: text.slice(comma + 1).trim() || null };
}

/** A net quantity that is one weight and nothing else ('500 g', '1.5 kg'), in grams; null otherwise ('2 × 500 g', '1 l'). */
export function gramsOf(netQuantity: string): number | null {
  const weight = /^\s*(\d+(?:\.\d+)?)\s*(g|gm|gms|kg)\s*$/i.exec(netQuantity);
  if (!weight) return null;
  const amount = Number(weight[1]);
  return weight[2]!.toLowerCase() === 'kg' ? Math.round(amount * 1000 * 1000) / 1000 : amount;
}
