/**
 * @module worker/api/openapi/route-kit
 *
 * Small pieces every route definition uses: a JSON response entry, the `{id}` path parameter,
 * and registration of a route whose last path parameter is the rest of the URL (a file path),
 * which OpenAPI spells `{path}` and Hono `*`.
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { repoIdSchema } from "../../services/files";
import type { ApiEnv } from "../env";

/** A `responses` entry with a JSON body. */
export function jsonResponse<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** The `{id}` of `/repos/{id}/...`. */
export const repoIdParams = z.object({ id: repoIdSchema.describe('Repo id, e.g. "hono" (GET /api/repos lists them).') });

/** `{id}` plus the file path that is the rest of the URL, percent-encoded per segment. */
export const repoFileParams = repoIdParams.extend({
  path: z.string().describe('File path inside the repo as indexed, e.g. "src/index.ts"; the rest of the URL.'),
});

/**
 * Registers `route` (path ending in `/{path}`) so Hono matches the rest of the URL with `*`;
 * the document shows `{path}` with `docParams`. The handler reads the path itself.
 */
export function withRestPath<R extends RouteConfig>(app: OpenAPIHono<ApiEnv>, route: R, docParams: z.ZodObject): R {
  if (!route.path.endsWith("/{path}")) throw new Error(`withRestPath: ${route.path} does not end in /{path}`);
  app.openAPIRegistry.registerPath({ ...route, request: { ...route.request, params: docParams } });
  return { ...route, path: route.path.replace(/\/\{path\}$/, "/*"), hide: true };
}
