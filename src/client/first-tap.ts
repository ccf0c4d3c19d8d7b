// The first tap and the first keystroke on a slow phone (issue 26). The page's other scripts arrive as a chain of
// small modules, each one round trip after the one importing it, and React after them: on a phone at 400 ms and
// 400 kbit/s the cart's own code starts 3–4 s after the page paints (measured: `npm run bench -- --slow-phone`).
// This file is loaded from <head> (Base.astro) on its own and imports nothing, so it runs about a round trip after the
// page arrives:
// - 'Add to cart' (or '+') pressed by a signed-in shopper before the island hydrates, held and made busy by the page's
//   inline script (HOLD_EARLY_ADD), is posted from here with plain fetch and its own Idempotency-Key, and the answer
//   draws the stepper's count. Presses made while it is on its way are counted on the form (data-more) and sent after
//   it, one post each: three impatient taps make three, none doubled. Anything else (no fresh token, offline, '−', a
//   refusal, no answer) is left to src/client/early-cart.ts, which has the session, the offline queue and the toasts.
// - A signed-in heart pressed before src/client/wishlist-toggle.ts has started is kept from here too (an add).
// - What is typed into the search box before it hydrates is asked for at once, and the first suggestions are drawn as
//   plain links beside the box until it wakes (SearchBox.tsx removes them and takes the answer).
// Other scripts read what this one leaves through the DOM and `window`, never by importing it: an import would put it
// in a shared chunk, one round trip further away. The names they share are FIRST_TAP below (tests/unit/first-tap.test.ts
// checks that the other side uses the same).

export const FIRST_TAP = {
  /** Set by HOLD_EARLY_ADD on a form whose press waits: '' for 'Add to cart', '1' or '-1' for a stepper's button. */
  pendingAttr: 'data-pending-add',
  /** Dispatched on the form, bubbling, when a press is held (src/lib/early-add-to-cart.ts PENDING_ADD_EVENT). */
  pendingEvent: 'kirana:pending-add',
  /** The Idempotency-Key of a post whose answer did not arrive: sent again with it, it still counts once. */
  keyAttr: 'data-pending-key',
  /** Presses made while the form was busy, each to be sent after the one on its way (an add of one more). */
  moreAttr: 'data-more',
  /** The form and its buttons marked busy (as src/lib/early-add-to-cart.ts marks them). */
  busyAttr: 'data-early-busy',
  /** Dispatched on document when an early post is answered (window.kiranaEarlyCart, kiranaEarlyAdds). */
  cartEvent: 'kirana:early-cart',
  /** Set by HOLD_EARLY_ADD on a heart's form whose press waits (a signed-in heart before wishlist-toggle.ts started). */
  pendingHeartAttr: 'data-pending-heart',
  /** Dispatched on document when a heart's press was answered here (kept in window.kiranaEarlyHearts) or handed over. */
  heartEvent: 'kirana:early-heart',
  /** The list of suggestions drawn before the search box hydrates. */
  suggestionsAttr: 'data-early-suggestions',
} as const;

/** The cart as the API answers it, as far as this file reads it. */
interface EarlyCart {
  lines: Array<{ productsId: number; productVariantsId: number; qty: number; name: string }>;
  summary: { itemCount: number };
}

/** A suggestion as the API answers it, as far as the drawn list needs it. */
interface EarlySuggestion {
  id: number | string;
  name: string;
  type: 'products' | 'Brand' | 'Category';
  pricePaise?: number;
}

declare global {
  interface Window {
    /** The cart the last post of this file was answered: src/stores/cart.ts shows it when it loads, and at each answer. */
    kiranaEarlyCart?: EarlyCart;
    /** The adds this file posted, until src/client/early-cart.ts says each in a toast, as the island would. */
    kiranaEarlyAdds?: Array<{ name: string }>;
    /** Products a heart kept from here, until src/client/wishlist-toggle.ts says so in a toast. */
    kiranaEarlyHearts?: number[];
    /** Suggestions asked for before the search box hydrated, by query (src/client/early-suggestions.ts takes them). */
    kiranaEarlySuggestions?: Map<string, Promise<EarlySuggestion[]>>;
  }
}

// The API's base as src/lib/api/base-url.ts resolves it (kept here: importing it would cost a round trip, see above).
const apiUrl = (path: string) => new URL(path, new URL((import.meta.env.PUBLIC_API_URL?.trim() || '/api/').replace(/\/?$/, '/'), location.origin));

