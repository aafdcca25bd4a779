/**
 * @module worker/index
 *
 * Worker entry: wiring only. Routes `/api/*` to the REST app, exports the queue consumer and
 * the RepoCoordinator Durable Object.
 */
import { Hono } from "hono";
import { createApiApp } from "./api/app";
import type { Env } from "./env";

export { RepoCoordinator } from "../durable-objects/repo-coordinator";

const app = new Hono<{ Bindings: Env }>();
app.route("/api", createApiApp());

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
