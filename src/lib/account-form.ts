// The account forms in the browser (sign in, register, forgotten and reset password, profile, change password):
// a small script per form, no React. Each message goes next to the field at fault (aria-describedby), the
// field gets focus, and nothing the shopper typed is cleared on an error.
import { apiError, apiErrorMessage, type ApiErrorBody } from './api/errors.ts';
import { ACCOUNT_LIMITS, INDIAN_MOBILE_PATTERN, normalizeIndianMobile } from './form-limits.ts';

export type FormValues = Record<string, string>;

export interface AccountFormOptions {
  /** Sends the form; throws the ky error when the API refuses. */
  send(values: FormValues): Promise<void>;
  /** Said when the API gives no message of its own. */
  failure: string;
  /** The field an API error is about, when its message does not start with a field's name (e.g. 409 → email). */
  fieldOfError?: (error: ApiErrorBody) => string | null;
}

type Field = HTMLInputElement;

function fieldsOf(form: HTMLFormElement): Field[] {
  return [...form.querySelectorAll<Field>('input[name]:not([type="hidden"])')];
}

function labelOf(input: Field): string {
  return input.labels?.[0]?.textContent?.trim() || input.name;
}

/** What is wrong with one field, by the rules its attributes and src/lib/form-limits.ts state; null when fine. */
export function fieldProblem(input: Pick<Field, 'value' | 'required' | 'minLength' | 'maxLength' | 'type' | 'name'> & { label: string; check?: string | undefined }): string | null {
  const value = input.type === 'password' ? input.value : input.value.trim();
  if (!value) return input.required ? `${input.label} is required.` : null;
  if (input.minLength > 0 && value.length < input.minLength) return `${input.label} must be at least ${input.minLength} characters.`;
  if (input.maxLength > 0 && value.length > input.maxLength) return `${input.label} must be at most ${input.maxLength} characters.`;
  if (input.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'Enter an email address like name@example.com.';
  if (input.check === 'mobile' && !INDIAN_MOBILE_PATTERN.test(normalizeIndianMobile(value)))
    return 'Enter a 10-digit mobile number (it starts with 6, 7, 8 or 9).';
  if (input.check === 'password' && value.length < ACCOUNT_LIMITS.password.min)
    return `Use at least ${ACCOUNT_LIMITS.password.min} characters.`;
  return null;
}

function errorBoxOf(form: HTMLFormElement, name: string | null): HTMLElement | null {
  return form.querySelector<HTMLElement>(name ? `[data-error-for="${name}"]` : '[data-form-error]');
}

function clearMessages(form: HTMLFormElement) {
  for (const box of form.querySelectorAll<HTMLElement>('[data-error-for], [data-form-error], [data-form-status]')) box.textContent = '';
  for (const input of fieldsOf(form)) input.removeAttribute('aria-invalid');
}

/** Puts `message` next to the field `name` (or at the top of the form) and moves focus there. */
export function showError(form: HTMLFormElement, name: string | null, message: string) {
  const input = name ? form.querySelector<Field>(`input[name="${name}"]`) : null;
  const box = errorBoxOf(form, input ? name : null);
  if (box) box.textContent = message;
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  } else {
    box?.focus();
  }
}

/** Puts each message next to its field and marks the field invalid; focus goes to the first (each field's own). */
export function showErrors(form: HTMLFormElement, problems: { name: string; message: string }[]) {
  for (const { name, message } of problems) {
    const input = form.querySelector<Field>(`input[name="${name}"]`);
    const box = errorBoxOf(form, name);
    if (box) box.textContent = message;
    input?.setAttribute('aria-invalid', 'true');
  }
  const first = problems[0];
  if (first) form.querySelector<Field>(`input[name="${first.name}"]`)?.focus();
}

export function showStatus(form: HTMLFormElement, message: string) {
  const box = form.querySelector<HTMLElement>('[data-form-status]');
  if (box) box.textContent = message;
}

/** The API's zod messages start with the field's name ('phone must be a 10-digit…'). */
function fieldOfMessage(message: string, names: string[]): string | null {
  const first = message.split(/\s/, 1)[0] ?? '';
  return names.includes(first) ? first : null;
}

export function bindAccountForm(form: HTMLFormElement, options: AccountFormOptions) {
  form.noValidate = true; // our messages, next to each field, instead of the browser's bubbles
  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    clearMessages(form);
    const fields = fieldsOf(form);
    // Every field at fault says so at once (issue 24: an empty form flagged only its first field), the first takes focus.
    const problems = fields.flatMap((input) => {
      const { value, required, minLength, maxLength, type, name } = input;
      const problem = fieldProblem({ value, required, minLength, maxLength, type, name, label: labelOf(input), check: input.dataset.check });
      return problem ? [{ name, message: problem }] : [];
    });
    if (problems.length) return showErrors(form, problems);
    const values: FormValues = Object.fromEntries(fields.map((input) => [input.name, input.type === 'password' ? input.value : input.value.trim()]));
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    busy = true;
    button?.setAttribute('aria-disabled', 'true');
    form.setAttribute('aria-busy', 'true');
    try {
      await options.send(values);
    } catch (error) {
      const body = apiError(error);
      const names = fields.map((f) => f.name);
      const field = body ? (options.fieldOfError?.(body) ?? fieldOfMessage(body.message, names)) : null;
      showError(form, field, apiErrorMessage(error, options.failure));
    } finally {
      busy = false;
      button?.removeAttribute('aria-disabled');
      form.removeAttribute('aria-busy');
    }
  });
}
