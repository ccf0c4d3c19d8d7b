// /wishlist, signed in: the kept products with their price, pack sizes, Add to cart and Remove (with Undo, as the cart
// has; issue 24). An island: the list is the shopper's own, fetched after the page loads. Signed out, the page's own
// HTML says to sign in (no island work).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { browserWishlist } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { productActionsData } from '../lib/product-actions.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { pictureProps } from '../lib/picture.ts';
import { inShownOrder } from '../lib/shown-order.ts';
import type { WishlistDto } from '../server/order-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';
import { FoodMark } from './FoodMark.tsx';
import ProductActions from './ProductActions.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; items: WishlistDto['items'] };
type Item = WishlistDto['items'][number];

const keyOf = (item: Item) => String(item.product.id);

function Wishlist() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [busy, setBusy] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [removed, setRemoved] = useState<Item | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  /** The products' order as shown (src/lib/shown-order.ts): one put back by Undo returns to its place. */
  const shownOrder = useRef<string[]>([]);

  const shown = (items: Item[]): Loaded => {
    const { list, known } = inShownOrder(items, keyOf, shownOrder.current);
    shownOrder.current = known;
    return { state: 'ready', items: list };
  };

  useEffect(() => {
    if (!userId) return;
    browserWishlist
      .list(userId)
      .then(({ items }) => setView(shown(items)))
      .catch((error: unknown) => {
        console.error('Cannot load the wishlist', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your wishlist could not be loaded.') });
      });
  }, [userId]);

  // The removed card took focus with it: the Undo button takes it over.
  useEffect(() => {
    if (removed) undoRef.current?.focus();
  }, [removed]);

  if (!userId) return null;
  if (view.state === 'loading') return <p role="status">Loading your wishlist…</p>;
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message}
      </p>
    );

  const remove = async (item: Item) => {
    const { id, name } = item.product;
    setBusy(id);
    setProblem('');
    try {
      const { productIds } = await browserWishlist.remove(id);
      const kept = new Set(productIds);
      setView(shown(view.items.filter((other) => kept.has(other.product.id))));
      setRemoved(item);
    } catch (error) {
      console.error('Cannot remove from the wishlist', error);
      setProblem(apiErrorMessage(error, `Could not remove ${name}.`));
    } finally {
      setBusy(null);
    }
  };

  /** Keeps the product again, back where it stood; then the list's heading takes focus from the gone Undo button. */
  const undo = async (item: Item) => {
    const { id, name } = item.product;
    setBusy(id);
    setProblem('');
    try {
      const { productIds } = await browserWishlist.add(id);
      const kept = new Set(productIds);
      setView(shown([...view.items, item].filter((other) => kept.has(other.product.id))));
      setRemoved(null);
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      console.error('Cannot put back on the wishlist', error);
      setProblem(apiErrorMessage(error, `Could not put ${name} back.`));
    } finally {
      setBusy(null);
    }
  };

  const { items } = view;
  return (
    <>
      <div role="status" className="wishlist-status" aria-live="polite">
        {removed && (
          <p>
            Removed {removed.product.name} from your wishlist.{' '}
            <button ref={undoRef} type="button" className="link-button" onClick={() => void undo(removed)} disabled={busy !== null}>
              Undo
            </button>
          </p>
        )}
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {items.length === 0 ? (
        <div className="notice" data-testid="wishlist-empty">
          <h2 ref={headingRef} tabIndex={-1}>
            Your wishlist is empty
          </h2>
          <p>Tap the heart on any product to keep it here for later.</p>
          <a className="button" href={urls.hot()}>
            Find something you like
          </a>
        </div>
      ) : (
        <>
          <h2 ref={headingRef} tabIndex={-1} className="wishlist-heading">
            {items.length} {items.length === 1 ? 'product' : 'products'} kept
          </h2>
          <ul className="grid wishlist-grid">
            {items.map((item) => {
              const { product } = item;
              return (
                <li key={product.id} className="card wishlist-card" data-testid="wishlist-item" data-product-id={product.id}>
                  <a href={urls.product(product.id)} tabIndex={-1} aria-hidden="true">
                    <img {...pictureProps(product.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'card')} alt="" width="400" height="400" loading="lazy" />
                  </a>
                  <div className="wishlist-body">
                    <h3>
                      <FoodMark foodType={product.foodType} /> <a href={urls.product(product.id)}>{product.name}</a>
                    </h3>
                    <a className="muted" href={urls.brand(product.brandId)}>
                      {product.brandName}
                    </a>
                    <ProductActions product={productActionsData(product)} />
                    <button
                      type="button"
                      className="button secondary"
                      onClick={() => void remove(item)}
                      disabled={busy !== null}
                    >
                      Remove<span className="visually-hidden"> {product.name} from your wishlist</span>
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </>
  );
}

export default function WishlistPage() {
  return (
    <ErrorBoundary>
      <Wishlist />
    </ErrorBoundary>
  );
}
