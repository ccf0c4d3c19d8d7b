// The review form in the browser: checks the input, posts JSON to /api/Reviews, shows the outcome.
import { apiBaseUrl } from './api/base-url.ts';
import { postJsonForm } from './json-form.ts';

export interface ReviewInput {
  title: string;
  description: string;
  stars: number;
  productsId: number;
}

/** The same rules as the API's, so most mistakes are caught before a round trip. */
export function reviewProblem(input: ReviewInput): string | null {
  if (input.description.trim().length < 3) return 'Please write a comment of at least 3 characters.';
  if (input.description.trim().length > 1000) return 'Please keep your comment under 1000 characters.';
  if (input.title.trim().length < 2) return 'Please give your name (at least 2 characters).';
  if (input.title.trim().length > 60) return 'Please keep your name under 60 characters.';
  if (!Number.isInteger(input.stars) || input.stars < 1 || input.stars > 5) return 'Please choose from 1 to 5 stars.';
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
  return postJsonForm(form, {
    url: `${apiBaseUrl()}Reviews`,
    body: input,
    problem: reviewProblem(input),
    success: 'Thank you! Your review has been posted.',
    failure: 'Your review could not be posted.',
    onSuccess: (review) => showPostedReview(review as ReviewInput),
  });
}

/** Puts the new review at the top of the list, as text. */
function showPostedReview(review: ReviewInput) {
  const list = document.querySelector('[data-review-list]');
  if (!list) return;
  const item = document.createElement('li');
  const head = document.createElement('p');
  const who = document.createElement('strong');
  who.textContent = review.title;
  const stars = document.createElement('span');
  stars.setAttribute('aria-hidden', 'true');
  stars.textContent = `${'★'.repeat(review.stars)}${'☆'.repeat(5 - review.stars)}`;
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
