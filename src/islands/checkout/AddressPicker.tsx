// Checkout step 1: the delivery address. Saved addresses as radios (the default chosen first); 'Add a new address'
// and 'Edit' open the one address form (AddressForm.tsx) inline, in place.
import { useState } from 'react';
import { addressValues, type AddressValues } from '../../lib/address-form.ts';
import type { AddressDto, AddressInput } from '../../server/order-schemas.ts';
import { AddressForm } from './AddressForm.tsx';
import { AddressText } from './AddressText.tsx';

interface Props {
  addresses: AddressDto[];
  chosenId: number | null;
  onChoose: (id: number) => void;
  /** Save a new address; resolves with the list the API answered. */
  onAdd: (input: AddressInput) => Promise<AddressDto[]>;
  onUpdate: (id: number, input: AddressInput) => Promise<AddressDto[]>;
  /** Shown under the legend when Place order found no address chosen. */
  problem: string;
  /** A new address starts with these (the account's name and mobile). */
  newInitial?: AddressValues;
}

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; id: number };

export function AddressPicker({ addresses, chosenId, onChoose, onAdd, onUpdate, problem, newInitial }: Props) {
  // No address yet: the form is the step.
  const [editing, setEditing] = useState<Editing>(addresses.length === 0 ? { kind: 'new' } : { kind: 'none' });

  const addNew = async (input: AddressInput) => {
    const before = new Set(addresses.map((a) => a.id));
    const list = await onAdd(input);
    // The new address is the one the shopper just typed: choose it.
    const added = list.find((a) => !before.has(a.id));
    // One outside the delivery area is saved but not chosen: it says so in the list.
    if (added?.served) onChoose(added.id);
    setEditing({ kind: 'none' });
  };

  const update = async (id: number, input: AddressInput) => {
    await onUpdate(id, input);
    onChoose(id);
    setEditing({ kind: 'none' });
  };

  return (
    <section className="checkout-step" id="checkout-address" aria-labelledby="step-address">
      <h2 id="step-address">1. Delivery address</h2>
      {problem && (
        <p className="form-error" id="address-problem">
          {problem}
        </p>
      )}
      {addresses.length > 0 && (
        <fieldset className="choices" aria-describedby={problem ? 'address-problem' : undefined}>
          <legend className="visually-hidden">Deliver to</legend>
          {addresses.map((address) =>
            editing.kind === 'edit' && editing.id === address.id ? (
              <AddressForm
                key={address.id}
                legend={`Edit the address of ${address.name}`}
                submitLabel="Save address"
                initial={addressValues(address)}
                isDefault={address.isDefault}
                onSave={(input) => update(address.id, input)}
                onCancel={() => setEditing({ kind: 'none' })}
              />
            ) : (
              <div className="choice address-choice" key={address.id} data-testid="address-choice">
                <label>
                  <input
                    type="radio"
                    name="address"
                    value={address.id}
                    checked={chosenId === address.id}
                    // Outside the delivery area: kept, shown, not chosen (the server refuses it too).
                    disabled={!address.served}
                    onChange={() => onChoose(address.id)}
                  />
                  <AddressText address={address} />
                </label>
                <button type="button" className="link-button" onClick={() => setEditing({ kind: 'edit', id: address.id })}>
                  Edit<span className="visually-hidden"> the address of {address.name}, {address.line1}</span>
                </button>
              </div>
            ),
          )}
        </fieldset>
      )}
      {editing.kind === 'new' ? (
        <AddressForm
          legend="New delivery address"
          submitLabel="Save and deliver here"
          initial={newInitial}
          offerDefault={addresses.length > 0}
          onSave={addNew}
          onCancel={addresses.length > 0 ? () => setEditing({ kind: 'none' }) : undefined}
        />
      ) : (
        <button type="button" className="button secondary" onClick={() => setEditing({ kind: 'new' })}>
          Add a new address
        </button>
      )}
    </section>
  );
}
