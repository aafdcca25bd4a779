/**
 * @module worker/auth/routes
 *
 * Root-level routes of authentication: /authorize, /login, /logout, /auth/session,
 * /oauth/callback/github and /source/*. Mounted by worker/index.ts.
 */
import { Hono } from "hono";
import type { Env } from "../../../kernel/env";
import { authorizeRoutes } from "./authorize";
import { loginRoutes } from "./login";
import { sourcePageRoutes } from "./source";

export { sourceLinkApiRoutes } from "./source";

/** All root-level auth routes in one Hono app. */
export function authRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.route("/", authorizeRoutes());
  app.route("/", loginRoutes());
  app.route("/", sourcePageRoutes());
  return app;
}
