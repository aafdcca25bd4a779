/**
 * @module worker/index
 *
 * Worker entry: wiring only. The OAuth provider (worker/auth/provider.ts) fronts every request:
 * it serves the OAuth metadata, registration and token endpoints and protects `/mcp` (OAuth
 * access tokens, or API tokens with the `search` scope). Everything else reaches `app`:
 * `/api/*` (REST, with its own bearer/session middleware), the sign-in pages and `/source/*`.
 * Also exports the RepoCoordinator Durable Object and the index queue consumer.
 */
import { pruneAudit } from "./services/audit";
import { Hono } from "hono";
import { createApiApp } from "./api/app";
import { authRoutes, fetchWithOAuth, type AuthWiring } from "./auth";
import type { Env } from "../kernel/env";
import { handleMcpRequest } from "./mcp/handler";
import { handleIndexBatch } from "../indexer/consumer";
import { createWebApp } from "../web";
import { runScheduledCheck } from "./schedule/run";
import { recordTick } from "./schedule/ticks";

export { RepoCoordinator } from "../durable-objects/repo-coordinator";

const app = new Hono<{ Bindings: Env }>();
app.route("/api", createApiApp());
app.route("/", authRoutes());
app.route("/", createWebApp());

const wiring: AuthWiring = { defaultHandler: app, mcpHandler: handleMcpRequest };

export default {
  fetch: (request, env, ctx) => fetchWithOAuth(request, env, ctx, wiring),
  // Index queue consumer (indexer/consumer.ts): one message per staged batch of a repo's job.
  queue: (batch, env) => handleIndexBatch(batch, env),
  // Cron Trigger (wrangler.toml [triggers]): re-index the git repos whose remote ref moved.
  // The tick is recorded first, so health shows it even while a long check runs.
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(
      recordTick(env, controller.cron, controller.scheduledTime)
        // Audit entries past AUDIT_RETENTION_DAYS go first (worker/services/audit.ts).
        .then(() => pruneAudit(env, controller.scheduledTime))
        .then(() => runScheduledCheck(env, controller.scheduledTime)),
    ),
} satisfies ExportedHandler<Env>;
