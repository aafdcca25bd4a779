/**
 * @module worker/api/routes/files
 *
 *   GET /api/repos/{id}/files/{path}?start=&end=   numbered lines of an indexed file (<= 400 per call, `next` range)
 *   GET /api/repos/{id}/outline/{path}?offset=     imports and symbols with lines
 *   GET /api/repos/{id}/context?chunk_id=  |  ?path=&line=  [&before=&after=]   a chunk with neighbouring lines
 *   GET /api/repos/{id}/tree?path_prefix=&glob=&limit=&offset=   indexed paths of the current snapshot (glob such as `**\/*.proto`)
 *
 * Each takes `?ref=` (a branch or tag the repo tracks; default its default branch) and names the
 * ref and commit it read (worker/services/refs.ts).
 * Thin adapters over worker/services/files*.ts, validated with the same zod schemas as the MCP
 * tools. `{path}` is the rest of the URL path, percent-decoded, exactly as indexed.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { CodeSearchError } from "../../../kernel/errors";
import { parseOrThrow } from "../../../kernel/validation";
import { serviceContext } from "../../services/context";
import { listFiles, listFilesInput, listFilesOutput, readFile, readFileInput, readFileOutput, repoPathSchema } from "../../services/files";
import { codeContextInput, codeContextOutput, getCodeContext } from "../../services/files-context";
import { fileOutlineInput, fileOutlineOutput, getFileOutline } from "../../services/files-outline";
import { refSchema } from "../../services/refs";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoFileParams, repoIdParams, withRestPath } from "../openapi/route-kit";
import { queryNumber, queryOptional } from "../validation";

/** The file path after `/{marker}/` in the request path, percent-decoded per segment, checked like the MCP argument. */
function pathAfter(url: string, marker: string): string {
  const pathname = new URL(url).pathname;
  const at = pathname.indexOf(`/${marker}/`);
  const raw = at < 0 ? "" : pathname.slice(at + marker.length + 2);
  let path: string;
  try {
    path = raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new CodeSearchError("invalid_input", "path: malformed percent-encoding");
  }
  // A query ?path= or a bare /outline is a natural guess; say where the path goes.
  if (!path) throw new CodeSearchError("invalid_input", `path: put the file path in the URL after /${marker}/, e.g. /api/repos/{id}/${marker}/src/index.ts`);
  return parseOrThrow(repoPathSchema, path, {}, "path");
}

const fileErrors = {
  400: errorDoc("Invalid parameter, or a ref on an archive upload (archives have no refs)", "invalid_input"),
  404: errorDoc(
    "Unknown repo or file, a ref the repo does not track, or no completed index yet",
    "repo_not_found",
    "file_not_found",
    "ref_not_found",
    "index_not_ready",
  ),
};
/** `?ref=`: the branch or tag to read (worker/services/refs.ts). */
const refQuery = queryOptional(refSchema.optional());

const readFileRoute = createRoute({
  method: "get",
  path: "/{id}/files/{path}",
  tags: ["files"],
  summary: "Read numbered lines of an indexed file",
  request: {
    params: repoIdParams,
    query: z.object({ start: queryNumber(readFileInput.shape.start_line), end: queryNumber(readFileInput.shape.end_line), ref: refQuery }),
  },
  responses: { 200: jsonResponse(readFileOutput, "The lines, with `next` naming the rest"), ...fileErrors },
});

const outlineRoute = createRoute({
  method: "get",
  path: "/{id}/outline/{path}",
  tags: ["files"],
  summary: "Imports and symbols of an indexed file",
  request: { params: repoIdParams, query: z.object({ offset: queryNumber(fileOutlineInput.shape.offset), ref: refQuery }) },
  responses: { 200: jsonResponse(fileOutlineOutput, "The outline"), ...fileErrors },
});

const contextRoute = createRoute({
  method: "get",
  path: "/{id}/context",
  tags: ["files"],
  summary: "A chunk with neighbouring lines, by chunk id or by path and line",
  request: {
    params: repoIdParams,
    query: z.object({
      chunk_id: codeContextInput.shape.chunk_id,
      path: codeContextInput.shape.path,
      line: queryNumber(codeContextInput.shape.line),
      before: queryNumber(codeContextInput.shape.before),
      after: queryNumber(codeContextInput.shape.after),
      ref: refQuery,
    }),
  },
  responses: { 200: jsonResponse(codeContextOutput, "The chunk and its neighbourhood"), ...fileErrors },
});

const treeRoute = createRoute({
  method: "get",
  path: "/{id}/tree",
  tags: ["files"],
  summary: "Indexed paths of the current snapshot",
  request: {
    params: repoIdParams,
    query: z.object({
      path_prefix: listFilesInput.shape.path_prefix,
      glob: queryOptional(listFilesInput.shape.glob),
      limit: queryNumber(listFilesInput.shape.limit),
      offset: queryNumber(listFilesInput.shape.offset),
      ref: refQuery,
    }),
  },
  responses: {
    200: jsonResponse(listFilesOutput, "One page of paths"),
    400: errorDoc("Invalid parameter, or a ref on an archive upload (archives have no refs)", "invalid_input"),
    404: errorDoc("Unknown repo, a ref it does not track, or no completed index yet", "repo_not_found", "ref_not_found", "index_not_ready"),
  },
});

/** The file routes, mounted at /api/repos by worker/api/app.ts after the auth middleware. */
export function fileRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(withRestPath(app, readFileRoute, repoFileParams), async (c) => {
    const { start, end, ref } = c.req.valid("query");
    const input = { repo: c.req.valid("param").id, ref, path: pathAfter(c.req.url, "files"), start_line: start, end_line: end };
    return c.json(await readFile(serviceContext(c.env, c.var.caller), input, "rest"), 200);
  });
  app.openapi(withRestPath(app, outlineRoute, repoFileParams), async (c) => {
    const { offset, ref } = c.req.valid("query");
    const input = { repo: c.req.valid("param").id, ref, path: pathAfter(c.req.url, "outline"), offset };
    return c.json(await getFileOutline(serviceContext(c.env, c.var.caller), input, "rest"), 200);
  });
  app.openapi(contextRoute, async (c) => {
    const q = c.req.valid("query");
    const id = c.req.valid("param").id;
    const out = await getCodeContext(serviceContext(c.env, c.var.caller), { ...q, repo: q.chunk_id !== undefined ? undefined : id });
    // The chunk id names its own repo; refuse a mismatch rather than answer for another repo.
    if (out.repo !== id) throw new CodeSearchError("invalid_input", `chunk_id belongs to repo "${out.repo}", not "${id}".`);
    return c.json(out, 200);
  });
  app.openapi(treeRoute, async (c) =>
    c.json(await listFiles(serviceContext(c.env, c.var.caller), { ...c.req.valid("query"), repo: c.req.valid("param").id }), 200),
  );
  return app;
}
