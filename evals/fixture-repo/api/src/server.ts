import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { loadConfig } from "./config.js";
import { authenticate } from "./auth/middleware.js";
import { TokenBucketLimiter } from "./http/rate-limit.js";
import { sendError, HttpError } from "./http/errors.js";
import { createPool } from "./db/pool.js";
import { OrderService } from "./orders/order-service.js";
import { routeOrders } from "./orders/order-routes.js";

const config = loadConfig();
const pool = createPool(config.databaseUrl);
const orders = new OrderService(pool);
const limiter = new TokenBucketLimiter(config.rateLimitBurst, config.rateLimitRefillPerSecond);

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url === "/healthz") {
    res.writeHead(200).end("ok");
    return;
  }
  const customer = await authenticate(req, config, pool);
  const verdict = limiter.take(String(customer.id), Date.now());
  if (!verdict.allowed) {
    res.setHeader("Retry-After", Math.ceil(verdict.retryAfterMs / 1000));
    throw new HttpError(429, "rate_limited", "Too many requests; retry after the Retry-After delay.");
  }
  if (req.url?.startsWith("/orders")) return routeOrders(req, res, customer, orders);
  throw new HttpError(404, "not_found", `No route for ${req.method} ${req.url}`);
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => sendError(res, err));
});

server.listen(config.port, () => {
  console.log(`orderly api listening on :${config.port}`);
});

process.on("SIGTERM", () => {
  server.close(() => void pool.end());
});
