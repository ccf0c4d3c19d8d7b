// Review count, average and distribution computed from the reviews themselves.
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
