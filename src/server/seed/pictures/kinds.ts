// What the demo catalogue's pictures show: for each base product the food (a Fluent Emoji Flat icon, or one of our own
// drawings in foods.ts) and the kind of pack it is sold in, told by its name first and its category second, so the
// same product always gets the same art.

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

/**
 * Name rules, first match wins; more specific words come before the general ones they contain. Non-food first (their
 * names hold food words: 'Chicken Jerky Treats', 'Besan Haldi Face Pack'), then dishes before their ingredients
 * ('Besan Ladoo' is a ladoo, 'Paneer Butter Masala' a curry). Indian foods the icon set has no picture of are our own
 * drawings (foods.ts): each dal in its colour, flours and masalas in a bowl, paneer, ghee, okra, mithai, namkeen.
 */
const ICON_RULES: [RegExp, string][] = [
  [/puppy|dog food/, 'dog-face'],
  [/cat food|cat litter/, 'cat-face'],
  [/dog biscuits|jerky/, 'bone'],
  [/soap|dishwash bar|detergent bar/, 'soap'],
  [/lotion|rash cream|face pack/, 'lotion-bottle'],
  [/wicks|diya/, 'diya-lamp'],
  [/butter paper/, 'roll-of-paper'],
  [/kulfi|ice cream/, 'ice-cream'],
  [/oats|muesli|flakes|porridge|chocos/, 'bowl-with-spoon'],
  [/nankhatai/, 'nankhatai'],
  [/crackers/, 'crackers'],
  [/biscuits|cookies/, 'cookie'],
  // Mithai and namkeen.
  [/ladoo/, 'ladoo'],
  [/rasgulla/, 'rasgulla'],
  [/gulab jamun/, 'gulab-jamun'],
  [/kaju katli/, 'kaju-katli'],
  [/mysore pak/, 'mysore-pak'],
  [/soan papdi/, 'soan-papdi'],
  [/noodles/, 'steaming-bowl'],
  [/banana chips/, 'banana-chips'],
  [/chips/, 'potato-chips'],
  [/moong dal namkeen/, 'moong-namkeen'],
  [/ratlami sev/, 'ratlami-sev'],
  [/bhujia|\bsev\b/, 'sev'],
  [/khatta meetha/, 'khatta-meetha-mix'],
  [/mixture/, 'namkeen-mix'],
  [/bhakarwadi/, 'bhakarwadi'],
  [/khakhra/, 'khakhra'],
  [/mathri/, 'mathri'],
  // Dishes and mixes.
  [/biryani|dal makhani|butter masala|masala curry/, 'curry-rice'],
  [/idli mix/, 'idli'],
  [/dosa/, 'dosa'],
  [/dhokla/, 'dhokla'],
  [/upma/, 'sooji'],
  [/haldi doodh/, 'haldi-doodh'],
  [/jaljeera/, 'tropical-drink'],
  [/mayonnaise/, 'mayonnaise'],
  [/churna/, 'churna'],
  [/chicken|keema/, 'poultry-leg'],
  [/tikki|kabab/, 'falafel'],
  // Spices: a bowl of the powder in its colour, or the whole spice.
  [/turmeric/, 'turmeric-powder'],
  [/chilli powder/, 'chilli-powder'],
  [/coriander powder/, 'coriander-powder'],
  [/garam masala/, 'garam-masala'],
  [/kitchen king/, 'kitchen-king-masala'],
  [/chhole masala/, 'chhole-masala'],
  [/sambar masala/, 'sambar-masala'],
  [/pav bhaji masala/, 'pav-bhaji-masala'],
  [/jeera|cumin/, 'jeera'],
  [/black pepper/, 'black-pepper'],
  [/cardamom/, 'cardamom'],
  [/\bhing\b|asafoetida/, 'hing'],
  [/saffron/, 'saffron'],
  // Oils by what they are pressed from; ghee in its jar.
  [/mustard/, 'mustard-seeds'],
  [/sesame|gingelly/, 'sesame-seeds'],
  [/soyabean|soya/, 'soya-beans'],
  [/rice bran/, 'sheaf-of-rice'],
  [/ghee/, 'ghee-jar'],
  [/paneer/, 'paneer'],
  [/dahi|curd/, 'curd'],
  // Dals and pulses, each in its own colour; rajma alone is the red kidney bean.
  [/rajma/, 'beans'],
  [/green moong/, 'green-moong'],
  [/moong/, 'moong-dal'],
  [/toor|arhar/, 'toor-dal'],
  [/\bmasoor\b/, 'masoor-dal'],
  [/urad/, 'urad-dal'],
  [/kabuli/, 'kabuli-chana'],
  [/kala chana/, 'kala-chana'],
  [/chana dal/, 'chana-dal'],
  [/lobia/, 'lobia'],
  // Flours.
  [/besan/, 'besan'],
  [/maida/, 'maida'],
  [/sooji|rava/, 'sooji'],
  [/ragi flour/, 'ragi-flour'],
  [/jowar/, 'jowar-flour'],
  [/bajra/, 'bajra-flour'],
  [/rice flour/, 'rice-flour'],
  [/multigrain atta/, 'multigrain-atta'],
  [/\batta\b/, 'atta'],
  // Rice and grains.
  [/brown basmati/, 'brown-rice'],
  [/basmati/, 'basmati-rice'],
  [/poha/, 'poha'],
  [/dalia|broken wheat/, 'dalia'],
  [/millet/, 'foxtail-millet'],
  [/sabudana/, 'sabudana'],
  [/\brice\b/, 'cooked-rice'],
  // Sugar and jaggery.
  [/jaggery powder/, 'jaggery-powder'],
  [/jaggery|\bgur\b/, 'jaggery'],
  [/mishri/, 'mishri'],
  [/khandsari/, 'khandsari-sugar'],
  [/sugar/, 'sugar'],
  // Dry fruit, nuts and seeds.
  [/almond/, 'almonds'],
  [/cashew/, 'cashews'],
  [/raisin|kishmish/, 'raisins'],
  [/walnut/, 'walnuts'],
  [/pistachio/, 'pistachios'],
  [/\bdates\b/, 'dates'],
  [/makhana/, 'makhana'],
  [/\bfigs?\b|anjeer/, 'figs'],
  [/flax/, 'flax-seeds'],
  [/imli|tamarind/, 'tamarind'],
  // Vegetables, fruit and bakes the icon set draws as something else.
  [/bhindi|okra/, 'okra'],
  [/green chilli/, 'green-chilli'],
  [/cauliflower/, 'cauliflower'],
  [/amla/, 'amla'],
  [/\bpav\b/, 'pav'],
  [/\bbuns\b/, 'burger-buns'],
  [/rusk/, 'rusk'],
  [/khari/, 'khari'],
  [/garlic bread/, 'baguette-bread'],
  [/bread/, 'bread'],
  [/ketchup|tomato/, 'tomato'],
  [/peanut|chikki|groundnut/, 'peanuts'],
  [/chocolate/, 'chocolate-bar'],
  [/mango|aam /, 'mango'],
  [/banana/, 'banana'],
  [/coconut/, 'coconut'],
  [/lemon|nimbu/, 'lemon'],
  [/apple/, 'red-apple'],
  [/orange/, 'tangerine'],
  [/onion/, 'onion'],
  [/potato|aloo/, 'potato'],
  [/chilli|schezwan|pepper/, 'hot-pepper'],
  [/coriander|gongura|methi|tulsi|giloy|neem|havan|aloe/, 'herb'],
  [/peas/, 'pea-pod'],
  [/ginger/, 'ginger-root'],
  [/garlic/, 'garlic'],
  [/corn/, 'ear-of-corn'],
  [/\beggs?\b/, 'egg'],
  [/cheese/, 'cheese-wedge'],
  [/butter/, 'butter'],
  [/lassi|chaas|cream|milk|doodh/, 'glass-of-milk'],
  [/cake|puff/, 'shortcake'],
  [/honey/, 'honey-pot'],
  [/chyawanprash|pickle|murabba|chunda/, 'jar'],
  [/\bsalt\b/, 'salt'],
  [/rose/, 'rose'],
  [/sunflower/, 'sunflower'],
  [/coffee|chai/, 'hot-beverage'],
  [/tea\b/, 'teacup-without-handle'],
  [/water\b|gangajal/, 'droplet'],
  [/soda|sharbat|juice|drink|vinegar/, 'tropical-drink'],
  [/pasta|macaroni|vermicelli/, 'spaghetti'],
  [/masala\b/, 'curry-rice'],
  [/jam\b/, 'strawberry'],
  [/momos/, 'dumpling'],
  [/parotta/, 'flatbread'],
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
  [/kumkum/, 'hibiscus'],
  [/foil|wrap|napkins|towel/, 'roll-of-paper'],
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

/** The icon or drawing that shows a base product's food (or, for household goods, what it is for). */
export function foodIconOf(categoryId: string, baseName: string): string {
  return matchRule(ICON_RULES, baseName.toLowerCase()) ?? (CATEGORY_ART[categoryId] ?? DEFAULT_ART).icon;
}

/** The kind of pack a base product is drawn in; fruit and vegetables are sold loose. */
export function packKindOf(categoryId: string, baseName: string): PackKind {
  if (categoryId === 'fruits-vegetables') return 'loose';
  if (categoryId === 'meat-fish') return 'tray';
  return matchRule(PACK_RULES, baseName.toLowerCase()) ?? (CATEGORY_ART[categoryId] ?? DEFAULT_ART).pack;
}
