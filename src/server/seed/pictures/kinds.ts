// What the demo catalogue's pictures show: for each base product the food (a Fluent Emoji Flat icon) and the kind of
// pack it is sold in, told by its name first and its category second, so the same product always gets the same art.

export type PackKind = 'bag' | 'bottle' | 'jar' | 'box' | 'tin' | 'packet' | 'tray' | 'loose';

interface CategoryArt {
  icon: string;
  pack: PackKind;
}

/** A category's usual food and pack, for base products no rule below names. */
const CATEGORY_ART: Record<string, CategoryArt> = {
  'fruits-vegetables': { icon: 'leafy-green', pack: 'loose' },
  'dairy-eggs': { icon: 'glass-of-milk', pack: 'packet' },
  bakery: { icon: 'bread', pack: 'packet' },
  'atta-flours': { icon: 'sheaf-of-rice', pack: 'bag' },
  'rice-grains': { icon: 'cooked-rice', pack: 'bag' },
  'dals-pulses': { icon: 'beans', pack: 'packet' },
  'spices-masalas': { icon: 'shallow-pan-of-food', pack: 'box' },
  'edible-oils': { icon: 'olive', pack: 'bottle' },
  'salt-sugar-jaggery': { icon: 'salt', pack: 'packet' },
  'dry-fruits-nuts': { icon: 'peanuts', pack: 'packet' },
  'snacks-namkeen': { icon: 'pretzel', pack: 'packet' },
  biscuits: { icon: 'cookie', pack: 'packet' },
  'chocolates-sweets': { icon: 'candy', pack: 'box' },
  'tea-coffee': { icon: 'teacup-without-handle', pack: 'packet' },
  beverages: { icon: 'tropical-drink', pack: 'bottle' },
  'breakfast-cereals': { icon: 'bowl-with-spoon', pack: 'box' },
  'noodles-pasta': { icon: 'spaghetti', pack: 'packet' },
  'ready-to-cook': { icon: 'pot-of-food', pack: 'box' },
  'sauces-spreads': { icon: 'jar', pack: 'jar' },
  'pickles-chutneys': { icon: 'mango', pack: 'jar' },
  'frozen-foods': { icon: 'ice', pack: 'packet' },
  'meat-fish': { icon: 'cut-of-meat', pack: 'tray' },
  'baby-care': { icon: 'baby-bottle', pack: 'bottle' },
  'personal-care': { icon: 'lotion-bottle', pack: 'bottle' },
  'health-wellness': { icon: 'herb', pack: 'jar' },
  'household-cleaning': { icon: 'sparkles', pack: 'bottle' },
  'detergents-laundry': { icon: 'bubbles', pack: 'bag' },
  'pooja-needs': { icon: 'diya-lamp', pack: 'box' },
  'kitchen-essentials': { icon: 'roll-of-paper', pack: 'box' },
  'pet-care': { icon: 'paw-prints', pack: 'bag' },
};

const DEFAULT_ART: CategoryArt = { icon: 'shopping-bags', pack: 'box' };

