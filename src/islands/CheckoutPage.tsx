// /checkout: an island because all of it is the shopper's own (cart, addresses, slots), fetched after the page loads
// (the page's HTML is the same for everyone), and placing the order is a call that must happen exactly once.
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { browserAccount, browserCart, browserCheckout } from '../client/api.ts';
import { apiError, apiErrorMessage, apiStatus } from '../lib/api/errors.ts';
import { EMPTY_ADDRESS } from '../lib/address-form.ts';
import { belowMinimumText, keptPincode, withDeliveryFee } from '../lib/delivery-area.ts';
import { formatRupees } from '../lib/money.ts';
import { orderKeyStore } from '../lib/order-key.ts';
import { urls } from '../lib/urls.ts';
import type { CartDto, UserDto } from '../server/account-schemas.ts';
import type { AddressDto, AddressInput, DeliveryAreaDto, PlaceOrderInput, SlotListDto } from '../server/order-schemas.ts';
import { $user, $userId } from '../stores/auth.ts';
import { $cartCount, showCart } from '../stores/cart.ts';
import { $couponCode, removeCoupon } from '../stores/coupon.ts';
import { AddressPicker } from './checkout/AddressPicker.tsx';
import { MoneySummary } from './checkout/MoneySummary.tsx';
import { PaymentPicker, type PaymentMethod } from './checkout/PaymentPicker.tsx';
import { PhoneVerify } from './checkout/PhoneVerify.tsx';
import { SlotPicker } from './checkout/SlotPicker.tsx';
import { ErrorBoundary } from './ErrorFallback.tsx';
import { FoodMark } from './FoodMark.tsx';

export const NEEDS_CONNECTION = 'You are offline. Placing an order needs a connection: it will be possible once you are back online.';

/** Whether the browser has a connection, following the `online` and `offline` events. */
function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

interface Ready {
  cart: CartDto;
  addresses: AddressDto[];
  slotList: SlotListDto;
  /** The shopper as the API has them now: whether their number is verified decides if they may order yet. */
  me: UserDto;
}

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | ({ state: 'ready' } & Ready);

/** sessionStorage, or nothing when the browser refuses it (the key store then keeps the key in memory). */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The default address, else the newest, among those inside the delivery area. */
const defaultAddressId = (addresses: AddressDto[]) => {
  const served = addresses.filter((a) => a.served);
  return (served.find((a) => a.isDefault) ?? served[0])?.id ?? null;
};

const isOpen = (slotList: SlotListDto, id: string | null) => slotList.slots.some((slot) => slot.id === id && slot.unavailable === null);

