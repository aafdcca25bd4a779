/**
 * @module worker/api/env
 *
 * The Hono environment of the REST app, in its own module so that the app (worker/api/app.ts)
 * and its routes both import it without importing each other.
 */
import type { Env } from "../../kernel/env";
import type { Caller } from "../services/context";

/**
 * Hono environment of the REST app. `caller` is set by the auth middleware for every route
 * registered after it: `serviceContext(c.env, c.var.caller)`.
 */
export type ApiEnv = { Bindings: Env; Variables: { caller: Caller } };
