// Typed wishlist calls (the contract: src/server/order-schemas.ts): the hearts' ids, the kept products, add, remove.
import type { KyInstance } from 'ky';
import type { WishlistDto, WishlistIdsDto } from '../../server/order-schemas.ts';
import type { SessionContext } from './session-hooks.ts';

const fresh: { context: SessionContext } = { context: { fresh: true } };

export function wishlistCalls(api: KyInstance) {
  return {
    /** Which products the shopper keeps: one call fills every heart on a page. */
    ids: () => api.get('app/Wishlists/ProductIds', fresh).json<WishlistIdsDto>(),
    list: (userId: string) => api.get(`app/Wishlists/GetWishlistByUser/${encodeURIComponent(userId)}`, fresh).json<WishlistDto>(),
    add: (productsId: number) => api.post('app/Wishlists', { json: { productsId }, ...fresh }).json<WishlistIdsDto>(),
    remove: (productId: number) => api.delete(`app/Wishlists/${productId}`, fresh).json<WishlistIdsDto>(),
  };
}
