// The contact form in the browser: checks the input, posts it to the API, shows the outcome.
import { CONTACT_LIMITS, NO_CONTROL, NO_CONTROL_EXCEPT_LINES, PHONE_PATTERN } from './form-limits.ts';
import { anonymousApi, submitApiForm } from './api-form.ts';
import type { NewContactMessage } from './api/types.ts';

/** What the form holds: every field, the phone possibly empty. */
export type ContactInput = Required<NewContactMessage>;

/** The API's rules, checked first so most mistakes need no round trip. */
export function contactProblem(input: ContactInput): string | null {
  const { name, message } = CONTACT_LIMITS;
  const phone = input.phone.trim();
  const messageLength = input.message.trim().length;
  if (input.name.trim().length < name.min) return 'Please tell us your name.';
  if (!NO_CONTROL.test(input.name)) return 'Please remove the control characters from your name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email.trim())) return 'Please give an email address we can reply to.';
  if (!PHONE_PATTERN.test(phone)) return 'Please give a phone number of digits, spaces or dashes, or leave it empty.';
  if (messageLength < message.min) return `Please write a message of at least ${message.min} characters.`;
  if (messageLength > message.max) return `Please keep your message under ${message.max} characters.`;
  if (!NO_CONTROL_EXCEPT_LINES.test(input.message)) return 'Please remove the control characters from your message.';
  return null;
}

export function submitContactForm(form: HTMLFormElement) {
  const data = new FormData(form);
  const input: ContactInput = {
    name: String(data.get('name') ?? ''),
    email: String(data.get('email') ?? ''),
    phone: String(data.get('phone') ?? ''),
    message: String(data.get('message') ?? ''),
  };
  return submitApiForm(form, {
    // An empty phone is fine as it is: the API reads it as no phone.
    send: async () => (await anonymousApi()).anonymousFeedback.sendContactMessage(input),
    problem: contactProblem(input),
    success: 'Thank you! We have your message and will reply within one working day.',
    failure: 'Your message could not be sent.',
  });
}
