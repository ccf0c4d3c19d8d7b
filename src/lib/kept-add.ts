// The product a signed-out shopper tried to add, kept across the trip to sign in or register (SPEC §3's `proid` key,
// issue 24): the product, the pack size they chose and its price id. The store (src/stores/auth.ts) and the press held
// before an island hydrates (src/lib/early-add-to-cart.ts) write it the same way; the first signed-in page adds it.

/** SPEC §3's localStorage key. */
export const KEPT_ADD_KEY = 'proid';

/** An intent older than this is a shopper who gave up: signing in later must not fill their cart by surprise. */
export const KEPT_ADD_MINUTES = 30;

export interface KeptAdd {
  productId: number;
  /** The chosen pack size and its price id; absent for a product sold in one size. */
  variantId?: number | undefined;
  priceId?: number | undefined;
  /** When it was kept (ms since the epoch). */
  at: number;
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

export const encodeKeptAdd = (kept: KeptAdd): string => JSON.stringify(kept);

/** What the key holds; a bare product id (how `proid` was kept before packs were) is read too, as kept now. */
export function decodeKeptAdd(text: string): KeptAdd | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value === 'number') return positive(value) ? { productId: value, at: Date.now() } : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { productId, variantId, priceId, at } = value as Record<string, unknown>;
  const id = positive(productId);
  if (!id || typeof at !== 'number') return undefined;
  return { productId: id, variantId: positive(variantId), priceId: positive(priceId), at };
}

/** Still what the shopper wants: kept within the last KEPT_ADD_MINUTES. */
export const isFreshKeptAdd = (kept: KeptAdd, now = Date.now()) => now - kept.at <= KEPT_ADD_MINUTES * 60_000 && kept.at <= now + 60_000;

/**
 * The choice of an add-to-cart form (ProductActions.tsx) read from the page: the product on the form, the pack from
 * the select beside it. For a press before the island has hydrated, which leaves for /login on its own.
 */
export function keptAddOfForm(form: HTMLFormElement, now = Date.now()): KeptAdd | undefined {
  const productId = positive(Number(form.dataset.productId));
  if (!productId) return undefined;
  const select = form.closest('.product-actions')?.querySelector<HTMLSelectElement>('select[data-pack-select]');
  const option = select?.selectedOptions[0];
  return {
    productId,
    variantId: positive(Number(option?.value)),
    priceId: positive(Number(option?.dataset.priceId)),
    at: now,
  };
}
