// Prices travel as paise (integers) and are shown in rupees, the Indian way (₹1,23,456).
const whole = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const withPaise = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

export function formatRupees(paise: number): string {
  return paise % 100 === 0 ? whole.format(paise / 100) : withPaise.format(paise / 100);
}

/** An amount to pay, always with its paise ('₹258.00'): what a UPI app will ask for, to the paisa. */
export const formatExactRupees = (paise: number): string => withPaise.format(paise / 100);

/** Whole percent saved against the MRP; 0 when there is no MRP or no saving. */
export function percentOff(pricePaise: number, mrpPaise: number): number {
  if (mrpPaise <= 0 || pricePaise >= mrpPaise) return 0;
  return Math.floor(((mrpPaise - pricePaise) * 100) / mrpPaise);
}

/** SPEC §2: the MRP is shown struck through when it is non-zero and differs from the price. */
export function showsMrp(pricePaise: number, mrpPaise: number): boolean {
  return mrpPaise > 0 && mrpPaise !== pricePaise;
}

/** A unit price the way packs print it: '₹120/kg', '₹85.50/l', '₹5/piece'. */
export function formatUnitPrice(unit: { paise: number; per: string }): string {
  return `${formatRupees(unit.paise)}/${unit.per}`;
}

/** Rupees as typed in a form ('45', '45.5', '₹45.50', '1,200') in paise; undefined when it is no amount. */
export function paiseFromRupees(text: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/^₹\s*/, '').replaceAll(',', ''));
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Paise as a form's rupees field shows them: '45', '45.50'. */
export const rupeesField = (paise: number): string => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));
