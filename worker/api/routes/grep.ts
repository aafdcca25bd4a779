/**
 * @module worker/api/routes/grep
 *
 *   GET  /api/grep?pattern=&regex=&case_sensitive=&whole_word=&repo=|repos=a,b&ref=&path=&language=&include_tests=&limit=&offset=&cursor=
 *   POST /api/grep  {pattern, regex?, case_sensitive?, whole_word?, repo? | repos?, ref?, path?, language?, include_tests?, limit?, offset?, cursor?}
 *
 * Both answer `grepOutput` (worker/services/grep.ts). POST takes a JSON body, for patterns that
 * are awkward in a URL. A thin adapter over `grep`, validated with its `grepInput`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import { grep, grepInput, grepOutput } from "../../services/grep";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";
import { jsonBody, queryBoolean, queryList, queryNumber, queryOptional } from "../validation";

const g = grepInput.shape;
/** Query of GET /api/grep: `grepInput`'s fields as strings (lists comma-separated). */
const grepQuery = z.object({
  pattern: g.pattern,
  regex: queryBoolean(g.regex),
  case_sensitive: queryBoolean(g.case_sensitive),
  whole_word: queryBoolean(g.whole_word),
  repo: queryOptional(g.repo),
  repos: queryList(g.repos),
  ref: queryOptional(g.ref),
  path: queryOptional(g.path),
  language: queryOptional(g.language),
  include_tests: queryBoolean(g.include_tests),
  limit: queryNumber(g.limit),
  offset: queryNumber(g.offset),
  cursor: queryOptional(g.cursor),
});

const responses = {
  200: jsonResponse(grepOutput, "Matching lines, with paging"),
  404: errorDoc("A named repo is unknown or not visible, or does not track the ref (or no repo does)", "repo_not_found", "ref_not_found"),
  409: errorDoc("No grepped repo has a completed index yet", "index_not_ready"),
};

const getGrep = createRoute({
  method: "get",
  path: "/",
  tags: ["search"],
  summary: "Exact-match search (literal or RE2 regex), query string",
  request: { query: grepQuery },
  responses,
});

const postGrep = createRoute({
  method: "post",
  path: "/",
  tags: ["search"],
  summary: "Exact-match search (literal or RE2 regex), JSON body",
  middleware: [jsonBody('{"pattern": "parseSigned("}')] as const,
  request: { body: { content: { "application/json": { schema: grepInput } }, required: true } },
  responses,
});

/** The /api/grep routes. Mounted by worker/api/app.ts after the auth middleware. */
export function grepRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(getGrep, async (c) => c.json(await grep(serviceContext(c.env, c.var.caller), c.req.valid("query")), 200));
  app.openapi(postGrep, async (c) => c.json(await grep(serviceContext(c.env, c.var.caller), c.req.valid("json")), 200));
  return app;
}
