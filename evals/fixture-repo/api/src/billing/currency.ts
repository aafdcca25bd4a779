/** Number of minor units per major unit, by ISO 4217 code. JPY has no minor unit. */
const MINOR_UNITS: Record<string, number> = { EUR: 100, USD: 100, GBP: 100, CHF: 100, JPY: 1 };

/**
 * Converts an amount in minor units between currencies with a rate (units of `to` per unit
 * of `from`). Rounds with banker's rounding (half to even) so that many conversions do not
 * drift in one direction.
 */
export function convertMinorUnits(amount: number, from: string, to: string, rate: number): number {
  const major = amount / MINOR_UNITS[from];
  const converted = major * rate * MINOR_UNITS[to];
  return roundHalfEven(converted);
}

/** Rounds to the nearest integer; exact halves go to the even neighbour. */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Formats minor units for people, e.g. `formatMoney(123456, "EUR")` gives `€1,234.56`. */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(amount / MINOR_UNITS[currency]);
}