/** Name rules, first match wins; more specific words come before the general ones they contain. */
const ICON_RULES: [RegExp, string][] = [
  [/puppy|dog food/, 'dog-face'],
  [/cat food|cat litter/, 'cat-face'],
  [/dog biscuits|jerky/, 'bone'],
  [/soap|dishwash bar|detergent bar/, 'soap'],
  [/lotion|rash cream|face pack/, 'lotion-bottle'],
  [/kulfi|ice cream/, 'ice-cream'],
  [/oats|muesli|flakes|porridge/, 'bowl-with-spoon'],
  [/rasgulla|gulab jamun|ladoo|katli/, 'dango'],
  [/noodles/, 'steaming-bowl'],
  [/chips/, 'french-fries'],
  [/biryani|dal makhani|butter masala|masala curry/, 'curry-rice'],
  [/mustard|sesame|gingelly|rice bran|soyabean/, 'olive'],
  [/rusk|garlic bread/, 'baguette-bread'],
  [/buns/, 'bagel'],
  [/bread/, 'bread'],
  [/ketchup|tomato/, 'tomato'],
  [/peanut|chikki|groundnut/, 'peanuts'],
  [/chocolate|chocos/, 'chocolate-bar'],
  [/mango|aam /, 'mango'],
  [/banana/, 'banana'],
  [/coconut/, 'coconut'],
  [/lemon|nimbu/, 'lemon'],
  [/apple|amla/, 'green-apple'],
  [/orange/, 'tangerine'],
  [/onion/, 'onion'],
  [/potato|aloo/, 'potato'],
  [/chilli|schezwan|pepper/, 'hot-pepper'],
  [/coriander|jeera|gongura|methi|tulsi|giloy|churna|neem|havan|aloe/, 'herb'],
  [/bhindi|peas|cardamom|green moong/, 'pea-pod'],
  [/ginger|turmeric|haldi/, 'ginger-root'],
  [/garlic/, 'garlic'],
  [/cauliflower/, 'broccoli'],
  [/corn/, 'ear-of-corn'],
  [/egg(s|less)?\b|mayonnaise/, 'egg'],
  [/paneer|cheese/, 'cheese-wedge'],
  [/butter\b(?! cookies| paper)|ghee(?! diya)/, 'butter'],
  [/dahi|lassi|chaas|cream\b(?! biscuits)|milk|doodh/, 'glass-of-milk'],
  [/cake|soan|mysore pak|puff/, 'shortcake'],
  [/\batta\b|flour|maida|sooji|dalia|millet|jowar|bajra/, 'sheaf-of-rice'],
  [/besan|dal\b|chana|rajma|lobia|moong|soya/, 'beans'],
  [/rice|poha|sabudana|idli|upma/, 'cooked-rice'],
  [/jaggery|honey|chyawanprash/, 'honey-pot'],
  [/\bsalt\b/, 'salt'],
  [/sugar|mishri/, 'ice'],
  [/raisin|kishmish/, 'grapes'],
  [/almond|cashew|pistachio|makhana|flax|walnut|date|fig|imli/, 'chestnut'],
  [/saffron|kesar|rose/, 'rose'],
  [/sunflower/, 'sunflower'],
  [/bhujia|sev\b|mixture|khatta meetha|bhakarwadi/, 'pretzel'],
  [/khakhra|crackers|mathri/, 'rice-cracker'],
  [/cookies|biscuits|nankhatai/, 'cookie'],
  [/coffee|chai/, 'hot-beverage'],
  [/tea\b/, 'teacup-without-handle'],
  [/water\b(?!.*coconut)|gangajal/, 'droplet'],
  [/soda|sharbat|jaljeera|juice|drink|vinegar/, 'tropical-drink'],
  [/pasta|macaroni|vermicelli/, 'spaghetti'],
  [/masala\b/, 'curry-rice'],
  [/dosa|dhokla/, 'pancakes'],
  [/jam\b/, 'strawberry'],
  [/pickle|murabba|chunda/, 'jar'],
  [/tikki|kabab/, 'falafel'],
  [/momos/, 'dumpling'],
  [/parotta/, 'flatbread'],
  [/chicken|keema/, 'poultry-leg'],
  [/mutton/, 'cut-of-meat'],
  [/prawn/, 'shrimp'],
  [/fish|rohu|surmai|pomfret/, 'fish'],
  [/diaper|wipes/, 'baby'],
  [/shampoo|dishwash|detergent|degreaser/, 'bubbles'],
  [/massage oil|hair oil|phenyl/, 'droplet'],
  [/toothpaste/, 'toothbrush'],
  [/talc|whitener|stain|glass cleaner|floor cleaner/, 'sparkles'],
  [/toilet/, 'toilet'],
  [/scrub/, 'sponge'],
  [/conditioner/, 'white-flower'],
  [/agarbatti|dhoop/, 'candle'],
  [/camphor|matchbox/, 'fire'],
  [/wicks|diya/, 'diya-lamp'],
  [/kumkum/, 'hibiscus'],
  [/foil|wrap|napkins|towel|butter paper/, 'roll-of-paper'],
  [/garbage/, 'wastebasket'],
  [/plates/, 'fork-and-knife-with-plate'],
];

/** Name rules for the pack; without a match the category's pack. */
const PACK_RULES: [RegExp, PackKind][] = [
  [/muesli|flakes|oats|porridge|chocos/, 'box'],
  [/ghee(?! diya)|honey|jam\b|pickle|murabba|chunda|peanut butter|spread|mayonnaise|chyawanprash|hing|instant coffee|schezwan|aloe|rash cream|dahi|kumkum/, 'jar'],
  [/\btin\b|cup noodles|ice cream|talc|saffron|haldi doodh/, 'tin'],
  [/noodles|pasta|chocolate bar|diapers|wipes|pads|napkins|plates|bags|wicks|samagri|treats|biscuits|face pack/, 'packet'],
  [/\boil\b|ketchup|sauce|milk$|lassi|chaas|cream$|juice|drink|sharbat|water\b|soda|aam panna|vinegar|shampoo|lotion|cleaner|gel$|phenyl|liquid|conditioner|whitener|remover|spray|gangajal/, 'bottle'],
  [/tea bags|cake|slices|eggs|soap|toothpaste|kulfi|agarbatti|dhoop|camphor|foil|wrap|matchbox|dishwash bar|detergent bar|masala$|chai tea/, 'box'],
  [/\batta\b|flour|rice\b|sugar|\bsalt\b|detergent powder|front load|dog food|cat food|litter|puppy/, 'bag'],
];

function matchRule<T>(rules: [RegExp, T][], name: string): T | undefined {
  for (const [pattern, value] of rules) if (pattern.test(name)) return value;
  return undefined;
}

/** The Fluent Emoji Flat icon that shows a base product's food (or, for household goods, what it is for). */
export function foodIconOf(categoryId: string, baseName: string): string {
  return matchRule(ICON_RULES, baseName.toLowerCase()) ?? (CATEGORY_ART[categoryId] ?? DEFAULT_ART).icon;
}

/** The kind of pack a base product is drawn in; fruit and vegetables are sold loose. */
export function packKindOf(categoryId: string, baseName: string): PackKind {
  if (categoryId === 'fruits-vegetables') return 'loose';
  if (categoryId === 'meat-fish') return 'tray';
  return matchRule(PACK_RULES, baseName.toLowerCase()) ?? (CATEGORY_ART[categoryId] ?? DEFAULT_ART).pack;
}
