// FSSAI's veg / non-veg mark for the islands' lines (cart, checkout, order), drawn as src/components/FoodMark.astro
// draws it for the server's pages (issue 24), named by an aria-label. Not an island itself: a piece the islands render.
import { FOOD_MARK_BOX, FOOD_MARK_TRIANGLE, foodMarkOf, type FoodType } from '../lib/food-type.ts';

export function FoodMark({ foodType, size = 14 }: { foodType: FoodType | null | undefined; size?: number }) {
  const mark = foodMarkOf(foodType);
  if (!mark) return null;
  const half = FOOD_MARK_BOX / 2;
  return (
    <svg
      className="food-mark"
      role="img"
      aria-label={mark.name}
      viewBox={`0 0 ${FOOD_MARK_BOX} ${FOOD_MARK_BOX}`}
      width={size}
      height={size}
    >
      <rect x=".75" y=".75" width={FOOD_MARK_BOX - 1.5} height={FOOD_MARK_BOX - 1.5} fill="#fff" stroke={mark.colour} strokeWidth="1.5" />
      {mark.shape === 'circle' ? <circle cx={half} cy={half} r="3.5" fill={mark.colour} /> : <polygon points={FOOD_MARK_TRIANGLE} fill={mark.colour} />}
    </svg>
  );
}
