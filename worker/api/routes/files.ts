/**
 * @module worker/api/routes/files
 *
 *   GET /api/repos/{id}/files/{path}?start=&end=   numbered lines of an indexed file (<= 400 per call, `next` range)
 *   GET /api/repos/{id}/outline/{path}?offset=     imports and symbols with lines
 *   GET /api/repos/{id}/context?chunk_id=  |  ?path=&line=  [&before=&after=]   a chunk with neighbouring lines
 *   GET /api/repos/{id}/tree?path_prefix=&glob=&limit=&offset=   indexed paths of the current snapshot (glob such as `**\/*.proto`)
 *
 * Thin adapters over worker/services/files*.ts, validated with the same zod schemas as the MCP
 * tools. `{path}` is the rest of the URL path, percent-decoded, exactly as indexed.
 */
import { Hono } from "hono";
import type { z } from "zod";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { listFiles, listFilesInput, readFile, readFileInput } from "../../services/files";
import { codeContextInput, getCodeContext } from "../../services/files-context";
import { fileOutlineInput, getFileOutline } from "../../services/files-outline";
import type { ApiEnv } from "../app";

/**
 * Validates `value` with `schema`; throws `invalid_input` naming the first failing field, e.g.
 * `start: Too small: expected number to be >=1`. `names` maps schema keys to the wire names.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, names: Record<string, string> = {}): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const key = String(issue.path[0] ?? "input");
  throw new CodeSearchError("invalid_input", `${names[key] ?? key}: ${issue.message}`);
}

/** A query parameter as a number (NaN fails validation with the parameter's name), or undefined. */
export function numParam(v: string | undefined): number | undefined {
  return v === undefined || v === "" ? undefined : Number(v);
}

/** The file path after `/{marker}/` in the request path, percent-decoded per segment. */
function pathAfter(url: string, marker: string): string {
  const pathname = new URL(url).pathname;
  const at = pathname.indexOf(`/${marker}/`);
  const raw = at < 0 ? "" : pathname.slice(at + marker.length + 2);
  try {
    return raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new CodeSearchError("invalid_input", "path: malformed percent-encoding");
  }
}

/** The file routes, mounted at /api/repos by worker/api/app.ts after the auth middleware. */
export function fileRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/:id/files/*", async (c) => {
    const input = parseInput(
      readFileInput,
      { repo: c.req.param("id"), path: pathAfter(c.req.url, "files"), start_line: numParam(c.req.query("start")), end_line: numParam(c.req.query("end")) },
      { start_line: "start", end_line: "end" },
    );
    return c.json(await readFile(serviceContext(c.env, c.var.caller), input, "rest"));
  });
  app.get("/:id/outline/*", async (c) => {
    const input = parseInput(fileOutlineInput, { repo: c.req.param("id"), path: pathAfter(c.req.url, "outline"), offset: numParam(c.req.query("offset")) });
    return c.json(await getFileOutline(serviceContext(c.env, c.var.caller), input, "rest"));
  });
  app.get("/:id/context", async (c) => {
    const q = c.req.query();
    const byChunk = q.chunk_id !== undefined;
    const input = parseInput(codeContextInput, {
      chunk_id: q.chunk_id,
      repo: byChunk ? undefined : c.req.param("id"),
      path: q.path,
      line: numParam(q.line),
      before: numParam(q.before),
      after: numParam(q.after),
    });
    const out = await getCodeContext(serviceContext(c.env, c.var.caller), input);
    // The chunk id names its own repo; refuse a mismatch rather than answer for another repo.
    if (out.repo !== c.req.param("id")) throw new CodeSearchError("invalid_input", `chunk_id belongs to repo "${out.repo}", not "${c.req.param("id")}".`);
    return c.json(out);
  });
  app.get("/:id/tree", async (c) => {
    const q = c.req.query();
    const input = parseInput(listFilesInput, { repo: c.req.param("id"), path_prefix: q.path_prefix, glob: q.glob || undefined, limit: numParam(q.limit), offset: numParam(q.offset) });
    return c.json(await listFiles(serviceContext(c.env, c.var.caller), input));
  });
  return app;
}
