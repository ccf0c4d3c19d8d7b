// What the demo catalogue's packs say of themselves (issue 24): FSSAI's food type, and the facts the Legal Metrology
// (Packaged Commodities) Rules ask an online seller to show. Worked out from the product's category, brand, name and
// pack, never from the seed's random stream, so the catalogue's products, prices and pictures stay as they were.
// Like every name of the seed, the companies, addresses and licence numbers are made up.
import type { FoodType } from '../../lib/food-type.ts';
import type { CategoryKind } from './data.ts';

export interface ShelfFacts {
  foodType: FoodType | null;
  netQuantity: string | null;
  countryOfOrigin: string | null;
  manufacturer: string | null;
  shelfLife: string | null;
  fssaiLicence: string | null;
}

export interface ShelfProduct {
  categoryId: string;
  kind: CategoryKind;
  brand: string;
  /** The base product's name ('Chicken Keema'), without brand or pack. */
  baseName: string;
  /** The usual pack of the base product ('450 g', '1 pack'). */
  pack: string;
  /** Sold in pack sizes: each pack's name is its net quantity, the product has none of its own. */
  inPackSizes: boolean;
  /** 0, or N for a value pack of N. */
  multiPack: number;
}

/** Meat, fish and seafood: FSSAI's brown mark. */
const NON_VEG = /\b(chicken|mutton|lamb|keema|fish|prawns?|surmai|pomfret|rohu|seekh)\b/i;
/** Eggs, and what is made with them; 'Eggless' is vegetarian. */
const EGG = /\beggs?\b|^fruit cake$/i;
/** Food sold in a category of household goods. */
const FOOD_AMONG_HOME = new Set(['Ragi Porridge Mix']);

/**
 * FSSAI's mark for a product of the demo: null for what is not food for people (soap, lamps' wicks, pet food, which
 * FSSAI does not cover), non-veg for meat and fish, egg for eggs (and a fruit cake, made with them), else veg.
 */
export function demoFoodType(product: Pick<ShelfProduct, 'kind' | 'categoryId' | 'baseName'>): FoodType | null {
  const food = product.kind === 'food' || FOOD_AMONG_HOME.has(product.baseName);
  if (!food || product.categoryId === 'pet-care') return null;
  if (NON_VEG.test(product.baseName)) return 'non_veg';
  if (EGG.test(product.baseName)) return 'egg';
  return 'veg';
}

/** Best before, by category, then by the few products that keep much longer or shorter than their aisle. */
const SHELF_LIFE_BY_CATEGORY: Record<string, string | null> = {
  'fruits-vegetables': 'Best within 4 days of delivery',
  'dairy-eggs': '7 days from packing; keep refrigerated',
  bakery: '5 days from manufacture',
  'atta-flours': '3 months from packing',
  'rice-grains': '12 months from packing',
  'dals-pulses': '9 months from packing',
  'spices-masalas': '12 months from manufacture',
  'edible-oils': '9 months from manufacture',
  'salt-sugar-jaggery': '12 months from packing',
  'dry-fruits-nuts': '6 months from packing',
  'snacks-namkeen': '4 months from manufacture',
  biscuits: '9 months from manufacture',
  'chocolates-sweets': '3 months from manufacture',
  'tea-coffee': '18 months from packing',
  beverages: '9 months from manufacture',
  'breakfast-cereals': '9 months from manufacture',
  'noodles-pasta': '9 months from manufacture',
  'ready-to-cook': '12 months from manufacture',
  'sauces-spreads': '12 months from manufacture',
  'pickles-chutneys': '12 months from manufacture',
  'frozen-foods': '12 months from manufacture, stored at -18 °C',
  'meat-fish': '2 days from packing; keep at 0–4 °C',
  'baby-care': '36 months from manufacture',
  'personal-care': '24 months from manufacture',
  'health-wellness': '24 months from manufacture',
  'household-cleaning': '24 months from manufacture',
  'detergents-laundry': '24 months from manufacture',
  'pooja-needs': '36 months from manufacture',
  // Foil, cling wrap, bags and napkins keep: their packs print no best before, and neither does the shop.
  'kitchen-essentials': null,
  'pet-care': '18 months from manufacture',
};
const SHELF_LIFE_BY_NAME: [RegExp, string][] = [
  [/\bmilk\b(?! bread| chocolate)/i, '2 days from packing; keep refrigerated'],
  [/(?<!peanut )\b(butter|cheese)\b(?! cookies| rusk)/i, '6 months from manufacture; keep refrigerated'],
  [/\beggs\b/i, '14 days from packing'],
  [/\brusk\b/i, '6 months from manufacture'],
  [/\bbatter\b/i, '5 days from manufacture; keep refrigerated'],
  [/\b(chocolate bar|chikki)\b/i, '9 months from manufacture'],
  [/\bsalt\b/i, '24 months from packing'],
  [/\bwater\b/i, '6 months from packing'],
  [/\bporridge\b/i, '9 months from manufacture'],
];

