// The review form in the browser: checks the input, posts it to the API (no auth header, SPEC §7; a signed-in
// shopper's page script hands in a sender with their token, issue 24), shows the outcome.
import type { NewReview, Review } from './api/types.ts';
import { NO_CONTROL, NO_CONTROL_EXCEPT_LINES, REVIEW_LIMITS } from './form-limits.ts';
import { anonymousApi, submitApiForm } from './api-form.ts';
import { CERTIFIED_BUYER_TEXT, reviewCountText, reviewDateText, reviewRank, starsText, summariseReviews, type ReviewSummary } from './reviews.ts';

export type ReviewInput = NewReview;

/** The same rules as the API's, so most mistakes are caught before a round trip. */
export function reviewProblem(input: ReviewInput): string | null {
  const { name, comment, stars } = REVIEW_LIMITS;
  const commentLength = input.description.trim().length;
  const nameLength = input.title.trim().length;
  if (commentLength < comment.min) return `Please write a comment of at least ${comment.min} characters.`;
  if (commentLength > comment.max) return `Please keep your comment under ${comment.max} characters.`;
  if (!NO_CONTROL_EXCEPT_LINES.test(input.description)) return 'Please remove the control characters from your comment.';
  if (nameLength < name.min) return `Please give your name (at least ${name.min} characters).`;
  if (nameLength > name.max) return `Please keep your name under ${name.max} characters.`;
  if (!NO_CONTROL.test(input.title)) return 'Please remove the control characters from your name.';
  if (!Number.isInteger(input.stars) || input.stars < stars.min || input.stars > stars.max) return 'Please choose from 1 to 5 stars.';
  return null;
}

/** Posts a review with no auth header (SPEC §7). */
export const postAnonymousReview = async (input: ReviewInput): Promise<Review> => (await anonymousApi()).anonymousFeedback.postReview(input);

export function submitReview(form: HTMLFormElement, post: (input: ReviewInput) => Promise<Review> = postAnonymousReview) {
  const data = new FormData(form);
  const input: ReviewInput = {
    title: String(data.get('title') ?? ''),
    description: String(data.get('description') ?? ''),
    stars: Number(data.get('stars') ?? 0),
    productsId: Number(form.dataset.productId),
  };
  return submitApiForm(form, {
    send: () => post(input),
    problem: reviewProblem(input),
    success: 'Thank you! Your review has been posted.',
    failure: 'Your review could not be posted.',
    onSuccess: (review) => {
      showPostedReview(review);
      void refreshReviewSummary(input.productsId);
    },
  });
}

/**
 * After a post, the count, average and star bars are read again from the API (other shoppers may have
 * posted too) and summarised by the same code as the server-rendered page.
 */
async function refreshReviewSummary(productId: number) {
  try {
    showReviewSummary(summariseReviews(await (await anonymousApi()).anonymousCatalogue.reviews(productId)));
  } catch {
    // The review is posted and listed; the numbers catch up on the next visit.
  }
}

/** Writes a summary into the product page's marked places: tab, headings, header rating, bars. */
export function showReviewSummary(summary: ReviewSummary) {
  const text = (selector: string, value: string) => {
    for (const el of document.querySelectorAll(selector)) el.textContent = value;
  };
  text('[data-review-total]', String(summary.count));
  text('[data-review-count]', reviewCountText(summary.count));
  text('[data-review-average]', summary.average.toFixed(1));
  text('[data-review-stars]', starsText(summary.average));
  for (const el of document.querySelectorAll<HTMLElement>('[data-review-rating], [data-review-numbers]')) el.hidden = summary.count === 0;
  for (const el of document.querySelectorAll<HTMLElement>('[data-review-none]')) el.hidden = summary.count > 0;
  for (const { stars, count, percent } of summary.distribution) {
    const row = document.querySelector(`[data-review-row="${stars}"]`);
    const bar = row?.querySelector<SVGRectElement>('[data-review-bar]');
    const cell = row?.querySelector('[data-review-row-count]');
    bar?.setAttribute('width', String(percent));
    if (cell) cell.textContent = String(count);
  }
}

/**
 * Puts the new review where the API lists it (src/components/ReviewList.astro's markup, as text): first among those of
 * its rank (certified buyers, signed-in shoppers, anonymous), as the newest.
 */
function showPostedReview(review: Pick<Review, 'title' | 'description' | 'stars' | 'date' | 'signedIn' | 'certifiedBuyer'>) {
  const list = document.querySelector('[data-review-list]');
  if (!list) return;
  const rank = reviewRank(review);
  const item = document.createElement('li');
  item.dataset.reviewRank = String(rank);
  item.dataset.testid = 'review';
  const head = document.createElement('p');
  head.className = 'review-head';
  const who = document.createElement('strong');
  who.textContent = review.title;
  const stars = document.createElement('span');
  stars.setAttribute('aria-hidden', 'true');
  stars.textContent = starsText(review.stars);
  const spoken = document.createElement('span');
  spoken.className = 'visually-hidden';
  spoken.textContent = `${review.stars} out of 5 stars`;
  head.append(who, ' – ', stars, spoken);
  if (review.certifiedBuyer) {
    const mark = document.createElement('span');
    mark.className = 'review-certified';
    mark.dataset.testid = 'certified-buyer';
    const tick = document.createElement('span');
    tick.setAttribute('aria-hidden', 'true');
    tick.textContent = '✓ ';
    mark.append(tick, CERTIFIED_BUYER_TEXT);
    head.append(mark);
  }
  const dated = document.createElement('p');
  dated.className = 'review-date';
  const time = document.createElement('time');
  time.dateTime = review.date;
  time.textContent = reviewDateText(review.date);
  dated.append(time);
  const body = document.createElement('p');
  body.textContent = review.description;
  item.append(head, dated, body);
  const after = [...list.querySelectorAll<HTMLElement>(':scope > li')].find((li) => Number(li.dataset.reviewRank ?? 2) >= rank);
  list.insertBefore(item, after ?? null);
  list.closest('[hidden]')?.removeAttribute('hidden');
}
