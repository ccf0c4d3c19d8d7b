// The address book on /myaccount: an island because the addresses are the shopper's own (fetched after the page
// loads) and it edits them in place with the checkout's own address form (checkout/AddressForm.tsx).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { addressValues } from '../lib/address-form.ts';
import { browserCheckout } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { ADDRESS_LIMITS } from '../lib/form-limits.ts';
import type { AddressDto, AddressListDto } from '../server/order-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { AddressForm } from './checkout/AddressForm.tsx';
import { AddressText } from './checkout/AddressText.tsx';
import { ErrorBoundary } from './ErrorFallback.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; addresses: AddressDto[] };
type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; id: number } | { kind: 'remove'; id: number };

function Book() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!userId) return;
    browserCheckout
      .addresses(userId)
      .then(({ addresses }) => setView({ state: 'ready', addresses }))
      .catch((error: unknown) => {
        console.error('Cannot load the addresses', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your addresses could not be loaded.') });
      });
  }, [userId]);

  useEffect(() => {
    if (editing.kind === 'remove') confirmRef.current?.focus();
  }, [editing]);

  /** Every address call answers the whole list: it replaces what is shown. */
  const show = (list: AddressListDto, message: string) => {
    setView({ state: 'ready', addresses: list.addresses });
    setEditing({ kind: 'none' });
    setStatus(message);
    setProblem('');
    headingRef.current?.focus();
  };

  async function act(call: () => Promise<AddressListDto>, done: string, failure: string) {
    setBusy(true);
    setStatus('');
    setProblem('');
    try {
      show(await call(), done);
    } catch (error) {
      console.error(failure, error);
      setProblem(apiErrorMessage(error, failure));
    } finally {
      setBusy(false);
    }
  }

  if (view.state === 'loading') return <p role="status">Loading your addresses…</p>;
  if (view.state === 'failed')
    return (
      <p className="form-error" role="alert">
        {view.message}
      </p>
    );

  const { addresses } = view;
  const full = addresses.length >= ADDRESS_LIMITS.perUser;
  return (
    <div data-testid="address-book">
      <h3 ref={headingRef} tabIndex={-1} className="visually-hidden">
        Saved addresses
      </h3>
      <p role="status" className="form-ok">
        {status}
      </p>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      {addresses.length === 0 && editing.kind !== 'new' && <p>No saved addresses yet. Add one to check out faster.</p>}
      <ul className="address-book">
        {addresses.map((address) => (
          <li key={address.id} data-testid="saved-address">
            {editing.kind === 'edit' && editing.id === address.id ? (
              <AddressForm
                legend={`Edit the address of ${address.name}`}
                submitLabel="Save address"
                initial={addressValues(address)}
                isDefault={address.isDefault}
                onSave={async (input) => show(await browserCheckout.updateAddress(address.id, input), 'Address saved.')}
                onCancel={() => setEditing({ kind: 'none' })}
              />
            ) : (
              <>
                <AddressText address={address} />
                {editing.kind === 'remove' && editing.id === address.id ? (
                  <div className="address-actions" role="group" aria-label="Remove this address?">
                    <span>Remove this address?</span>
                    <button
                      ref={confirmRef}
                      type="button"
                      className="link-button"
                      disabled={busy}
                      onClick={() => void act(() => browserCheckout.removeAddress(address.id), 'Address removed.', 'The address could not be removed.')}
                    >
                      Yes, remove
                    </button>
                    <button type="button" className="link-button" onClick={() => setEditing({ kind: 'none' })}>
                      Keep it
                    </button>
                  </div>
                ) : (
                  <div className="address-actions">
                    <button type="button" className="link-button" disabled={busy} onClick={() => setEditing({ kind: 'edit', id: address.id })}>
                      Edit<span className="visually-hidden"> the address of {address.name}, {address.line1}</span>
                    </button>
                    <button type="button" className="link-button" disabled={busy} onClick={() => setEditing({ kind: 'remove', id: address.id })}>
                      Remove<span className="visually-hidden"> the address of {address.name}, {address.line1}</span>
                    </button>
                    {!address.isDefault && (
                      <button
                        type="button"
                        className="link-button"
                        disabled={busy}
                        onClick={() => void act(() => browserCheckout.makeDefault(address.id), 'Default address changed.', 'The default address could not be changed.')}
                      >
                        Make <span className="visually-hidden">the address of {address.name}, {address.line1} </span>default
                      </button>
                    )}
                  </div>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {editing.kind === 'new' ? (
        <AddressForm
          legend="New address"
          submitLabel="Save address"
          offerDefault={addresses.length > 0}
          onSave={async (input) => show(await browserCheckout.addAddress(input), 'Address added.')}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : full ? (
        <p>You can keep up to {ADDRESS_LIMITS.perUser} addresses. Remove one to add another.</p>
      ) : (
        <button type="button" className="button secondary" onClick={() => setEditing({ kind: 'new' })}>
          Add a new address
        </button>
      )}
    </div>
  );
}

export default function AddressBook() {
  return (
    <ErrorBoundary>
      <Book />
    </ErrorBoundary>
  );
}
