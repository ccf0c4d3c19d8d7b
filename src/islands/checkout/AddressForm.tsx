// The delivery address form, one component for the checkout and the address book (/myaccount): the API's checks in
// the browser first (src/lib/address-form.ts), then the API's own refusal shown at its field, focus on the first
// field at fault, nothing typed cleared on an error.
import { useId, useRef, useState, type SubmitEvent } from 'react';
import {
  ADDRESS_FIELDS,
  ADDRESS_TYPE_LABELS,
  addressInput,
  characterCount,
  addressProblems,
  EMPTY_ADDRESS,
  fieldOfAddressMessage,
  sentence,
  type AddressField,
  type AddressProblems,
  type AddressValues,
} from '../../lib/address-form.ts';
import { apiError, apiErrorMessage } from '../../lib/api/errors.ts';
import { ADDRESS_LIMITS } from '../../lib/form-limits.ts';
import { INDIAN_STATES } from '../../lib/indian-states.ts';
import type { AddressInput } from '../../server/order-schemas.ts';

interface Props {
  /** The address being edited; empty for a new one. */
  initial?: AddressValues;
  /** 'New delivery address' or 'Edit …': the fieldset's legend. */
  legend: string;
  submitLabel: string;
  /** Offer 'Make this my default address' (not for the first address, which is the default anyway). */
  offerDefault?: boolean;
  /** The address edited is the default: it stays so (the API is sent isDefault: true). */
  isDefault?: boolean;
  /** Sends the address; throws the ky error when the API refuses. */
  onSave: (input: AddressInput) => Promise<void>;
  onCancel?: () => void;
}

interface FieldSpec {
  label: string;
  autoComplete: string;
  required: boolean;
  /** A hard cap for fixed-format fields (a PIN code, a mobile number). */
  maxLength?: number;
  /** A text's limit: shown as a counter, and an error past it, never a silent cut (issue 25). */
  limit?: number;
  inputMode?: 'numeric' | 'tel';
  type?: 'tel' | 'text';
  hint?: string;
}

type TextField = Exclude<AddressField, 'state' | 'addressType' | 'instructions'>;

const FIELD_SPECS: Record<TextField, FieldSpec> = {
  name: { label: 'Full name', autoComplete: 'name', required: true, limit: ADDRESS_LIMITS.name.max },
  phone: { label: 'Mobile number', autoComplete: 'tel', required: true, maxLength: 16, type: 'tel', inputMode: 'tel', hint: '10 digits' },
  pincode: { label: 'Pincode', autoComplete: 'postal-code', required: true, maxLength: 6, inputMode: 'numeric', hint: '6 digits' },
  line1: { label: 'Flat, house no., building', autoComplete: 'address-line1', required: true, limit: ADDRESS_LIMITS.line.max },
  line2: { label: 'Area, street, sector (optional)', autoComplete: 'address-line2', required: false, limit: ADDRESS_LIMITS.line.max },
  landmark: { label: 'Landmark (optional)', autoComplete: 'off', required: false, limit: ADDRESS_LIMITS.landmark.max },
  city: { label: 'Town or city', autoComplete: 'address-level2', required: true, limit: ADDRESS_LIMITS.city.max },
};

