/**
 * @module worker/api/routes/history
 *
 *   GET /api/repos/{id}/history?path=&start=&end=&ref=&limit=&cursor=   commits that changed a file or lines of it
 *   GET /api/repos/{id}/blame?path=&start=&end=&ref=                    the commit that last changed each line
 *   GET /api/search/commits?q=&repo=&ref=&author=&since=&until=&limit=  BM25 over commit messages
 *
 * Thin adapters over worker/services/history*.ts with the schemas the MCP tools `file_history`,
 * `blame` and `search_commits` use (history-schema.ts). Reading history needs the `search` scope.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import { blame, fileHistory } from "../../services/history";
import { searchCommits } from "../../services/history-commits";
import { blameInput, blameOutput, fileHistoryInput, fileHistoryOutput, searchCommitsInput, searchCommitsOutput } from "../../services/history-schema";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoIdParams } from "../openapi/route-kit";
import { queryNumber, queryOptional } from "../validation";

const historyErrors = {
  400: errorDoc("A range outside the file, more lines than blame covers, or an invalid parameter", "invalid_input"),
  404: errorDoc("Unknown repo or file, or a ref the repo does not track", "repo_not_found", "file_not_found", "ref_not_found"),
  409: errorDoc(
    "No completed index yet, or history is not available for this source (an archive, or a shallow fetch): the message says what to do",
    "index_not_ready",
    "history_unavailable",
  ),
  413: errorDoc("The walk did not finish within its time budget; ask for fewer lines", "payload_too_large"),
};

const historyRoute = createRoute({
  method: "get",
  path: "/{id}/history",
  tags: ["history"],
  summary: "Commits that changed a file, or a line range of it, newest first",
  request: {
    params: repoIdParams,
    query: z.object({
      path: fileHistoryInput.shape.path,
      start: queryNumber(fileHistoryInput.shape.start),
      end: queryNumber(fileHistoryInput.shape.end),
      ref: queryOptional(fileHistoryInput.shape.ref),
      limit: queryNumber(fileHistoryInput.shape.limit),
      cursor: queryOptional(fileHistoryInput.shape.cursor),
    }),
  },
  responses: { 200: jsonResponse(fileHistoryOutput, "One page of commits, with `next_cursor`"), ...historyErrors },
});

const blameRoute = createRoute({
  method: "get",
  path: "/{id}/blame",
  tags: ["history"],
  summary: "The commit that last changed each line of a range",
  request: {
    params: repoIdParams,
    query: z.object({
      path: blameInput.shape.path,
      start: queryNumber(blameInput.shape.start),
      end: queryNumber(blameInput.shape.end),
      ref: queryOptional(blameInput.shape.ref),
    }),
  },
  responses: { 200: jsonResponse(blameOutput, "Line ranges with their commit"), ...historyErrors },
});

const commitSearchRoute = createRoute({
  method: "get",
  path: "/commits",
  tags: ["history"],
  summary: "Search commit messages (BM25), with author and date filters",
  request: {
    query: z.object({
      q: searchCommitsInput.shape.q,
      repo: queryOptional(searchCommitsInput.shape.repo),
      ref: queryOptional(searchCommitsInput.shape.ref),
      author: queryOptional(searchCommitsInput.shape.author),
      since: queryOptional(searchCommitsInput.shape.since),
      until: queryOptional(searchCommitsInput.shape.until),
      limit: queryNumber(searchCommitsInput.shape.limit),
    }),
  },
  responses: {
    200: jsonResponse(searchCommitsOutput, "Commits, best first"),
    400: historyErrors[400],
    404: errorDoc("Unknown repo, or a ref it does not track", "repo_not_found", "ref_not_found"),
    409: historyErrors[409],
  },
});

/** History and blame, mounted at /api/repos by worker/api/app.ts after the auth middleware. */
export function historyRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(historyRoute, async (c) =>
    c.json(await fileHistory(serviceContext(c.env, c.var.caller), { ...c.req.valid("query"), repo: c.req.valid("param").id }), 200),
  );
  app.openapi(blameRoute, async (c) =>
    c.json(await blame(serviceContext(c.env, c.var.caller), { ...c.req.valid("query"), repo: c.req.valid("param").id }), 200),
  );
  return app;
}

/** Commit search, mounted at /api/search. */
export function commitSearchRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(commitSearchRoute, async (c) => c.json(await searchCommits(serviceContext(c.env, c.var.caller), c.req.valid("query")), 200));
  return app;
}
