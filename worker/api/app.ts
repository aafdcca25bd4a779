/**
 * @module worker/api/app
 *
 * The REST API (`/api/*`): a Hono app whose routes are thin adapters over `worker/services/`.
 */
import { Hono, type Context } from "hono";
import { restAuth } from "../auth/rest-auth";
import { sourceLinkApiRoutes } from "../auth/routes/source";
import type { Env } from "../../kernel/env";
import type { Caller } from "../services/context";
import { onApiError } from "./errors";
import { askRoutes } from "./routes/ask";
import { fileRoutes } from "./routes/files";
import { grepRoutes } from "./routes/grep";
import { repoRoutes } from "./routes/repos";
import { reviewRoutes } from "./routes/review";
import { searchRoutes } from "./routes/search";
import { symbolRoutes } from "./routes/symbols";
import { tokenRoutes } from "./routes/tokens";
import { pullRequestWebhookRoutes } from "./routes/webhooks-pull-request";

/**
 * Hono environment of the REST app. `caller` is set by the auth middleware for every route
 * registered after it: `serviceContext(c.env, c.var.caller)`.
 */
export type ApiEnv = { Bindings: Env; Variables: { caller: Caller } };

/** Builds the REST app. Mounted at `/api` by worker/index.ts. */
export function createApiApp(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.onError(onApiError);
  app.get("/health", (c) => c.json({ ok: true }));
  // Signed by GitHub, not by a bearer token: before the auth middleware.
  app.route("/webhooks/github/pull-request", pullRequestWebhookRoutes());
  // Everything registered below needs a bearer token or a web session (worker/auth/rest-auth.ts).
  app.use("*", restAuth());
  app.route("/tokens", tokenRoutes());
  app.route("/source-links", sourceLinkApiRoutes());
  app.route("/search", searchRoutes());
  app.route("/grep", grepRoutes());
  app.route("/ask", askRoutes());
  app.route("/review", reviewRoutes());
  app.route("/repos", repoRoutes());
  app.route("/repos", fileRoutes());
  app.route("/repos", symbolRoutes());
  // Mounted with app.route(), this app's notFound is not consulted for /api/* paths that match
  // no route (the parent's text 404 would answer), so a last catch-all answers in JSON.
  const notFound = (c: Context<ApiEnv>) => c.json({ error: { code: "not_found", message: `No route ${c.req.method} ${c.req.path}. See README, "API reference".` } }, 404);
  app.all("*", notFound);
  app.notFound(notFound);
  return app;
}