/** The stored session when its token is good for a while yet; else null (early-cart.ts refreshes it). */
function freshSession(): { token: string; userId: number } | null {
  try {
    const token = localStorage.getItem('token');
    const userId = Number(localStorage.getItem('userid'));
    if (!token || !userId) return null;
    const claims = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() + 30_000 ? { token, userId } : null;
  } catch {
    return null;
  }
}

const newKey = () =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The pack select beside the form; none for a product sold in one size. */
const packSelectOf = (form: HTMLFormElement) => form.closest('.product-actions')?.querySelector<HTMLSelectElement>('select[data-pack-select]');

/** The pack chosen beside the form (its select); zeros for a product sold in one size. */
function packOf(form: HTMLFormElement) {
  const select = packSelectOf(form);
  const option = select?.selectedOptions[0];
  return { variantId: Number(select?.value) || 0, priceId: Number(option?.dataset.priceId) || 0 };
}

/** True while this file hands a press over: its own listener lets that event pass. */
let handingOver = false;

/** The press goes to src/client/early-cart.ts (with the key of a post that may have arrived), now or when it starts. */
function handOver(form: HTMLFormElement, value: string, key?: string) {
  form.setAttribute(FIRST_TAP.pendingAttr, value);
  if (key) form.setAttribute(FIRST_TAP.keyAttr, key);
  handingOver = true;
  try {
    form.dispatchEvent(new Event(FIRST_TAP.pendingEvent, { bubbles: true }));
  } finally {
    handingOver = false;
  }
}

/** The form takes presses again (src/lib/early-add-to-cart.ts clearEarlyBusy does the same for early-cart.ts). */
function clearBusy(form: HTMLFormElement) {
  form.removeAttribute(FIRST_TAP.busyAttr);
  form.removeAttribute('aria-busy');
  for (const button of form.querySelectorAll(`[${FIRST_TAP.busyAttr}]`)) {
    button.removeAttribute('aria-disabled');
    button.removeAttribute(FIRST_TAP.busyAttr);
  }
}

/** The answer drawn before the island hydrates: the stepper with the line's count, and the header's badge. */
function drawAnswer(form: HTMLFormElement, cart: EarlyCart, qty: number, focusWasHere: boolean) {
  // Drawn only as the island will first render it: with the pack the page came with. Another pack chosen means the
  // island is waking (a change wakes it) and draws that pack's stepper itself from the store; drawing it here would
  // make the page React hydrates differ from its first render, and React would draw the island again from scratch,
  // losing the choice.
  const packAsServed = packSelectOf(form)?.selectedOptions[0]?.defaultSelected !== false;
  if (form.closest('astro-island[ssr]') && qty > 0 && packAsServed) {
    for (const add of form.querySelectorAll<HTMLElement>('[data-cart-add]')) add.hidden = true;
    for (const stepper of form.querySelectorAll<HTMLElement>('[data-cart-stepper]')) stepper.hidden = false;
    for (const shown of form.querySelectorAll('[data-cart-qty]')) shown.textContent = String(qty);
    // 'Add to cart' had the focus and is hidden now: focus goes to the stepper's '+', as the island does.
    const focused = document.activeElement;
    if (focusWasHere && (!form.contains(focused) || focused?.closest('[hidden]'))) form.querySelector<HTMLElement>('[data-cart-stepper] [data-cart-more]')?.focus();
  }
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
    badge.textContent = String(cart.summary.itemCount);
    badge.hidden = cart.summary.itemCount === 0;
  }
}

/** Posts the held add, then one more for each press made meanwhile; the form stays busy until the last answer. */
async function sendAdds(form: HTMLFormElement, session: { token: string; userId: number }) {
  const productId = Number(form.dataset.productId);
  const { variantId, priceId } = packOf(form);
  for (;;) {
    const key = newKey();
    let cart: EarlyCart;
    try {
      const answer = await fetch(apiUrl('app/Carts'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        // The API prices the line itself (price is ignored); SPEC §4's product fetch before the post is left out here.
        body: JSON.stringify({
          productsId: productId,
          usersId: session.userId,
          productVariantsId: variantId,
          productVariantPriceId: priceId,
          packing: 'packaging',
          qty: 1,
        }),
      });
      // Refused (out of stock, too many, the session): early-cart.ts asks again and says why in the shop's words.
      if (!answer.ok) return handOver(form, '', answer.status === 401 ? undefined : key);
      cart = (await answer.json()) as EarlyCart;
    } catch {
      // No answer: it may have arrived; early-cart.ts sends it again with the same key (or keeps it while offline).
      return handOver(form, '', key);
    }
    // The last press answered: the form takes presses again, before the stores draw the answer (a line at its most
    // keeps '+' marked, src/client/cart-marks.ts); one counted meanwhile is sent now.
    const more = Number(form.getAttribute(FIRST_TAP.moreAttr)) || 0;
    if (more > 0) form.setAttribute(FIRST_TAP.moreAttr, String(more - 1));
    else {
      form.removeAttribute(FIRST_TAP.moreAttr);
      clearBusy(form);
    }
    const line = cart.lines.find((l) => l.productsId === productId && l.productVariantsId === variantId);
    // Before the stores hear of it (they may draw this stepper themselves, src/client/cart-marks.ts, hiding the button).
    const focusWasHere = form.contains(document.activeElement);
    window.kiranaEarlyCart = cart;
    (window.kiranaEarlyAdds ??= []).push({ name: line?.name ?? '' });
    document.dispatchEvent(new Event(FIRST_TAP.cartEvent));
    drawAnswer(form, cart, line?.qty ?? 0, focusWasHere);
    if (more <= 0) return;
  }
}

