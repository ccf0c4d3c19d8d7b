// The code step of registering and of signing in by text message (src/components/account/CodeStep.astro): says where
// the code went, takes it, and offers a new one once the API's wait is over.
import type { CodeSentDto } from '../server/account-schemas.ts';
import { bindAccountForm, showError } from './account-form.ts';
import { apiErrorMessage } from './api/errors.ts';

export interface CodeStepOptions {
  /** Checks the code (and signs in); throws the ky error when the API refuses it. */
  verify(code: string): Promise<void>;
  /** Asks for a new code. */
  resend(): Promise<CodeSentDto>;
}

export function bindCodeStep(form: HTMLFormElement, { verify, resend }: CodeStepOptions) {
  const sentBox = form.querySelector<HTMLElement>('[data-code-sent]');
  const resendButton = form.querySelector<HTMLButtonElement>('button[data-resend]');
  let timer: ReturnType<typeof setInterval> | undefined;

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
    send: (values) => verify(values.code ?? ''),
  });
  return { open };
}