export function AddressForm({ initial = EMPTY_ADDRESS, legend, submitLabel, offerDefault = false, isDefault = false, onSave, onCancel }: Props) {
  const id = useId();
  const [values, setValues] = useState<AddressValues>(initial);
  const [makeDefault, setMakeDefault] = useState(isDefault);
  const [problems, setProblems] = useState<AddressProblems>({});
  const [formProblem, setFormProblem] = useState('');
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);

  const fieldId = (field: AddressField) => `${id}-${field}`;
  const focusField = (field: AddressField) => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(field))}`)?.focus();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setFormProblem('');
    const found = addressProblems(values);
    setProblems(found);
    const first = ADDRESS_FIELDS.find((field) => found[field]);
    if (first) return focusField(first);
    setSaving(true);
    try {
      await onSave(addressInput(values, makeDefault));
    } catch (error) {
      console.error('Cannot save the address', error);
      const body = apiError(error);
      const field = body ? fieldOfAddressMessage(body.message) : null;
      if (field && body) {
        setProblems({ [field]: body.message });
        focusField(field);
      } else {
        setFormProblem(apiErrorMessage(error, 'The address could not be saved.'));
        // After React has drawn the message.
        requestAnimationFrame(() => formErrorRef.current?.focus());
      }
    } finally {
      setSaving(false);
    }
  }

  const set = (field: AddressField) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });

  const described = (field: AddressField, hint?: string, limit?: number) =>
    [hint ? `${fieldId(field)}-hint` : null, limit ? `${fieldId(field)}-count` : null, problems[field] ? `${fieldId(field)}-error` : null]
      .filter(Boolean)
      .join(' ') || undefined;

  /** '87 / 120' under a field with a limit; past it, how many too many (the form will not send it). */
  const counter = (field: AddressField, limit: number) => {
    const count = characterCount(values[field], limit);
    return (
      <p className={count.over ? 'char-count over' : 'char-count'} id={`${fieldId(field)}-count`} data-testid={`count-${field}`}>
        {count.text}
      </p>
    );
  };

  const errorOf = (field: AddressField) =>
    problems[field] ? (
      <p className="field-error form-error" id={`${fieldId(field)}-error`}>
        {sentence(problems[field])}
      </p>
    ) : null;

  const input = (field: TextField) => {
    const spec = FIELD_SPECS[field];
    return (
      <div className={`field field-${field}`} key={field}>
        <label htmlFor={fieldId(field)}>{spec.label}</label>
        {spec.hint && (
          <p className="field-hint" id={`${fieldId(field)}-hint`}>
            {spec.hint}
          </p>
        )}
        <input
          id={fieldId(field)}
          name={field}
          type={spec.type ?? 'text'}
          inputMode={spec.inputMode}
          autoComplete={spec.autoComplete}
          required={spec.required}
          maxLength={spec.maxLength}
          value={values[field]}
          onChange={set(field)}
          aria-invalid={problems[field] || (spec.limit && characterCount(values[field], spec.limit).over) ? true : undefined}
          aria-describedby={described(field, spec.hint, spec.limit)}
        />
        {spec.limit && counter(field, spec.limit)}
        {errorOf(field)}
      </div>
    );
  };

  return (
    <form ref={formRef} className="address-form" noValidate onSubmit={(e) => void submit(e)} aria-busy={saving || undefined} data-testid="address-form">
      <fieldset>
        <legend>{legend}</legend>
        {formProblem && (
          <p className="form-error" role="alert" tabIndex={-1} ref={formErrorRef}>
            {formProblem}
          </p>
        )}
        <div className="address-fields">
          {input('name')}
          {input('phone')}
          {input('pincode')}
          {input('line1')}
          {input('line2')}
          {input('landmark')}
          {input('city')}
          <div className="field field-state">
            <label htmlFor={fieldId('state')}>State</label>
            <select
              id={fieldId('state')}
              name="state"
              autoComplete="address-level1"
              required
              value={values.state}
              onChange={set('state')}
              aria-invalid={problems.state ? true : undefined}
              aria-describedby={described('state')}
            >
              <option value="">Choose a state</option>
              {INDIAN_STATES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </select>
            {errorOf('state')}
          </div>
        </div>
        <fieldset className="address-type" aria-describedby={problems.addressType ? `${fieldId('addressType')}-error` : undefined}>
          <legend>Address type</legend>
          {Object.entries(ADDRESS_TYPE_LABELS).map(([type, label]) => (
            <label key={type} className="check">
              <input type="radio" name={`${id}-addressType`} value={type} checked={values.addressType === type} onChange={set('addressType')} />
              {label}
            </label>
          ))}
          {errorOf('addressType')}
        </fieldset>
        <div className="field field-instructions">
          <label htmlFor={fieldId('instructions')}>Delivery instructions (optional)</label>
          <p className="field-hint" id={`${fieldId('instructions')}-hint`}>
            For the delivery person, e.g. ring the bell twice, leave with the guard
          </p>
          <textarea
            id={fieldId('instructions')}
            name="instructions"
            rows={2}
            value={values.instructions}
            onChange={set('instructions')}
            aria-invalid={problems.instructions || characterCount(values.instructions, ADDRESS_LIMITS.instructions.max).over ? true : undefined}
            aria-describedby={described('instructions', 'hint', ADDRESS_LIMITS.instructions.max)}
          />
          {counter('instructions', ADDRESS_LIMITS.instructions.max)}
          {errorOf('instructions')}
        </div>
        {offerDefault && !isDefault && (
          <label className="check">
            <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} />
            Make this my default address
          </label>
        )}
        <div className="form-actions">
          <button type="submit" className="button" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : submitLabel}
          </button>
          {onCancel && (
            <button type="button" className="button secondary" onClick={onCancel}>
              Cancel
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}
