// Checkout: a shopper whose mobile number is not verified yet (an account from before codes, or a changed number)
// verifies it here with a texted code, without leaving the checkout: the cart, address and slot stay as chosen.
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { browserAccount } from '../../client/api.ts';
import { apiErrorMessage } from '../../lib/api/errors.ts';
import type { CodeSentDto, UserDto } from '../../server/account-schemas.ts';

export function PhoneVerify({ phone, onVerified }: { phone: string; onVerified: (user: UserDto) => void }) {
  const [sent, setSent] = useState<CodeSentDto | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function send() {
    setBusy(true);
    setError('');
    try {
      const answer = await browserAccount.sendPhoneCode();
      setSent(answer);
      setWait(answer.resendAfterSeconds);
      requestAnimationFrame(() => codeInput.current?.focus());
    } catch (failure) {
      setError(apiErrorMessage(failure, 'Could not send a code. Please try again.'));
    }
    setBusy(false);
  }

  async function verify(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError('Enter the 6 digits of the text message.');
    setBusy(true);
    setError('');
    try {
      onVerified(await browserAccount.verifyPhone(code));
    } catch (failure) {
      setError(apiErrorMessage(failure, 'Could not check the code.'));
      setBusy(false);
    }
  }

  return (
    <section className="checkout-step phone-verify" aria-labelledby="step-verify" id="checkout-verify" data-testid="phone-verify">
      <h2 id="step-verify">Verify your mobile number</h2>
      <p>
        Before your first order we text a code to <strong>+91 {phone}</strong>, so that only you can order for delivery on your number.
      </p>
      {error && (
        <p className="form-error" role="alert" id="verify-error">
          {error}
        </p>
      )}
      {sent === null ? (
        <button type="button" className="button" disabled={busy} onClick={() => void send()}>
          Text me a code
        </button>
      ) : (
        <form onSubmit={(event) => void verify(event)} noValidate>
          <p role="status">{sent.message}</p>
          <div className="field">
            <label htmlFor="verify-code">6-digit code</label>
            <input
              id="verify-code"
              ref={codeInput}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              value={code}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'verify-error' : undefined}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              Verify
            </button>
            <button type="button" className="button secondary" disabled={busy || wait > 0} onClick={() => void send()}>
              {wait > 0 ? `Send a new code in ${wait} s` : 'Send a new code'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
