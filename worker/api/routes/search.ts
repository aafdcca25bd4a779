/**
 * @module worker/api/routes/search
 *
 *   GET  /api/search?q=&repo=&repos=a,b&k=&mode=&language=&path_prefix=&include_tests=&per_file_cap=&channels=&explain=
 *   POST /api/search  {q, repo?, repos?, k?, mode?, language?, path_prefix?, include_tests?, per_file_cap?, channels?, explain?}
 *
 * `query` is accepted for `q` (the MCP name); `repo` and `repos` together are refused.
 *
 * Both answer `{results, confidence, stats}` (worker/search/types.ts). POST takes a JSON body,
 * for long queries such as a pasted bug report.
 */
import { Hono } from "hono";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { search, type SearchInput } from "../../services/search";
import type { ApiEnv } from "../app";

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean));
const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
function bool(name: string, v: string | undefined): boolean | undefined {
  if (v === undefined || v === "") return undefined;
  if (["true", "1", "yes"].includes(v)) return true;
  if (["false", "0", "no"].includes(v)) return false;
  throw new CodeSearchError("invalid_input", `${name}: expected true or false, got "${v}"`);
}

/** Turns GET query parameters into the shape `searchInput` validates. */
export function queryToInput(q: Record<string, string>): SearchInput {
  return {
    q: q.q ?? q.query ?? "",
    repo: q.repo || undefined,
    repos: list(q.repos),
    k: num(q.k),
    mode: (q.mode || undefined) as SearchInput["mode"],
    language: q.language || undefined,
    path_prefix: q.path_prefix || undefined,
    include_tests: bool("include_tests", q.include_tests),
    per_file_cap: num(q.per_file_cap),
    channels: list(q.channels) as SearchInput["channels"],
    explain: bool("explain", q.explain),
  };
}

/** The /api/search routes. Mounted by worker/api/app.ts after the auth middleware. */
export function searchRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/", async (c) => c.json(await search(serviceContext(c.env, c.var.caller), queryToInput(c.req.query()))));
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new CodeSearchError("invalid_input", "body: expected a JSON object such as {\"q\": \"...\"}");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new CodeSearchError("invalid_input", "body: expected a JSON object such as {\"q\": \"...\"}");
    return c.json(await search(serviceContext(c.env, c.var.caller), body as SearchInput));
  });
  return app;
}
