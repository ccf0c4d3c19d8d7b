// The code step of registering and of signing in by text message (src/components/account/CodeStep.astro): says where
// the code went, takes it, and offers a new one once the API's wait is over.
import type { CodeSentDto } from '../server/account-schemas.ts';
import { bindAccountForm, showError } from './account-form.ts';
import { apiErrorMessage } from './api/errors.ts';

export interface CodeStepOptions {
  /** Checks the code against the request it was sent for (its challenge), and signs in; throws the ky error when refused. */
  verify(code: string, challenge: string): Promise<void>;
  /** Asks for a new code. */
  resend(): Promise<CodeSentDto>;
}

export function bindCodeStep(form: HTMLFormElement, { verify, resend }: CodeStepOptions) {
  const sentBox = form.querySelector<HTMLElement>('[data-code-sent]');
  const resendButton = form.querySelector<HTMLButtonElement>('button[data-resend]');
  let timer: ReturnType<typeof setInterval> | undefined;
  // The newest request's challenge: a number's live code is sent again to each request, so it finishes the newest.
  let challenge = '';

  function waitToResend(seconds: number) {
    if (!resendButton) return;
    clearInterval(timer);
    let left = seconds;
    resendButton.disabled = true;
    resendButton.textContent = `Send a new code in ${left} s`;
    timer = setInterval(() => {
      left -= 1;
      if (left > 0) return void (resendButton.textContent = `Send a new code in ${left} s`);
      clearInterval(timer);
      resendButton.disabled = false;
      resendButton.textContent = 'Send a new code';
    }, 1000);
  }

  function open(sent: CodeSentDto) {
    challenge = sent.challenge;
    form.hidden = false;
    if (sentBox) sentBox.textContent = `${sent.message} It works for ${sent.codeMinutes} minutes.`;
    waitToResend(sent.resendAfterSeconds);
    form.querySelector<HTMLInputElement>('input[name="code"]')?.focus();
  }

  resendButton?.addEventListener('click', async () => {
    resendButton.disabled = true;
    try {
      open(await resend());
    } catch (error) {
      showError(form, null, apiErrorMessage(error, 'Could not send a new code. Please try again.'));
      resendButton.disabled = false;
    }
  });
  bindAccountForm(form, {
    failure: 'Could not check the code.',
    // A wrong or expired code is said next to the field, where the shopper types it again.
    fieldOfError: ({ code }) => (code === 'bad_request' ? 'code' : null),
    send: (values) => verify(values.code ?? '', challenge),
  });
  return { open };
}
