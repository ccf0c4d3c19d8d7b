// The serviceable area (issue 25): which PIN codes the shop delivers to, and the fee, minimum order and slots of
// each (store.yaml's `area`). The public answer for one PIN, and the rules an order to an address is placed under.
import { belowMinimumText, groupOfPin, notDeliveredTo, withDeliveryFee } from '../../lib/delivery-area.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import type { Database } from '../db/client.ts';
import { ApiError } from '../errors.ts';
import type { DeliveryAreaDto } from '../order-schemas.ts';
import type { CartSummaryDto } from '../account-schemas.ts';
import { listSlots, type DeliveryRules } from './slots.ts';

export type Area = StoreSettingsData['area'];

/** What an order to a PIN inside the area is placed under. */
export interface AreaRules {
  /** The group's fee in paise; undefined: the offers' (free delivery or their fee). */
  deliveryFeePaise: number | undefined;
  minimumOrderPaise: number;
  /** The slots there: the group's own, else the shop's. */
  delivery: DeliveryRules;
}

/** The rules at a PIN, or null when it is outside the area. Without an `area` section every PIN is served. */
export function areaRulesFor(area: Area, delivery: DeliveryRules, pincode: string): AreaRules | null {
  if (!area) return { deliveryFeePaise: undefined, minimumOrderPaise: 0, delivery };
  const group = groupOfPin(pincode, area.groups);
  if (!group) return null;
  return {
    deliveryFeePaise: group.deliveryFeeRupees === undefined ? undefined : group.deliveryFeeRupees * 100,
    minimumOrderPaise: group.minimumOrderRupees * 100,
    delivery: group.slots ? { ...delivery, ...group.slots } : delivery,
  };
}

/** The refusal of an order (or a saved address) outside the area: 422, the shopper's words. */
export const outsideArea = (pincode: string) =>
  new ApiError(422, 'unprocessable', `${notDeliveredTo(pincode)} Please choose an address inside our delivery area.`);

export const belowMinimum = (pincode: string, minimumPaise: number, subtotalPaise: number) =>
  new ApiError(422, 'unprocessable', belowMinimumText(pincode, minimumPaise, subtotalPaise));

/** The delivery fee of the PIN's group in place of the offers' one; the total follows (an empty cart pays none). */
export const withAreaFee = (summary: CartSummaryDto, rules: AreaRules): CartSummaryDto => withDeliveryFee(summary, rules.deliveryFeePaise);

/** The public answer for one PIN: served or not, with the fee, the minimum order and the next slot one can choose. */
export async function deliveryAreaOf(
  db: Database,
  settings: { area?: Area; offers: StoreSettingsData['offers']; delivery: DeliveryRules },
  now: Date,
  pincode: string,
): Promise<DeliveryAreaDto> {
  const rules = areaRulesFor(settings.area, settings.delivery, pincode);
  if (!rules) {
    return { pincode, served: false, message: notDeliveredTo(pincode), deliveryFeePaise: null, minimumOrderPaise: null, nextSlot: null, timeZone: settings.delivery.timeZone };
  }
  const deliveryFeePaise = rules.deliveryFeePaise ?? (settings.offers.freeDelivery ? 0 : settings.offers.deliveryFeeRupees * 100);
  const { slots, timeZone } = await listSlots(db, rules.delivery, now);
  const next = slots.find((slot) => slot.unavailable === null);
  return {
    pincode,
    served: true,
    message: `We deliver to ${pincode}.`,
    deliveryFeePaise,
    minimumOrderPaise: rules.minimumOrderPaise,
    nextSlot: next ? { id: next.id, date: next.date, startsAt: next.startsAt, endsAt: next.endsAt } : null,
    timeZone,
  };
}