/** Where most of the demo's goods come from, and the few that come from elsewhere. */
const COUNTRY_BY_NAME: Record<string, string> = {
  'California Almonds': 'United States of America',
  'Medjool Dates': 'Jordan',
  'Pistachios Salted': 'Iran',
  'Dried Figs (Anjeer)': 'Afghanistan',
};

/** Industrial areas where a demo brand packs its goods, with the two digits FSSAI's numbers give each state. */
const PACKING_SITES = [
  { address: 'MIDC Bhosari, Pune 411026, Maharashtra', state: '15' },
  { address: 'Sanand GIDC, Ahmedabad 382110, Gujarat', state: '07' },
  { address: 'Sector 6, IMT Manesar, Gurugram 122050, Haryana', state: '08' },
  { address: 'SIPCOT Industrial Park, Sriperumbudur 602105, Tamil Nadu', state: '24' },
  { address: 'Peenya Industrial Area, Bengaluru 560058, Karnataka', state: '12' },
  { address: 'IDA Cherlapally, Hyderabad 500051, Telangana', state: '36' },
  { address: 'Focal Point, Ludhiana 141010, Punjab', state: '21' },
  { address: 'Kasba Industrial Estate, Kolkata 700107, West Bengal', state: '28' },
  { address: 'RIICO Industrial Area, Sitapura, Jaipur 302022, Rajasthan', state: '22' },
  { address: 'KINFRA Food Processing Park, Kakkanad, Kochi 682030, Kerala', state: '13' },
  { address: 'UPSIDC Industrial Area, Kanpur 208022, Uttar Pradesh', state: '27' },
  { address: 'Sanwer Road Industrial Area, Indore 452015, Madhya Pradesh', state: '14' },
] as const;

/** FNV-1a: the same brand always gets the same site, plot and licence. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return hash;
}

/** The brand's company, its name first and then its address, as a pack prints it. */
export function demoManufacturer(brand: string): string {
  const hash = hashOf(brand);
  const site = PACKING_SITES[hash % PACKING_SITES.length]!;
  return `${brand} Pvt. Ltd., Plot ${1 + (hash % 97)}, ${site.address}`;
}

/**
 * The brand's 14-digit FSSAI licence: 1 (a central licence), the state's two digits, the year issued, the office's
 * three digits and the business's six.
 */
export function demoFssaiLicence(brand: string): string {
  const hash = hashOf(`fssai ${brand}`);
  const site = PACKING_SITES[hashOf(brand) % PACKING_SITES.length]!;
  const year = String(14 + (hash % 11));
  const office = String(1 + ((hash >>> 4) % 30)).padStart(3, '0');
  const business = String((hash >>> 8) % 1_000_000).padStart(6, '0');
  return `1${site.state}${year}${office}${business}`;
}

const MEASURE = /^\d+(?:\.\d+)?\s*(?:g|kg|ml|l)$/;
/** A count or a length in the name: 'Farm Eggs (6 pcs)', 'Aluminium Foil 9 m'. */
const COUNT_IN_NAME = /\((\d+) pcs\)|\b(\d+ m)$/;

/** A plain product's net quantity: its pack, or the count or length its name gives; null for a bare '1 pack'. */
function netQuantityOf({ baseName, pack, inPackSizes, multiPack }: ShelfProduct): string | null {
  if (inPackSizes) return null;
  const count = COUNT_IN_NAME.exec(baseName);
  const one = MEASURE.test(pack) ? pack : count ? (count[1] ? `${count[1]} pcs` : count[2]!) : null;
  if (one === null) return null;
  return multiPack > 0 ? `${multiPack} × ${one}` : one;
}

export function demoShelfFacts(product: ShelfProduct): ShelfFacts {
  const foodType = demoFoodType(product);
  const byName = SHELF_LIFE_BY_NAME.find(([pattern]) => pattern.test(product.baseName));
  return {
    foodType,
    netQuantity: netQuantityOf(product),
    countryOfOrigin: COUNTRY_BY_NAME[product.baseName] ?? 'India',
    manufacturer: demoManufacturer(product.brand),
    shelfLife: foodType !== null && byName ? byName[1] : (SHELF_LIFE_BY_CATEGORY[product.categoryId] ?? null),
    // FSSAI licenses food businesses only.
    fssaiLicence: foodType === null ? null : demoFssaiLicence(product.brand),
  };
}
