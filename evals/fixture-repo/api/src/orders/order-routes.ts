import type { IncomingMessage, ServerResponse } from "node:http";
import { requireScope, type Customer } from "../auth/middleware.js";
import { HttpError } from "../http/errors.js";
import { clampLimit, decodeCursor } from "../http/pagination.js";
import type { OrderService } from "./order-service.js";
import { validateCreateOrder } from "./order-validation.js";

const MAX_BODY_BYTES = 64 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "body_too_large", "Request body is over 64 KiB.");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "invalid_json", "Request body is not valid JSON.");
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Routes `/orders` requests to the order service. */
export async function routeOrders(req: IncomingMessage, res: ServerResponse, customer: Customer, orders: OrderService): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const cancel = url.pathname.match(/^\/orders\/(\d+)\/cancel$/);

  if (req.method === "GET" && url.pathname === "/orders") {
    requireScope(customer, "orders:read");
    const page = await orders.listOrders(customer.id, clampLimit(url.searchParams.get("limit")), decodeCursor(url.searchParams.get("cursor")));
    return sendJson(res, 200, page);
  }
  if (req.method === "POST" && url.pathname === "/orders") {
    requireScope(customer, "orders:write");
    const input = validateCreateOrder(await readJson(req));
    const key = req.headers["idempotency-key"];
    const order = await orders.createOrder(customer.id, input, typeof key === "string" ? key : undefined);
    return sendJson(res, 201, order);
  }
  if (req.method === "POST" && cancel) {
    requireScope(customer, "orders:write");
    return sendJson(res, 200, await orders.cancelOrder(customer.id, Number(cancel[1])));
  }
  throw new HttpError(404, "not_found", `No route for ${req.method} ${url.pathname}`);
}
