// The offers of SPEC §1, worked out on the server only, in paise: one function for the cart, the checkout and the
// order, so all three show the same numbers. The rules and their numbers live in src/content/settings/store.yaml.
import type { CartSummaryDto, DiscountLineDto } from '../account-schemas.ts';
import { formatRupees } from '../../lib/money.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';

export type Offers = StoreSettingsData['offers'];

export interface PricingInput {
  /** Σ selling price × qty, in paise. */
  subtotalPaise: number;
  mrpTotalPaise: number;
  itemCount: number;
  /** The shopper has no order that is not cancelled. */
  firstOrder: boolean;
}

/** A percentage of an amount in paise, rounded half up to a whole paisa. */
const percentOf = (paise: number, percent: number) => Math.round((paise * percent) / 100);

export function priceSummary({ subtotalPaise, mrpTotalPaise, itemCount, firstOrder }: PricingInput, offers: Offers): CartSummaryDto {
  const discounts: DiscountLineDto[] = [];
  const allProducts: DiscountLineDto = {
    code: 'all-products',
    label: `${offers.allProductsDiscountPercent}% off all products`,
    amountPaise: percentOf(subtotalPaise, offers.allProductsDiscountPercent),
  };
  const firstOrderLine: DiscountLineDto = {
    code: 'first-order',
    label: `${offers.firstOrderDiscountPercent}% off your first order (up to ${formatRupees(offers.firstOrderDiscountMaxRupees * 100)})`,
    amountPaise: Math.min(percentOf(subtotalPaise, offers.firstOrderDiscountPercent), offers.firstOrderDiscountMaxRupees * 100),
  };
  // Never both: a first order takes whichever of the two is larger.
  const base = firstOrder && firstOrderLine.amountPaise > allProducts.amountPaise ? firstOrderLine : allProducts;
  if (base.amountPaise > 0) discounts.push(base);
  if (subtotalPaise >= offers.bestPriceThresholdRupees * 100) {
    const amountPaise = percentOf(subtotalPaise, offers.bestPriceDiscountPercent);
    if (amountPaise > 0) {
      discounts.push({
        code: 'best-price',
        label: `Extra ${offers.bestPriceDiscountPercent}% off orders of ${formatRupees(offers.bestPriceThresholdRupees * 100)} or more`,
        amountPaise,
      });
    }
  }
  const discountPaise = discounts.reduce((total, d) => total + d.amountPaise, 0);
  // An empty cart pays nothing, not a delivery fee.
  const deliveryPaise = offers.freeDelivery || itemCount === 0 ? 0 : offers.deliveryFeeRupees * 100;
  return {
    itemCount,
    subtotalPaise,
    mrpTotalPaise,
    savingsPaise: mrpTotalPaise - subtotalPaise,
    discounts,
    discountPaise,
    deliveryPaise,
    totalPaise: subtotalPaise - discountPaise + deliveryPaise,
  };
}
