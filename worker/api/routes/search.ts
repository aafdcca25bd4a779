/**
 * @module worker/api/routes/search
 *
 *   GET  /api/search?q=&repo=&repos=a,b&ref=&k=&mode=&language=&path_prefix=&include_tests=&per_file_cap=&channels=&explain=
 *   POST /api/search  {q, repo?, repos?, ref?, k?, mode?, language?, path_prefix?, include_tests?, per_file_cap?, channels?, explain?, disable_rules?}
 *
 * `query` is accepted for `q` (the MCP name); `repo` and `repos` together are refused.
 *
 * Both answer `{results, confidence, stats}` (worker/search/schema.ts). POST takes a JSON body,
 * for long queries such as a pasted bug report.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { parseOrThrow } from "../../../kernel/validation";
import { RULE_IDS } from "../../search/rules";
import { searchResponseSchema } from "../../search/schema";
import { serviceContext } from "../../services/context";
import { search, searchInput } from "../../services/search";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";
import { jsonBody, queryBoolean, queryList, queryNumber, queryOptional } from "../validation";

const QUERY_ALIAS = z.string().optional().describe("Alias of q (the MCP tool's name for it).");

/**
 * `query` moved to `q`, refusing two different texts. Runs before `searchInput`, so a missing
 * `q` is reported by its own message.
 */
function aliasQuery(value: unknown, ctx: z.RefinementCtx): unknown {
  if (!value || typeof value !== "object" || !("query" in value)) return value;
  const { query, ...rest } = value as { query?: unknown; q?: unknown };
  if (query === undefined) return rest;
  if (rest.q !== undefined && rest.q !== "" && rest.q !== query)
    ctx.addIssue({ code: "custom", path: ["q"], message: "q: pass the query text as q or as query, not both." });
  return { ...rest, q: query };
}

/** Debug switch (REST only, never MCP): report rules to turn off; admin callers with explain only. */
const DISABLE_RULES = z
  .array(z.enum(RULE_IDS))
  .min(1)
  .max(RULE_IDS.length)
  .optional()
  .describe("Debugging: turn these report rules off for this search (worker/search/rules.ts, docs/ranking.md); admin callers with explain only.");

/** Body of POST /api/search: `searchInput`, with `query` accepted for `q`, and `disable_rules`. */
export const searchBody = z.preprocess(aliasQuery, searchInput.extend({ query: QUERY_ALIAS, disable_rules: DISABLE_RULES }));

const s = searchInput.shape;
/** Query of GET /api/search: the same fields as strings (lists comma-separated). */
const searchQuery = z.object({
  q: s.q.optional(),
  query: QUERY_ALIAS,
  repo: queryOptional(s.repo),
  repos: queryList(s.repos),
  ref: queryOptional(s.ref),
  k: queryNumber(s.k),
  mode: queryOptional(s.mode),
  language: queryOptional(s.language),
  path_prefix: queryOptional(s.path_prefix),
  include_tests: queryBoolean(s.include_tests),
  per_file_cap: queryNumber(s.per_file_cap),
  channels: queryList(s.channels),
  explain: queryBoolean(s.explain),
  disable_rules: queryList(DISABLE_RULES),
});

const responses = {
  200: jsonResponse(searchResponseSchema, "Ranked chunks, confidence and stats"),
  404: errorDoc("A named repo is unknown or not visible, or does not track the ref (or no repo does)", "repo_not_found", "ref_not_found"),
  409: errorDoc("No searched repo has a completed index yet", "index_not_ready"),
};

const getSearch = createRoute({
  method: "get",
  path: "/",
  tags: ["search"],
  summary: "Hybrid code search (query string)",
  request: { query: searchQuery },
  responses,
});

const postSearch = createRoute({
  method: "post",
  path: "/",
  tags: ["search"],
  summary: "Hybrid code search (JSON body, for long queries such as a pasted stack trace)",
  middleware: [jsonBody('{"q": "..."}')] as const,
  request: { body: { content: { "application/json": { schema: searchBody } }, required: true } },
  responses,
});

/** The /api/search routes. Mounted by worker/api/app.ts after the auth middleware. */
export function searchRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  // GET's strings are typed by its query schema; the object then passes the same body schema.
  const searchQueryObject = z.preprocess((v) => Object.fromEntries(Object.entries(v as object).filter(([, x]) => x !== undefined)), searchBody);
  app.openapi(getSearch, async (c) => {
    const { query: _query, disable_rules, ...params } = parseOrThrow(searchQueryObject, c.req.valid("query"), {}, "query");
    return c.json(await search(serviceContext(c.env, c.var.caller), params, { disableRules: disable_rules }), 200);
  });
  app.openapi(postSearch, async (c) => {
    const { query: _query, disable_rules, ...params } = c.req.valid("json");
    return c.json(await search(serviceContext(c.env, c.var.caller), params, { disableRules: disable_rules }), 200);
  });
  return app;
}
