// A saved address as the shopper reads it: name and type, mobile, the address on one line, the delivery
// instructions, and a plain word when the shop does not deliver there.
import { ADDRESS_TYPE_LABELS, addressLine } from '../../lib/address-form.ts';
import { notDeliveredTo } from '../../lib/delivery-area.ts';
import type { AddressDto } from '../../server/order-schemas.ts';

export function AddressText({ address }: { address: AddressDto }) {
  return (
    <span className="address-text">
      <span>
        <strong>{address.name}</strong>
        <span className="badge type-badge">{ADDRESS_TYPE_LABELS[address.addressType]}</span>
        {address.isDefault && <span className="badge">Default</span>}
      </span>
      <span>{addressLine(address)}</span>
      <span>Mobile: {address.phone}</span>
      {address.instructions && <span className="address-instructions">Instructions: {address.instructions}</span>}
      {!address.served && <span className="form-error not-served">{notDeliveredTo(address.pincode)}</span>}
    </span>
  );
}
