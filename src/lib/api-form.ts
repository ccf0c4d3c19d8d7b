// A form sent to the API from the browser, with the outcome said in the form itself. Used by the review and
// contact forms; both also work without JavaScript (they post to a page).
import { isHTTPError } from 'ky';
import { apiErrorMessage } from './api/errors.ts';

/** The forms' API client, loaded on the first submit: a page's first load carries no HTTP client. */
export const anonymousApi = () => import('./api/anonymous.ts');

export interface ApiFormOptions<T> {
  /** The typed API call that sends the form's input. */
  send: () => Promise<T>;
  /** A problem found before sending (the API's own rules), or null. */
  problem: string | null;
  success: string;
  failure: string;
  onSuccess?: (response: T) => void;
}

/** Writes a message into one of the form's message boxes (as text), or empties it. */
function say(box: Element | null, text: string, className: string) {
  if (!box) return;
  box.replaceChildren();
  if (!text) return;
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  box.append(p);
}

export async function submitApiForm<T>(form: HTMLFormElement, options: ApiFormOptions<T>) {
  const errorBox = form.querySelector('[data-form-error]');
  const statusBox = form.querySelector('[data-form-status]');
  say(statusBox, '', '');
  say(errorBox, options.problem ?? '', 'form-error');
  if (options.problem) return;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = true;
  try {
    const response = await options.send();
    form.reset();
    say(statusBox, options.success, 'form-ok');
    options.onSuccess?.(response);
  } catch (error) {
    // The API's refusal says what to fix; anything else is the connection.
    const message = isHTTPError(error) ? apiErrorMessage(error, options.failure) : `${options.failure} Check your connection and try again.`;
    say(errorBox, message, 'form-error');
  } finally {
    if (button) button.disabled = false;
  }
}
