import { HttpError } from "../http/errors.js";

/** One line of a new order as the client sends it. */
export interface OrderItemInput {
  sku: string;
  quantity: number;
  unitCents: number;
}

/** Body of `POST /orders`. */
export interface CreateOrderInput {
  currency: string;
  items: OrderItemInput[];
}

const SKU_PATTERN = /^[A-Z0-9][A-Z0-9-]{2,31}$/;
const SUPPORTED_CURRENCIES = new Set(["EUR", "USD", "GBP", "CHF"]);
const MAX_ITEMS_PER_ORDER = 100;

/**
 * Checks a create-order body and returns it typed. Throws 422 `validation_failed` naming the
 * first field that is wrong.
 */
export function validateCreateOrder(body: unknown): CreateOrderInput {
  if (typeof body !== "object" || body === null) {
    throw new HttpError(422, "validation_failed", "Body must be a JSON object.");
  }
  const { currency, items } = body as Record<string, unknown>;
  if (typeof currency !== "string" || !SUPPORTED_CURRENCIES.has(currency)) {
    throw new HttpError(422, "validation_failed", "currency must be one of EUR, USD, GBP, CHF.");
  }
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS_PER_ORDER) {
    throw new HttpError(422, "validation_failed", `items must hold 1 to ${MAX_ITEMS_PER_ORDER} lines.`);
  }
  items.forEach((item, i) => {
    if (!SKU_PATTERN.test(String(item?.sku))) {
      throw new HttpError(422, "validation_failed", `items[${i}].sku is not a valid SKU.`);
    }
    if (!Number.isInteger(item.quantity) || item.quantity < 1) {
      throw new HttpError(422, "validation_failed", `items[${i}].quantity must be a positive integer.`);
    }
    if (!Number.isInteger(item.unitCents) || item.unitCents < 0) {
      throw new HttpError(422, "validation_failed", `items[${i}].unitCents must be a non-negative integer.`);
    }
  });
  return { currency, items: items as OrderItemInput[] };
}

/** Sum of quantity x unit price over all lines, in minor units. */
export function orderTotalCents(items: OrderItemInput[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0);
}
