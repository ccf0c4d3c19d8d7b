// The contact form in the browser: checks the input, posts JSON to the API, shows the outcome.
import { apiBaseUrl } from './api/base-url.ts';
import { postJsonForm } from './json-form.ts';

export interface ContactInput {
  name: string;
  email: string;
  phone: string;
  message: string;
}

/** The API's rules, checked first so most mistakes need no round trip. */
export function contactProblem(input: ContactInput): string | null {
  if (input.name.trim().length < 2) return 'Please tell us your name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email.trim())) return 'Please give an email address we can reply to.';
  if (input.phone.trim() && !/^\+?[0-9][0-9 -]{7,18}$/.test(input.phone.trim())) return 'Please give a phone number of digits, spaces or dashes, or leave it empty.';
  if (input.message.trim().length < 10) return 'Please write a message of at least 10 characters.';
  if (input.message.trim().length > 2000) return 'Please keep your message under 2000 characters.';
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
  return postJsonForm(form, {
    url: `${apiBaseUrl()}app/ContactMessages`,
    body: { ...input, phone: input.phone.trim() || undefined },
    problem: contactProblem(input),
    success: 'Thank you! We have your message and will reply within one working day.',
    failure: 'Your message could not be sent.',
  });
}
