// The review form in the browser: checks the input, posts it to the API (no auth header, SPEC §7), shows the outcome.
import type { NewReview, Review } from './api/types.ts';
import { NO_CONTROL, NO_CONTROL_EXCEPT_LINES, REVIEW_LIMITS } from './form-limits.ts';
import { anonymousApi, submitApiForm } from './api-form.ts';
import { reviewCountText, starsText, summariseReviews, type ReviewSummary } from './reviews.ts';

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

export function submitReview(form: HTMLFormElement) {
  const data = new FormData(form);
  const input: ReviewInput = {
    title: String(data.get('title') ?? ''),
    description: String(data.get('description') ?? ''),
    stars: Number(data.get('stars') ?? 0),
    productsId: Number(form.dataset.productId),
  };
  return submitApiForm(form, {
    send: async () => (await anonymousApi()).anonymousFeedback.postReview(input),
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

/** Puts the new review at the top of the list, as text. */
function showPostedReview(review: Pick<Review, 'title' | 'description' | 'stars'>) {
  const list = document.querySelector('[data-review-list]');
  if (!list) return;
  const item = document.createElement('li');
  const head = document.createElement('p');
  const who = document.createElement('strong');
  who.textContent = review.title;
  const stars = document.createElement('span');
  stars.setAttribute('aria-hidden', 'true');
  stars.textContent = starsText(review.stars);
  const spoken = document.createElement('span');
  spoken.className = 'visually-hidden';
  spoken.textContent = `${review.stars} out of 5 stars`;
  head.append(who, ' – ', stars, spoken);
  const body = document.createElement('p');
  body.textContent = review.description;
  item.append(head, body);
  list.prepend(item);
  list.closest('[hidden]')?.removeAttribute('hidden');
}