/** A held press: an add (or '+') with a fresh session and a connection is sent from here; the rest is handed over. */
function takeHeldPress(form: HTMLFormElement) {
  const value = form.getAttribute(FIRST_TAP.pendingAttr);
  // Taken already (the island or early-cart.ts), or a '−', which needs the line early-cart.ts knows.
  if (handingOver || value === null || value === '-1') return;
  const session = freshSession();
  if (!session || !navigator.onLine) return;
  form.removeAttribute(FIRST_TAP.pendingAttr);
  void sendAdds(form, session);
}

/**
 * A heart pressed before src/client/wishlist-toggle.ts started: always an add (the page does not know yet which are
 * kept, and keeping one kept already is fine), its answer the ids of every kept product, which the hearts show.
 */
async function sendHeart(form: HTMLFormElement, session: { token: string; userId: number }) {
  const productsId = Number(form.querySelector('[data-heart]')?.getAttribute('data-heart'));
  try {
    const answer = await fetch(apiUrl('app/Wishlists'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ productsId }),
    });
    if (!answer.ok) throw new Error(`Wishlist add answered HTTP ${answer.status}`);
    const { productIds } = (await answer.json()) as { productIds: number[] };
    for (const heart of document.querySelectorAll<HTMLElement>('button[data-heart]')) {
      const kept = productIds.includes(Number(heart.dataset.heart));
      heart.setAttribute('aria-pressed', String(kept));
      heart.title = kept ? 'Remove from wishlist' : 'Add to wishlist';
    }
    (window.kiranaEarlyHearts ??= []).push(productsId);
  } catch {
    // Refused or no answer: wishlist-toggle.ts presses it again when it starts (the add is safe to repeat).
    form.setAttribute(FIRST_TAP.pendingHeartAttr, '');
  } finally {
    clearBusy(form);
    document.dispatchEvent(new Event(FIRST_TAP.heartEvent));
  }
}

function takeHeldHeart(form: HTMLFormElement) {
  if (handingOver || !form.hasAttribute(FIRST_TAP.pendingHeartAttr)) return;
  const session = freshSession();
  // No fresh session, or offline: wishlist-toggle.ts takes it when it starts (and refreshes the session).
  if (!session || !navigator.onLine) return;
  form.removeAttribute(FIRST_TAP.pendingHeartAttr);
  void sendHeart(form, session);
}

function startFirstTap() {
  // Capture, on the window: before the event reaches early-cart.ts's listener on document.
  window.addEventListener(
    FIRST_TAP.pendingEvent,
    (event) => {
      if (!(event.target instanceof HTMLFormElement)) return;
      takeHeldPress(event.target);
      takeHeldHeart(event.target);
    },
    { capture: true },
  );
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[${FIRST_TAP.pendingAttr}]`)) takeHeldPress(form);
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[${FIRST_TAP.pendingHeartAttr}]`)) takeHeldHeart(form);
}

// --- The first suggestions -------------------------------------------------------------------------------------------

/** As src/lib/search-text.ts normalizes a query, in short: the search box looks the answer up by it. */
const normalized = (text: string) => text.replace(/\p{Cc}/gu, ' ').trim().toLowerCase().normalize('NFC').slice(0, 100).trim();

const SUGGESTION_KIND = { products: 'Product', Brand: 'Brand', Category: 'Category' } as const;
/** As src/lib/urls.ts urls.suggestion writes it. */
const pageOf = (s: EarlySuggestion) =>
  s.type === 'products' ? `/product-detail?id=${s.id}` : `/shop?type=${s.type === 'Brand' ? 'brand' : 'category'}&id=${encodeURIComponent(s.id)}`;
