// /wishlist, signed in: the kept products with their price, pack sizes, Add to cart and Remove. An island: the list is
// the shopper's own, fetched after the page loads. Signed out, the page's own HTML says to sign in (no island work).
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { browserWishlist } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import { productActionsData } from '../lib/product-actions.ts';
import { DEFAULT_PRODUCT_IMAGE, urls } from '../lib/urls.ts';
import { pictureProps } from '../lib/picture.ts';
import type { WishlistDto } from '../server/order-schemas.ts';
import { $userId } from '../stores/auth.ts';
import { ErrorBoundary } from './ErrorFallback.tsx';
import ProductActions from './ProductActions.tsx';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; items: WishlistDto['items'] };

function Wishlist() {
  const userId = useStore($userId);
  const [view, setView] = useState<Loaded>({ state: 'loading' });
  const [busy, setBusy] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [removed, setRemoved] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!userId) return;
    browserWishlist
      .list(userId)
      .then(({ items }) => setView({ state: 'ready', items }))
      .catch((error: unknown) => {
        console.error('Cannot load the wishlist', error);
        setView({ state: 'failed', message: apiErrorMessage(error, 'Your wishlist could not be loaded.') });
      });
  }, [userId]);

  if (!userId) return null;
  if (view.state === 'loading') return <p role="status">Loading your wishlist…</p>;
  if (view.state === 'failed')
    return (
      <p className="notice form-error" role="alert">
        {view.message}
      </p>
    );

  const remove = async (productId: number, name: string) => {
    setBusy(productId);
    setProblem('');
    try {
      const { productIds } = await browserWishlist.remove(productId);
      const kept = new Set(productIds);
      setView({ state: 'ready', items: view.items.filter((item) => kept.has(item.product.id)) });
      setRemoved(`Removed ${name} from your wishlist.`);
      // The removed card took focus with it: the list's heading takes it.
      headingRef.current?.focus();
    } catch (error) {
      console.error('Cannot remove from the wishlist', error);
      setProblem(apiErrorMessage(error, `Could not remove ${name}.`));
    } finally {
      setBusy(null);
    }
  };

  const { items } = view;
  return (
    <>
      <p role="status" className="wishlist-status">
        {removed}
      </p>
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
            {items.map(({ product }) => (
              <li key={product.id} className="card wishlist-card" data-testid="wishlist-item" data-product-id={product.id}>
                <a href={urls.product(product.id)} tabIndex={-1} aria-hidden="true">
                  <img {...pictureProps(product.imageUrl ?? DEFAULT_PRODUCT_IMAGE, 'card')} alt="" width="400" height="400" loading="lazy" />
                </a>
                <div className="wishlist-body">
                  <h3>
                    <a href={urls.product(product.id)}>{product.name}</a>
                  </h3>
                  <a className="muted" href={urls.brand(product.brandId)}>
                    {product.brandName}
                  </a>
                  <ProductActions product={productActionsData(product)} />
                  <button
                    type="button"
                    className="button secondary"
                    onClick={() => void remove(product.id, product.name)}
                    disabled={busy !== null}
                  >
                    Remove<span className="visually-hidden"> {product.name} from your wishlist</span>
                  </button>
                </div>
              </li>
            ))}
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
