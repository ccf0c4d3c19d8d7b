// A product's food type and FSSAI's mark for it (issue 24), said once for the API's schema, the grocer's import, the
// server-rendered mark (src/components/FoodMark.astro) and the islands' (src/islands/FoodMark.tsx).
// The marks are those of the Food Safety and Standards (Labelling and Display) Regulations, 2020, as amended in 2022:
// vegetarian, a green filled circle in a green square; non-vegetarian, a brown filled triangle in a brown square. FSSAI
// has no mark of its own for egg: it counts egg as non-vegetarian, so egg gets the brown mark, named 'Contains egg'.

export const FOOD_TYPES = ['veg', 'non_veg', 'egg'] as const;
export type FoodType = (typeof FOOD_TYPES)[number];

/** The mark's accessible name (and its tooltip): what a screen reader says where the eye sees the symbol. */
export const FOOD_TYPE_NAMES: Record<FoodType, string> = {
  veg: 'Vegetarian',
  non_veg: 'Non-vegetarian',
  egg: 'Contains egg',
};

/** Green and brown with at least 3:1 against white (WCAG 1.4.11 for a graphic that carries meaning): 5.1:1 and 7.1:1. */
const VEG_GREEN = '#008000';
const NON_VEG_BROWN = '#8b4513';

export interface FoodMarkDrawing {
  name: string;
  colour: string;
  /** The shape inside the square. */
  shape: 'circle' | 'triangle';
}

/** What to draw for a food type; null when there is none to draw (not food, or not given). */
export function foodMarkOf(foodType: FoodType | null | undefined): FoodMarkDrawing | null {
  if (!foodType) return null;
  return foodType === 'veg'
    ? { name: FOOD_TYPE_NAMES.veg, colour: VEG_GREEN, shape: 'circle' }
    : { name: FOOD_TYPE_NAMES[foodType], colour: NON_VEG_BROWN, shape: 'triangle' };
}

/** The mark's drawing in a 14 × 14 box: the square's outline, then the circle or the triangle. */
export const FOOD_MARK_BOX = 14;
export const FOOD_MARK_TRIANGLE = '7,3.5 10.5,10 3.5,10';

/**
 * A food type as a grocer writes it in the import's food_type column: veg, non-veg (or non_veg, nonveg), egg, in any
 * letter case. undefined when it is none of them.
 */
export function readFoodType(text: string): FoodType | undefined {
  const word = text.trim().toLowerCase().replace(/[\s_-]+/g, '');
  if (word === 'veg' || word === 'vegetarian') return 'veg';
  if (word === 'nonveg' || word === 'nonvegetarian') return 'non_veg';
  if (word === 'egg') return 'egg';
  return undefined;
}
