import type { Pool } from "pg";
import { LruCache } from "../cache/lru-cache.js";
import { withTransaction } from "../db/pool.js";
import { HttpError } from "../http/errors.js";
import { encodeCursor, type PageCursor } from "../http/pagination.js";
import { findByIdempotencyKey } from "../util/idempotency.js";
import { orderTotalCents, type CreateOrderInput } from "./order-validation.js";

/** An order as the API returns it. */
export interface Order {
  id: number;
  customerId: number;
  status: "draft" | "placed" | "paid" | "shipped" | "cancelled";
  currency: string;
  totalCents: number;
  createdAt: string;
}

/** One page of orders and the cursor of the next page (null on the last page). */
export interface OrderPage {
  orders: Order[];
  nextCursor: string | null;
}

/** Orders: create, list page by page, cancel. Reads of single orders are cached. */
export class OrderService {
  private readonly cache = new LruCache<Order>(5000, 120_000);

  constructor(private readonly pool: Pool) {}

  /**
   * Creates an order and its items in one transaction. With an idempotency key, a retry of
   * the same request returns the order created the first time.
   */
  async createOrder(customerId: number, input: CreateOrderInput, idempotencyKey?: string): Promise<Order> {
    if (idempotencyKey) {
      const existing = await findByIdempotencyKey(this.pool, customerId, idempotencyKey);
      if (existing) return existing;
    }
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query(
        `INSERT INTO orders (customer_id, status, currency, total_cents, idempotency_key)
         VALUES ($1, 'placed', $2, $3, $4) RETURNING *`,
        [customerId, input.currency, orderTotalCents(input.items), idempotencyKey ?? null],
      );
      for (const item of input.items) {
        await client.query(
          "INSERT INTO order_items (order_id, sku, quantity, unit_cents) VALUES ($1, $2, $3, $4)",
          [rows[0].id, item.sku, item.quantity, item.unitCents],
        );
      }
      await client.query("SELECT pg_notify('orderly_jobs', $1)", [JSON.stringify({ type: "charge_invoice", orderId: rows[0].id })]);
      return toOrder(rows[0]);
    });
  }

  /** Lists a customer's orders newest first, one keyset page at a time. */
  async listOrders(customerId: number, limit: number, cursor: PageCursor | null): Promise<OrderPage> {
    const params: unknown[] = [customerId, limit + 1];
    let where = "customer_id = $1";
    if (cursor) {
      where += " AND (created_at, id) < ($3, $4)";
      params.push(cursor.createdAt, cursor.id);
    }
    const { rows } = await this.pool.query(
      `SELECT * FROM orders WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const orders = rows.slice(0, limit).map(toOrder);
    const last = orders[orders.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null;
    return { orders, nextCursor };
  }

  /** Returns one order, from the cache when it is fresh. */
  async getOrder(customerId: number, orderId: number): Promise<Order> {
    const key = `${customerId}:${orderId}`;
    const cached = this.cache.get(key, Date.now());
    if (cached) return cached;
    const { rows } = await this.pool.query("SELECT * FROM orders WHERE id = $1 AND customer_id = $2", [orderId, customerId]);
    if (rows.length === 0) throw new HttpError(404, "not_found", `Order ${orderId} does not exist.`);
    const order = toOrder(rows[0]);
    this.cache.set(key, order, Date.now());
    return order;
  }

  /** Cancels an order unless it has shipped; cancelling twice is a no-op. */
  async cancelOrder(customerId: number, orderId: number): Promise<Order> {
    const order = await this.getOrder(customerId, orderId);
    if (order.status === "cancelled") return order;
    if (order.status === "shipped") {
      throw new HttpError(409, "order_shipped", "A shipped order cannot be cancelled; create a return instead.");
    }
    const { rows } = await this.pool.query(
      "UPDATE orders SET status = 'cancelled', updated_at = now() WHERE id = $1 RETURNING *",
      [orderId],
    );
    this.cache.invalidate(`${customerId}:${orderId}`);
    return toOrder(rows[0]);
  }
}

function toOrder(row: Record<string, any>): Order {
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    status: row.status,
    currency: row.currency,
    totalCents: Number(row.total_cents),
    createdAt: new Date(row.created_at).toISOString(),
  };
}