function Checkout() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [addressId, setAddressId] = useState<number | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [payment, setPayment] = useState<PaymentMethod>('cash');
  const [problems, setProblems] = useState<{ address?: string; slot?: string }>({});
  // A new object each time, so the same message said again takes focus again (the effect below).
  const [alert, setAlert] = useState({ text: '' });
  const [placing, setPlacing] = useState(false);
  // An order is never queued (issue 26): offline, Place order waits, and says it needs a connection.
  const online = useOnline();
  // The state above reaches the button only on the next render: a second click of a double click comes sooner.
  const placingNow = useRef(false);
  const alertRef = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => orderKeyStore(sessionStore()), []);

  useEffect(() => {
    if (!userId) return;
    Promise.all([browserCart.cart(userId, $couponCode.get() || undefined), browserCheckout.addresses(userId), browserCheckout.slots(), browserAccount.me()])
      .then(([cart, { addresses }, slotList, me]) => {
        setView({ state: 'ready', cart: showCart(cart), addresses, slotList, me });
        setAddressId(defaultAddressId(addresses));
      })
      .catch((error: unknown) => {
        console.error('Cannot load the checkout', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'The checkout could not be loaded.') });
      });
  }, [userId]);

  useEffect(() => {
    if (alert.text) alertRef.current?.focus();
  }, [alert]);

  // The chosen address's part of the delivery area (issue 25): its fee, its minimum order and its slots.
  const chosenPincode = view.state === 'ready' ? view.addresses.find((a) => a.id === addressId)?.pincode : undefined;
  const [area, setArea] = useState<DeliveryAreaDto | null>(null);
  useEffect(() => {
    setArea(null);
    if (!chosenPincode) return;
    let current = true;
    Promise.all([browserCheckout.deliveryArea(chosenPincode), browserCheckout.slots(chosenPincode)])
      .then(([answer, slots]) => {
        if (!current) return;
        setArea(answer);
        setView((now) => (now.state === 'ready' ? { ...now, slotList: slots } : now));
        setSlotId((id) => (isOpen(slots, id) ? id : null));
      })
      .catch((error: unknown) => console.error('Cannot read the delivery area', error));
    return () => {
      current = false;
    };
  }, [chosenPincode]);

  if (view.state === 'loading') return <p role="status">Loading your checkout…</p>;
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message}
      </p>
    );

  const { cart, addresses, slotList, me } = view;
  const ready = (change: Partial<Ready>) => setView((now) => (now.state === 'ready' ? { ...now, ...change } : now));

  const saveAddresses = (list: AddressDto[]) => {
    ready({ addresses: list });
    setProblems({ ...problems, address: undefined });
    return list;
  };
  const addAddress = async (input: AddressInput) => saveAddresses((await browserCheckout.addAddress(input)).addresses);
  const updateAddress = async (id: number, input: AddressInput) => saveAddresses((await browserCheckout.updateAddress(id, input)).addresses);

  /** After a 409 (a slot filled up, a product ran out): what the server says now. */
  async function refreshSlotsAndCart() {
    if (!userId) return;
    try {
      const [fresh, slots] = await Promise.all([browserCart.cart(userId, $couponCode.get() || undefined), browserCheckout.slots(chosenPincode)]);
      ready({ cart: showCart(fresh), slotList: slots });
      if (!isOpen(slots, slotId)) setSlotId(null);
    } catch (error) {
      console.error('Cannot refresh the checkout', error);
    }
  }

  const showAlert = (text: string) => setAlert({ text });

  function verified(user: UserDto) {
    ready({ me: user });
    $user.set(user);
    showAlert('Thank you: your number is verified. You can place your order now.');
  }

  /** Focus the first control of a step that needs the shopper (after React has drawn its message). */
  function focusStep(step: 'checkout-address' | 'checkout-slot') {
    requestAnimationFrame(() => {
      const section = document.getElementById(step);
      const target =
        section?.querySelector<HTMLElement>('input:checked:not(:disabled)') ??
        section?.querySelector<HTMLElement>('input:not(:disabled), select, button');
      target?.focus();
    });
  }

  async function placeOrder() {
    if (placingNow.current) return;
    if (!navigator.onLine) return showAlert(NEEDS_CONNECTION);
    setAlert({ text: '' });
    const missing = {
      address: addressId === null ? 'Choose a delivery address, or add one.' : undefined,
      slot: slotId === null ? 'Choose a delivery slot.' : undefined,
    };
    setProblems(missing);
    if (missing.address) return focusStep('checkout-address');
    if (missing.slot || addressId === null || slotId === null) return focusStep('checkout-slot');

    // The kept coupon goes with the order only while the server says it applies; it prices it again regardless.
    const body: PlaceOrderInput = { addressId, slotId, paymentMethod: payment, ...(cart.coupon?.applies ? { couponCode: cart.coupon.code } : {}) };
    placingNow.current = true;
    setPlacing(true);
    try {
      const order = await browserCheckout.placeOrder(body, keys.keyFor(body));
      keys.clear();
      $cartCount.set(0);
      // Used: the next cart starts without it.
      if (body.couponCode) removeCoupon();
      window.location.assign(urls.orderComplete(order.id));
      return; // still 'placing' until the next page shows: no second press
    } catch (error) {
      console.error('Cannot place the order', error);
      const status = apiStatus(error);
      if (status === 403 && apiError(error)?.code === 'phone_unverified') {
        ready({ me: { ...me, phoneVerified: false } });
        showAlert(apiErrorMessage(error, 'Please verify your mobile number first.'));
      } else if (status === 409 && apiError(error)?.code.startsWith('coupon_')) {
        // The coupon stopped applying since the cart (used meanwhile, expired): nothing else changes, and the next
        // press orders without it, at the total now shown.
        showAlert(
          `${apiErrorMessage(error, 'Your coupon no longer applies.')} Your order was not placed: check the new total and press Place order again to order without the coupon.`,
        );
        await refreshSlotsAndCart();
      } else if (status === 409) {
        showAlert(apiErrorMessage(error, 'Your order could not be placed.'));
        await refreshSlotsAndCart();
      } else if (status === 422) {
        // The key was used for another body (the order changed in another tab): the next press is a new order.
        keys.renew(body);
        showAlert('Your order changed while it was being placed. Please check it and press Place order again.');
      } else if (status === 404) {
        showAlert(apiErrorMessage(error, 'That address is no longer saved. Please choose another.'));
        const { addresses: list } = await browserCheckout.addresses(userId ?? '0').catch(() => ({ addresses }));
        ready({ addresses: list });
        setAddressId(defaultAddressId(list));
      } else {
        // The key stays: pressing again after a lost answer returns the same order, never a second one.
        showAlert(apiErrorMessage(error, 'Your order could not be placed.'));
      }
    }
    placingNow.current = false;
    setPlacing(false);
  }

  const outOfStock = cart.lines.filter((line) => !line.inStock);
  // Out-of-stock lines are left out of the order and its total (issue 24); with nothing else, there is nothing to order.
  const nothingToOrder = outOfStock.length === cart.lines.length;

  return (
    <div className="checkout">
      <div className="checkout-alert" role="alert" tabIndex={-1} ref={alertRef} data-testid="checkout-alert">
        {alert.text && <p className="form-error">{alert.text}</p>}
      </div>
      {cart.lines.length === 0 ? (
        <div className="notice" data-testid="checkout-empty">
          <h2>Your cart is empty</h2>
          <p>Add some groceries before you check out.</p>
          <a className="button" href={urls.hot()}>
            Start shopping
          </a>
        </div>
      ) : (
        <div className="checkout-layout">
          <div className="checkout-steps">
            {!me.phoneVerified && <PhoneVerify phone={me.phone} onVerified={verified} />}
            <AddressPicker
              addresses={addresses}
              chosenId={addressId}
              onChoose={(id) => {
                setAddressId(id);
                setProblems({ ...problems, address: undefined });
              }}
              onAdd={addAddress}
              onUpdate={updateAddress}
              problem={problems.address ?? ''}
              newInitial={{ ...EMPTY_ADDRESS, name: me.name, phone: me.phone, pincode: keptPincode(me.pincode) }}
            />
            <SlotPicker
              slotList={slotList}
              chosenId={slotId}
              onChoose={(id) => {
                setSlotId(id);
                setProblems({ ...problems, slot: undefined });
              }}
              problem={problems.slot ?? ''}
            />
            <PaymentPicker chosen={payment} onChoose={setPayment} />
          </div>
          <section className="checkout-summary cart-summary" aria-labelledby="step-summary" data-testid="checkout-summary">
            <h2 id="step-summary">4. Your order</h2>
            <ul className="summary-lines">
              {cart.lines.map((line) => (
                <li key={line.id}>
                  <span>
                    <FoodMark foodType={line.foodType} /> {line.qty} × {line.name}
                    {line.variantName ? ` (${line.variantName})` : ''}
                    {!line.inStock && <strong className="form-error"> Out of stock</strong>}
                    {!line.inStock && <span className="fine-print"> (not in this order)</span>}
                  </span>
                  <span>{line.inStock ? formatRupees(line.lineTotalPaise) : '—'}</span>
                </li>
              ))}
            </ul>
            <MoneySummary summary={area?.served ? withDeliveryFee(cart.summary, area.deliveryFeePaise ?? undefined) : cart.summary} />
            {area?.served && area.minimumOrderPaise !== null && cart.summary.subtotalPaise < area.minimumOrderPaise && (
              <p className="form-error" data-testid="below-minimum">
                {belowMinimumText(area.pincode, area.minimumOrderPaise, cart.summary.subtotalPaise)}
              </p>
            )}
            {cart.coupon && !cart.coupon.applies && (
              <p className="form-error coupon-stale" data-testid="checkout-coupon">
                Coupon {cart.coupon.code} is not applied: {cart.coupon.reason?.message} <a href={urls.cart()}>Change it in your cart</a>
              </p>
            )}
            {nothingToOrder && (
              <p className="form-error" id="checkout-blocked">
                Nothing in your cart is in stock right now. <a href={urls.cart()}>Change your cart</a> to place an order.
              </p>
            )}
            {!online && (
              <p className="form-error" id="checkout-offline" role="status" data-testid="checkout-offline">
                {NEEDS_CONNECTION}
              </p>
            )}
            {!me.phoneVerified && (
              <p className="fine-print" id="checkout-verify-first">
                Verify your mobile number above to place the order.
              </p>
            )}
            <button
              type="button"
              className="button place-order"
              disabled={placing || nothingToOrder || !me.phoneVerified || !online}
              aria-describedby={
                nothingToOrder ? 'checkout-blocked' : !me.phoneVerified ? 'checkout-verify-first' : !online ? 'checkout-offline' : undefined
              }
              onClick={() => void placeOrder()}
            >
              {placing ? 'Placing your order…' : 'Place order'}
            </button>
            <p className="fine-print">Pay {payment === 'upi' ? 'by UPI' : 'in cash'} when your groceries arrive.</p>
          </section>
        </div>
      )}
    </div>
  );
}

export default function CheckoutPage() {
  return (
    <ErrorBoundary>
      <Checkout />
    </ErrorBoundary>
  );
}
