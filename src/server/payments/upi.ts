// The UPI payment request of a pay-now order (issue 25): a `upi://pay` link, as NPCI's UPI linking specification
// writes it, that a phone's UPI app opens with the payee, amount and note filled in, and the same link as a QR code
// for a shopper on a computer. The QR is drawn here, on the server, as SVG: the page shows it with no JavaScript.
import QRCode from 'qrcode';

export interface UpiPayee {
  /** The grocer's UPI ID (VPA), e.g. kirana@okhdfcbank. */
  upiId: string;
  /** The name the shopper's UPI app shows as who they pay. */
  payeeName: string;
}

export interface UpiPaymentRequest {
  /** The `upi://pay?…` link: what the phone's button opens and the QR code holds. */
  link: string;
  /** The link as a QR code, an SVG document (no script, no external reference). */
  qrSvg: string;
  upiId: string;
  payeeName: string;
  /** The exact amount in rupees with two decimals, as the link carries it: '258.00'. */
  amount: string;
  /** The note the shopper's UPI app shows and the grocer's bank statement keeps: names the order. */
  note: string;
  /** The shop's reference of the payment (tr): the same for one order, so a grocer can match it. */
  reference: string;
}

/** Paise as UPI's `am` wants it: rupees, a dot, exactly two decimals, no grouping ('25800' → '258.00'). */
export function upiAmount(paise: number): string {
  if (!Number.isInteger(paise) || paise <= 0) throw new RangeError(`not a payable amount: ${paise} paise`);
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}

/** The note of an order's payment: the shop and the order number, what a grocer looks for in the bank's list. */
export const upiNote = (shopName: string, orderId: number) => `${shopName} order ${orderId}`;

/** The reference of an order's payment: letters and digits only, which every UPI app accepts. */
export const upiReference = (orderId: number) => `KIRANA${String(orderId).padStart(8, '0')}`;

/**
 * The link, each value percent-encoded (a space is %20, never '+', which some UPI apps show as a plus; '@' and '&'
 * in a name are encoded too, so a payee name cannot add a parameter).
 */
export function upiLink(payee: UpiPayee, amount: string, note: string, reference: string): string {
  const params: Array<[string, string]> = [
    ['pa', payee.upiId],
    ['pn', payee.payeeName],
    ['am', amount],
    ['cu', 'INR'],
    ['tn', note],
    ['tr', reference],
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

/** The request for one order: the link, its QR code and the same facts written out (to type them in by hand). */
export async function upiPaymentRequest(
  payee: UpiPayee,
  order: { id: number; totalPaise: number },
  shopName: string,
): Promise<UpiPaymentRequest> {
  const amount = upiAmount(order.totalPaise);
  const note = upiNote(shopName, order.id);
  const reference = upiReference(order.id);
  const link = upiLink(payee, amount, note, reference);
  // Error correction M: a phone's camera reads it off a screen at a glance; the margin is the 4 modules scanners want.
  const qrSvg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  return { link, qrSvg, upiId: payee.upiId, payeeName: payee.payeeName, amount, note, reference };
}
