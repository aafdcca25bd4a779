/**
 * @module worker/api/app
 *
 * The REST API (`/api/*`): a Hono app whose routes are thin adapters over `worker/services/`.
 */
import { Hono } from "hono";
import type { Env } from "../env";
import { onApiError } from "./errors";

/** Hono environment of the REST app. */
export type ApiEnv = { Bindings: Env };

/** Builds the REST app. Mounted at `/api` by worker/index.ts. */
export function createApiApp(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.onError(onApiError);
  app.get("/health", (c) => c.json({ ok: true }));
  app.notFound((c) => c.json({ error: { code: "not_found", message: `No route ${c.req.method} ${c.req.path}. See README, "API reference".` } }, 404));
  return app;
}