/** As src/lib/money.ts formatRupees writes a price: '₹45', '₹45.50'. */
const rupees = (paise: number) => {
  const digits = paise % 100 === 0 ? 0 : 2;
  return new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(paise / 100);
};

/**
 * The list's look, carried here rather than in every page's inline CSS (DESIGN.md: a product page under 15 KB on the
 * wire): a constructed style sheet, which the page's CSP allows as it allows any style set from a script.
 */
const SUGGESTIONS_STYLE = `
:has(> .early-suggestions) { position: relative; }
.early-suggestions {
  position: absolute; z-index: 60; left: 0; right: 0; margin: 4px 0 0; padding: 4px 0; list-style: none;
  background: #fff; border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 8px 24px rgb(20 48 31 / 0.16);
}
.early-suggestions a {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; min-height: 44px; padding: 6px 12px;
  color: var(--ink); text-decoration: none;
}
.early-suggestions a:hover, .early-suggestions a:focus-visible { background: var(--green-soft); }
.early-suggestions span { flex: none; font-size: 0.8rem; color: var(--muted); white-space: nowrap; }`;
let styled = false;

function drawSuggestions(input: HTMLInputElement, suggestions: EarlySuggestion[]) {
  if (!styled) {
    styled = true;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(SUGGESTIONS_STYLE);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  const island = input.closest('astro-island[ssr]');
  if (!island?.parentElement) return;
  island.parentElement.querySelector(`[${FIRST_TAP.suggestionsAttr}]`)?.remove();
  if (suggestions.length === 0) return;
  const list = document.createElement('ul');
  list.setAttribute(FIRST_TAP.suggestionsAttr, '');
  list.className = 'early-suggestions';
  list.setAttribute('aria-label', 'Suggestions');
  for (const s of suggestions) {
    const link = document.createElement('a');
    link.href = pageOf(s);
    link.textContent = s.name;
    const kind = document.createElement('span');
    kind.textContent = [s.pricePaise === undefined ? '' : rupees(s.pricePaise), SUGGESTION_KIND[s.type]].filter(Boolean).join(' · ');
    link.append(' ', kind);
    const item = document.createElement('li');
    item.append(link);
    list.append(item);
  }
  island.after(list);
}

function startFirstSuggestions() {
  const asked = (window.kiranaEarlySuggestions ??= new Map<string, Promise<EarlySuggestion[]>>());
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The longest query whose answer is drawn: a shorter one answering late does not replace it. */
  let drawn = '';
  const ask = (input: HTMLInputElement) => {
    const query = normalized(input.value);
    if (!query) {
      drawn = '';
      return void input.closest('astro-island')?.parentElement?.querySelector(`[${FIRST_TAP.suggestionsAttr}]`)?.remove();
    }
    let answer = asked.get(query);
    if (!answer) {
      answer = fetch(apiUrl(`app/Products/SearchProducts/${encodeURIComponent(query)}`)).then((r) => {
        if (!r.ok) throw new Error(`Suggestions for “${query}” answered HTTP ${r.status}`);
        return r.json() as Promise<EarlySuggestion[]>;
      });
      // Not taken by the box: a failure shows nothing here (the box reports its own).
      answer.catch(() => undefined);
      asked.set(query, answer);
      if (asked.size > 5) asked.delete(asked.keys().next().value!);
    }
    // Drawn while the box has not woken, for what is typed now or the start of it ('r' while 'rice' is on its way).
    void answer.then((suggestions) => {
      const now = normalized(input.value);
      if (!now.startsWith(query) || (drawn.length > query.length && now.startsWith(drawn))) return;
      drawn = query;
      drawSuggestions(input, suggestions.slice(0, 8));
    }, () => undefined);
  };
  document.addEventListener(
    'input',
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'combobox' || !input.closest('astro-island[ssr]')) return;
      // The first keystroke asks at once; the next wait for a pause, as the box does (src/stores/search.ts).
      if (asked.size === 0) return ask(input);
      clearTimeout(timer);
      timer = setTimeout(() => input.closest('astro-island[ssr]') && ask(input), 120);
    },
    { capture: true },
  );
  // Typed before this file arrived: asked for now.
  for (const input of document.querySelectorAll<HTMLInputElement>('astro-island[ssr] input[role="combobox"]')) if (input.value.trim()) ask(input);
}

// In a page (a unit test imports the names above without one).
if (typeof document !== 'undefined') {
  startFirstTap();
  startFirstSuggestions();
}
