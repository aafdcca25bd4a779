/** VAT rates by country (ISO 3166 alpha-2), in percent. */
const VAT_RATES_PERCENT: Record<string, number> = {
  DE: 19,
  FR: 20,
  NL: 21,
  IT: 22,
  ES: 21,
  AT: 20,
};

/** Who is buying, for tax purposes. */
export interface TaxSubject {
  countryCode: string;
  /** A validated EU VAT number makes a cross-border B2B sale reverse-charged. */
  vatNumber?: string;
}

export interface TaxLine {
  ratePercent: number;
  taxCents: number;
  reverseCharge: boolean;
}

/**
 * Computes VAT on a subtotal. Business customers in another EU country with a VAT number pay
 * no VAT (reverse charge: they account for it themselves); everyone else pays the rate of
 * their country. Tax is rounded half up to a whole cent.
 */
export function computeVat(subtotalCents: number, buyer: TaxSubject, sellerCountry: string): TaxLine {
  const rate = VAT_RATES_PERCENT[buyer.countryCode];
  if (rate === undefined) return { ratePercent: 0, taxCents: 0, reverseCharge: false };
  if (buyer.vatNumber && buyer.countryCode !== sellerCountry) {
    return { ratePercent: 0, taxCents: 0, reverseCharge: true };
  }
  return { ratePercent: rate, taxCents: Math.round((subtotalCents * rate) / 100), reverseCharge: false };
}

/** Checks the shape of an EU VAT number: two-letter country prefix, then 8 to 12 characters. */
export function looksLikeVatNumber(value: string): boolean {
  return /^[A-Z]{2}[0-9A-Z]{8,12}$/.test(value.replace(/\s+/g, ""));
}
