// A saved address as the shopper reads it: name, mobile, then the address on one line.
import { addressLine } from '../../lib/address-form.ts';
import type { AddressDto } from '../../server/order-schemas.ts';

export function AddressText({ address }: { address: AddressDto }) {
  return (
    <span className="address-text">
      <span>
        <strong>{address.name}</strong>
        {address.isDefault && <span className="badge">Default</span>}
      </span>
      <span>{addressLine(address)}</span>
      <span>Mobile: {address.phone}</span>
    </span>
  );
}
