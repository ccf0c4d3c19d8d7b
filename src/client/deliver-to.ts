// The header's "Deliver to 560034 · next slot today 6–8 pm" (issue 25). Pages are cached for everyone, so the PIN
// comes from this browser: the one given on /deliver-to (localStorage), else the signed-in account's (the stored
// user). The answer is kept a few minutes, since the next slot moves as the day goes on; a call without the API client (./load-api.ts, at PUBLIC_API_URL).
import { DELIVERY_PIN_KEY, deliverToLabel, type KeptDeliveryPin } from '../lib/delivery-area.ts';
import { getWithoutClient } from './load-api.ts';

/** How long a kept answer is shown before it is asked for again. */
const FRESH_MS = 5 * 60_000;

function read<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

/** Keeps an answer for this browser's pages (and the other tabs'). */
export function keepDeliveryPin(answer: Omit<KeptDeliveryPin, 'checkedAt'>) {
  const kept: KeptDeliveryPin = { pincode: answer.pincode, served: answer.served, nextSlot: answer.nextSlot, timeZone: answer.timeZone, checkedAt: Date.now() };
  try {
    localStorage.setItem(DELIVERY_PIN_KEY, JSON.stringify(kept));
  } catch {
    // Private mode: this page still shows it.
  }
  show(kept);
}

function show(kept: KeptDeliveryPin) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-deliver-to]')) {
    link.textContent = deliverToLabel(kept);
    link.dataset.served = String(kept.served);
  }
}

export function startDeliverTo() {
  const kept = read<KeptDeliveryPin>(DELIVERY_PIN_KEY);
  const pincode = kept?.pincode ?? read<{ pincode?: string | null }>('user')?.pincode;
  if (!pincode) return;
  if (kept?.pincode === pincode) show(kept);
  if (kept?.pincode === pincode && Date.now() - kept.checkedAt < FRESH_MS) return;
  getWithoutClient<KeptDeliveryPin>(`app/DeliveryArea/${encodeURIComponent(pincode)}`)
    .then(keepDeliveryPin)
    .catch(() => {});
}
