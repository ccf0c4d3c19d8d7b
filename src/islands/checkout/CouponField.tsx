// The cart's coupon (issue 25): a code and Apply, or the applied code with Remove. What it takes off, and why one does
// not apply, is the server's answer (the cart priced with ?coupon=); the message is read out as it changes.
import { useState, type FormEvent } from 'react';
import type { CouponCheckDto } from '../../server/account-schemas.ts';

export interface CouponFieldProps {
  /** The code kept in the shopper's state; '' when none. */
  applied: string;
  /** The server's verdict on `applied` for the cart as it is now. */
  check: CouponCheckDto | undefined;
  /** What the last Apply or Remove said (a refusal's reason included). */
  message: { text: string; refused: boolean };
  busy: boolean;
  onApply: (code: string) => void;
  onRemove: () => void;
}

/** The same bound as the API's (CartCouponQuery): a longer code is none of ours. */
const MAX_CODE = 40;

export function CouponField({ applied, check, message, busy, onApply, onRemove }: CouponFieldProps) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = typed.trim();
    if (!code) {
      setProblem('Type a coupon code first.');
      return;
    }
    setProblem('');
    onApply(code);
  };

  // A kept code that stopped applying (the cart fell below its minimum, it expired) says why until it is removed.
  const stale = applied && check && !check.applies ? check.reason?.message : '';
  const said = problem || stale || message.text;
  const refused = Boolean(problem || stale || message.refused);

  return (
    <div className="coupon" data-testid="coupon">
      {applied ? (
        <p className="coupon-applied">
          <span>
            Coupon <strong data-testid="coupon-code">{applied}</strong>
            {check?.applies ? ' applied' : ' not applied'}
            {check?.applies && check.label ? <span className="fine-print">: {check.label}</span> : null}
          </span>
          <button type="button" className="link-button" onClick={onRemove} disabled={busy}>
            Remove<span className="visually-hidden"> coupon {applied}</span>
          </button>
        </p>
      ) : (
        <form className="coupon-form" onSubmit={submit} noValidate>
          <label htmlFor="coupon-code">Coupon code</label>
          <div className="coupon-row">
            <input
              id="coupon-code"
              name="coupon"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              maxLength={MAX_CODE}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-describedby="coupon-message"
              aria-invalid={refused && said ? true : undefined}
            />
            <button type="submit" className="button secondary" disabled={busy}>
              {busy ? 'Applying…' : 'Apply'}
            </button>
          </div>
        </form>
      )}
      {/* The applied box already shows a success; the message is then for screen readers only. */}
      <p
        id="coupon-message"
        role="status"
        aria-live="polite"
        className={refused ? 'form-error coupon-message' : applied && check?.applies ? 'visually-hidden' : 'coupon-message'}
        data-testid="coupon-message"
      >
        {said}
      </p>
    </div>
  );
}
