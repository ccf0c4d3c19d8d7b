// The unit sale price Indian packaged-goods rules ask sellers to show beside the price (Legal Metrology
// (Packaged Commodities) Rules, as amended in 2022): per kilogram, per litre or per piece, read from the pack text
// ('Basmati Rice 1 kg', '500 g', 'Pav Buns (6 pcs) (Pack of 2)'). Computed by the API; the pages only format it.
import { measuresIn } from './search-text.ts';

export interface UnitPrice {
  /** Paise per kg, per litre or per piece, rounded to the nearest paisa. */
  paise: number;
  per: 'kg' | 'l' | 'piece';
}

const MULTI_PACK = /\(\s*pack of (\d+)\s*\)/i;
const PIECES = /(?<![\p{L}\p{N}.])(\d+)\s*(?:pcs|pc|pieces|piece|nos)(?![\p{L}\p{N}])/iu;

/** The unit price of a pack sold at `pricePaise`, or null when its text names no weight, volume or count. */
export function unitPrice(pricePaise: number, packText: string): UnitPrice | null {
  if (!(pricePaise > 0)) return null;
  const packs = Number(MULTI_PACK.exec(packText)?.[1] ?? 1) || 1;
  const measures = measuresIn(packText.replace(MULTI_PACK, ' '));
  const [first] = measures;
  // Two different sizes in one name ('2 kg + 500 g free') do not say which one the price is for.
  if (first && measures.every((m) => m.amount === first.amount && m.unit === first.unit)) {
    return { paise: Math.round((pricePaise * 1000) / (first.amount * packs)), per: first.unit === 'g' ? 'kg' : 'l' };
  }
  if (measures.length > 0) return null;
  const pieces = Number(PIECES.exec(packText)?.[1] ?? 0) * packs;
  // One piece costs the price: nothing to add.
  return pieces > 1 ? { paise: Math.round(pricePaise / pieces), per: 'piece' } : null;
}
