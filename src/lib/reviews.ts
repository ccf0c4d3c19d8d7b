// Review count, average and distribution computed from the reviews themselves, and their wording: one source
// for the product page (server) and for the page script that updates it after a review is posted (browser).
import type { Review } from './api/types.ts';
import { formatDate } from './dates.ts';

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

/** The mark of a review by a shopper we delivered the product to (issue 24): words, not a colour alone. */
export const CERTIFIED_BUYER_TEXT = 'Certified buyer';

/** Where a review stands in the list (the API's order): 0 a certified buyer's, 1 another signed-in shopper's, 2 anonymous. */
export const reviewRank = (review: Pick<Review, 'certifiedBuyer' | 'signedIn'>): number => (review.certifiedBuyer ? 0 : review.signedIn ? 1 : 2);

/** The day a review was posted, as a shopper in India reads it: '25 November 2026'. */
export const reviewDateText = (iso: string): string => formatDate(new Date(iso));
