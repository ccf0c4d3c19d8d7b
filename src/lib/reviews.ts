// Review count, average and distribution computed from the reviews themselves, and their wording: one source
// for the product page (server) and for the page script that updates it after a review is posted (browser).
import type { Review } from './api/types.ts';

export interface ReviewSummary {
  count: number;
  average: number;
  distribution: { stars: number; count: number; percent: number }[];
}

export function summariseReviews(reviews: Pick<Review, 'stars'>[]): ReviewSummary {
  const count = reviews.length;
  const total = reviews.reduce((sum, r) => sum + r.stars, 0);
  const distribution = [5, 4, 3, 2, 1].map((stars) => {
    const n = reviews.filter((r) => r.stars === stars).length;
    return { stars, count: n, percent: count ? Math.round((n * 100) / count) : 0 };
  });
  return { count, average: count ? Math.round((total / count) * 10) / 10 : 0, distribution };
}

/** '1 review', '12 reviews'. */
export const reviewCountText = (count: number) => `${count} ${count === 1 ? 'review' : 'reviews'}`;

/** The average as filled and empty stars ('★★★★☆'), rounded to whole stars. */
export function starsText(average: number): string {
  const filled = Math.round(average);
  return '★'.repeat(filled) + '☆'.repeat(5 - filled);
}
