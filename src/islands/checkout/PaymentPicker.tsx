// Checkout step 3: how the shopper pays: cash or UPI on delivery, or UPI now (issue 25: the order page then shows a
// UPI payment request for the exact amount; no card is taken online).
import type { PlaceOrderInput } from '../../server/order-schemas.ts';

export type PaymentMethod = PlaceOrderInput['paymentMethod'];

const METHODS: { value: PaymentMethod; label: string; hint: string }[] = [
  { value: 'cash', label: 'Cash on delivery', hint: 'Pay the delivery person in cash.' },
  { value: 'upi', label: 'UPI on delivery', hint: 'Scan the QR code the delivery person shows, with any UPI app.' },
  { value: 'upi_now', label: 'UPI — pay now', hint: 'Pay the exact amount from any UPI app right after you place the order.' },
];

export function PaymentPicker({ chosen, onChoose }: { chosen: PaymentMethod; onChoose: (method: PaymentMethod) => void }) {
  return (
    <section className="checkout-step" aria-labelledby="step-payment">
      <h2 id="step-payment">3. Payment</h2>
      <fieldset className="choices">
        <legend className="visually-hidden">Pay by</legend>
        {METHODS.map((method) => (
          <label key={method.value} className="choice">
            <input type="radio" name="payment" value={method.value} checked={chosen === method.value} onChange={() => onChoose(method.value)} />
            <span className="choice-text">
              <strong>{method.label}</strong>
              <span className="field-hint">{method.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
