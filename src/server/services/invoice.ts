// The tax invoice of a delivered order (issue 25): the seller from store.yaml (legal name, address, GSTIN), the
// customer and delivery address, the lines, discounts, delivery and totals exactly as the order kept them, and the GST
// the prices include, worked out here in paise so every page and print shows the same numbers.
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import type { InvoiceDto } from '../after-delivery-schemas.ts';
import type { Database } from '../db/client.ts';
import { conflict } from '../errors.ts';
import { orderNotFound, orderOf } from './orders.ts';

export const INVOICE_NOT_YET = 'The invoice is ready once the order is delivered.';

/** The GST a price that includes it at `percent` holds: price × rate / (100 + rate), to the nearest paisa. */
export function includedTaxPaise(pricePaise: number, percent: number): number {
  return Math.round((pricePaise * percent) / (100 + percent));
}

/** An order's number as an invoice's: one order, one invoice. */
export const invoiceNumberOf = (orderId: number) => `INV-${String(orderId).padStart(6, '0')}`;

export async function invoiceOf(
  db: Database,
  store: Pick<StoreSettingsData, 'delivery' | 'address' | 'invoice'>,
  userId: number,
  orderId: number,
): Promise<InvoiceDto> {
  const order = await orderOf(db, { delivery: store.delivery }, userId, orderId);
  if (!order) throw orderNotFound(orderId);
  const delivered = order.status === 'delivered' ? order.timeline.findLast((e) => e.status === 'delivered') : undefined;
  if (!delivered) throw conflict(INVOICE_NOT_YET);
  const { gstPercent } = store.invoice;
  const { summary, address: a } = order;
  const taxPaise = includedTaxPaise(summary.totalPaise, gstPercent);
  return {
    number: invoiceNumberOf(order.id),
    orderId: order.id,
    date: delivered.at,
    timeZone: order.timeZone,
    seller: {
      legalName: store.invoice.legalName,
      // The contact address may open with the company's name: the invoice names it once.
      addressLines: [...store.address.lines.filter((line) => line !== store.invoice.legalName), `${store.address.city}, ${store.address.state} ${store.address.pincode}`],
      gstin: store.invoice.gstin,
    },
    customer: {
      name: a.name,
      phone: a.phone,
      addressLines: [a.line1, a.line2, a.landmark, `${a.city}, ${a.state} ${a.pincode}`].filter(Boolean),
    },
    lines: order.lines.map((l) => ({
      name: l.name,
      pack: l.variantName,
      qty: l.qty,
      unitPricePaise: l.unitPricePaise,
      totalPaise: l.lineTotalPaise,
      taxPaise: includedTaxPaise(l.lineTotalPaise, gstPercent),
    })),
    subtotalPaise: summary.subtotalPaise,
    discounts: summary.discounts.map((d) => ({ label: d.label, amountPaise: d.amountPaise })),
    deliveryPaise: summary.deliveryPaise,
    totalPaise: summary.totalPaise,
    gstPercent,
    taxPaise,
    taxableValuePaise: summary.totalPaise - taxPaise,
  };
}
