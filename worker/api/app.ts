/**
 * @module worker/api/app
 *
 * The REST API (`/api/*`): an OpenAPIHono app whose routes are thin adapters over
 * `worker/services/`. Every route declares its input and output as zod schemas, validated on
 * one path (worker/api/validation.ts) and published as OpenAPI 3.1 at `/api/openapi.json`, with
 * an interactive reference at `/api/docs`.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { restAuth } from "../auth/rest-auth";
import { auditTrail } from "./audit-trail";
import { auditRoutes } from "./routes/audit";
import { grantRoutes } from "./routes/grants";
import { sourceLinkApiRoutes } from "../auth/routes/source";
import type { ApiEnv } from "./env";
import { errorBody, onApiError } from "./errors";
import { docsRoutes } from "./openapi/docs";
import { openApiDocument } from "./openapi/document";
import { askRoutes } from "./routes/ask";
import { connectionRoutes } from "./routes/connections";
import { fileRoutes } from "./routes/files";
import { commitSearchRoutes, historyRoutes } from "./routes/history";
import { grepRoutes } from "./routes/grep";
import { repoRoutes } from "./routes/repos";
import { reviewRoutes } from "./routes/review";
import { suggestTestsRoutes } from "./routes/suggest-tests";
import { searchRoutes } from "./routes/search";
import { symbolRoutes } from "./routes/symbols";
import { moveRoutes, shardHealthRoutes } from "./routes/shards";
import { tokenRoutes } from "./routes/tokens";
import { repoWebhookRoutes, webhookRoutes } from "./routes/webhooks";
import { readTicks } from "../schedule/ticks";
import { defaultHook } from "./validation";
import { pullRequestWebhookRoutes } from "./routes/webhooks-pull-request";

export type { ApiEnv } from "./env";

/** Builds the REST app. Mounted at `/api` by worker/index.ts. */
export function createApiApp(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>({ defaultHook });
  app.onError(onApiError);
  // Public: the index of the API, health, and the API's own description.
  app.get("/", (c) =>
    c.json({
      name: "Codebase Copilot REST API",
      openapi: new URL("/api/openapi.json", c.req.url).href,
      docs: new URL("/api/docs", c.req.url).href,
      health: new URL("/api/health", c.req.url).href,
    }),
  );
  app.get("/health", (c) => c.json({ ok: true }));
  // The Cron Trigger's last and next tick (worker/schedule/ticks.ts), beside /health, which
  // stays free of storage calls: null before the first tick.
  app.get("/health/schedule", async (c) => c.json({ schedule: await readTicks(c.env, Date.now()) }));
  app.get("/openapi.json", (c) => c.json(openApiDocument(app), 200, { "cache-control": "no-cache" }));
  app.route("/docs", docsRoutes());
  // Signed by GitHub, not by a bearer token: before the auth middleware (worker/webhooks/).
  app.route("/webhooks/github/pull-request", pullRequestWebhookRoutes());
  // Code hosts authenticate deliveries by signature, not bearer token (worker/webhooks/handle.ts).
  app.route("/webhooks", webhookRoutes());
  // Everything registered below needs a bearer token or a web session (worker/auth/rest-auth.ts).
  // The audit trail wraps auth, so it also sees the refusals (worker/api/audit-trail.ts).
  app.use("*", auditTrail());
  app.use("*", restAuth());
  app.route("/tokens", tokenRoutes());
  app.route("/audit", auditRoutes());
  app.route("/grants", grantRoutes());
  app.route("/source-links", sourceLinkApiRoutes());
  app.route("/search", commitSearchRoutes());
  app.route("/search", searchRoutes());
  app.route("/grep", grepRoutes());
  app.route("/ask", askRoutes());
  app.route("/review", reviewRoutes());
  app.route("/suggest-tests", suggestTestsRoutes());
  app.route("/repos", repoRoutes());
  app.route("/repos", repoWebhookRoutes());
  app.route("/repos", fileRoutes());
  app.route("/repos", historyRoutes());
  app.route("/repos", symbolRoutes());
  app.route("/repos", moveRoutes());
  app.route("/health/shards", shardHealthRoutes());
  app.route("/connections", connectionRoutes());
  // Mounted with app.route(), this app's notFound is not consulted for /api/* paths that match
  // no route (the parent's text 404 would answer), so a last catch-all answers in JSON.
  const notFound = (c: Context<ApiEnv>) =>
    c.json(errorBody("not_found", `No route ${c.req.method} ${c.req.path}. See GET /api/docs for the API reference.`), 404);
  app.all("*", notFound);
  app.notFound(notFound);
  return app;
}
