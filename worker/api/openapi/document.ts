/**
 * @module worker/api/openapi/document
 *
 * The OpenAPI 3.1 document of the REST API, generated from the zod schemas the routes validate
 * with (`@hono/zod-openapi`), then completed with what every authenticated route shares: its
 * security requirement with the scope the auth middleware enforces (worker/auth/route-scopes.ts,
 * so the document and the enforcement cannot disagree) and the error responses any route may
 * give (401, 403, 429 on searches, 500, and 400 when it takes input).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { ErrorCode } from "../../../kernel/errors";
import { requiredScopeFor } from "../../auth/route-scopes";
import { isSearchPath } from "../../auth/rate-limit";
import { SESSION_COOKIE } from "../../auth/sessions";
import type { ApiEnv } from "../env";

/**
 * Paths (relative to /api) that answer without a bearer token or session: the documentation,
 * health, and the webhook deliveries, which their signature authenticates (worker/webhooks/).
 */
export const PUBLIC_PATHS: readonly string[] = [
  "/",
  "/health",
  "/health/schedule",
  "/openapi.json",
  "/docs",
  "/docs/{asset}",
  "/webhooks/github",
  "/webhooks/gitlab",
  "/webhooks/github/pull-request",
];

/** The error body schema, `{error: {code, message, details?}}` (worker/api/errors.ts). */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe("Stable error code (kernel/errors.ts ErrorCode), e.g. repo_not_found."),
      message: z.string().describe("What went wrong and what to do next."),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "Error" });

/** A route's `responses` entry for an error status, listing the codes it may carry. */
export function errorDoc(description: string, ...codes: ErrorCode[]) {
  return { description: codes.length ? `${description} (${codes.join(", ")})` : description, content: { "application/json": { schema: ErrorBodySchema } } };
}

type Operation = { security?: unknown; responses?: Record<string, unknown>; parameters?: unknown[]; requestBody?: unknown };
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, Record<string, unknown>> };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
const errorRef = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

/** Adds security schemes, per-operation scopes and the shared error responses to `doc`. */
export function completeDocument<D extends Document>(doc: D): D {
  doc.components = { ...doc.components };
  doc.components.securitySchemes = {
    bearerAuth: {
      type: "http",
      scheme: "bearer",
      description: "An API token (POST /api/tokens), an OAuth access token, or the local admin token. Scopes: search < index < admin.",
    },
    webSession: {
      type: "apiKey",
      in: "cookie",
      name: SESSION_COOKIE,
      description: "The web session of GET /login; state-changing requests also need the x-csrf-token header.",
    },
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (PUBLIC_PATHS.includes(path)) continue;
    const concrete = path.replace(/\{[^}]+\}/g, "x");
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const scope = requiredScopeFor(method.toUpperCase(), concrete);
      op.security = [{ bearerAuth: [scope] }, { webSession: [scope] }];
      const responses = (op.responses ??= {});
      if ((op.parameters?.length || op.requestBody) && !responses["400"])
        responses["400"] = errorRef("Invalid input: the message names the field (invalid_input)");
      responses["401"] ??= errorRef("No or invalid credentials (unauthorized)");
      responses["403"] ??= errorRef(`Needs the "${scope}" scope, or a CSRF token with a web session (forbidden)`);
      if (isSearchPath(concrete)) responses["429"] ??= errorRef("Too many searches; see Retry-After (rate_limited)");
      responses["500"] ??= errorRef("Unexpected failure; details are in the server log (internal)");
    }
  }
  return doc;
}

/** The finished OpenAPI 3.1 document of `app` (the REST app, served under /api). */
export function openApiDocument(app: OpenAPIHono<ApiEnv>) {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Codebase Copilot REST API",
      version: "1",
      description:
        "Code search over indexed git repositories. Every route except the documentation and /health needs a bearer token or a web session; each operation lists the scope it needs.",
    },
    servers: [{ url: "/api" }],
  });
  return completeDocument(doc as unknown as Document);
}
