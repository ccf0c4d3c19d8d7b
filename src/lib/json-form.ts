// Posting a form as JSON to the API from the browser, with the outcome said in the form itself.
// Used by the review and contact forms; both also work without JavaScript (they post to a page).

export interface JsonFormOptions<T> {
  url: string;
  body: T;
  /** A problem found before sending (the API's own rules), or null. */
  problem: string | null;
  success: string;
  failure: string;
  onSuccess?: (response: unknown) => void;
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

export async function postJsonForm<T>(form: HTMLFormElement, options: JsonFormOptions<T>) {
  const errorBox = form.querySelector('[data-form-error]');
  const statusBox = form.querySelector('[data-form-status]');
  say(statusBox, '', '');
  say(errorBox, options.problem ?? '', 'form-error');
  if (options.problem) return;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = true;
  try {
    // JSON content type and no auth header (SPEC §7 for reviews).
    const res = await fetch(options.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(options.body),
    });
    if (res.ok) {
      form.reset();
      say(statusBox, options.success, 'form-ok');
      options.onSuccess?.(await res.json());
    } else {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      say(errorBox, body?.error?.message ?? options.failure, 'form-error');
    }
  } catch {
    say(errorBox, `${options.failure} Check your connection and try again.`, 'form-error');
  } finally {
    if (button) button.disabled = false;
  }
}
