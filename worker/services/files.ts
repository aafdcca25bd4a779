/**
 * @module worker/services/files
 *
 * Reading indexed files: numbered lines (`readFile`), a chunk with its neighbourhood
 * (`getCodeContext`), a file outline (`getFileOutline`) and file listings (`listFiles`).
 * REST routes (worker/api/routes/files.ts) and MCP tools (worker/mcp/tools/*) are thin adapters
 * over these functions and their zod schemas.
 *
 * Everything is read from D1 restricted to the repo's active snapshot (`repos.active_commit`
 * joined with `snapshot_files`) and to repos the caller may see. Paths are never opened: a file
 * is looked up in the index by (repo, path) exactly as the indexer recorded it.
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import { likeEscape } from "../search/filters";
import { compileGlob } from "../search/path-glob";
import type { ServiceContext } from "./context";
import { refSchema, snapshotRefField } from "./refs";
import { activeRepo, indexDb, type ActiveRepo } from "./repo-snapshot";

/** Most lines one `readFile` / `getCodeContext` call returns (issue 2: 400 lines per call). */
export const READ_MAX_LINES = 400;
/** Most characters of line text one call returns; past it the call stops early and says where to resume. */
export const READ_MAX_CHARS = 32_000;
/** Longest line returned whole, in characters; longer lines are cut with an explicit marker. */
export const LINE_MAX_CHARS = 1_000;

/** A repo id as registered (`^[a-z0-9][a-z0-9._-]{0,63}$`, issue 2). */
export const repoIdSchema = z.string().min(1).max(64).describe('Repo id, as listed by list_repos (e.g. "hono").');
/** A path inside a repo, `/`-separated, as indexed. */
export const repoPathSchema = z.string().min(1).max(1024).describe('File path inside the repo, e.g. "src/index.ts".');

/** One numbered line. `n` is 1-based. */
export const numberedLineSchema = z.object({ n: z.number().int(), text: z.string() });
export type NumberedLine = z.infer<typeof numberedLineSchema>;

/** A line range to ask for next, named like the read_file input so it can be passed back as is. */
export const nextRangeSchema = z.object({ start_line: z.number().int(), end_line: z.number().int() });

export { activeRepo, indexDb, visibleRepo, visibleRepoIds, type ActiveRepo, type VisibleRepoRow } from "./repo-snapshot";

/** A file row of the active snapshot. */
export interface FileRow {
  file_id: string;
  language: string;
  line_count: number;
  imports: string;
  text: string;
}

/**
 * Which API's names go into error messages: MCP (`start_line`, `end_line`, search_code, the
 * files resource) or REST (`start`, `end`, GET /api/search, GET /api/repos/{id}/tree).
 */
export type WireNames = "mcp" | "rest";

/**
 * Loads an indexed file of the active snapshot, or throws `file_not_found` with near-miss paths
 * (and, when there are none, how to list paths in the `wire` API).
 */
export async function loadFile(ctx: ServiceContext, snap: ActiveRepo, path: string, wire: WireNames = "mcp"): Promise<FileRow> {
  const row = await indexDb(ctx, snap)
    .prepare(
      `SELECT f.file_id, f.language, f.line_count, f.imports, f.text FROM snapshot_files sf
     JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id
     WHERE sf.repo = ?1 AND sf.commit_sha = ?2 AND sf.path = ?3`,
    )
    .bind(snap.id, snap.commit, path)
    .first<FileRow>();
  if (row) return row;
  const base = path.split("/").pop() ?? path;
  const { results } = await indexDb(ctx, snap)
    .prepare("SELECT path FROM snapshot_files WHERE repo = ?1 AND commit_sha = ?2 AND (path LIKE ?3 ESCAPE '\\' OR path = ?4) ORDER BY length(path) LIMIT 5")
    .bind(snap.id, snap.commit, `%/${likeEscape(base)}`, base)
    .all<{ path: string }>();
  const lister = wire === "rest" ? `GET /api/search or GET /api/repos/${snap.id}/tree` : "search_code or the codebase://{repo}/files resource";
  const hint = results.length ? ` Did you mean: ${results.map((r) => r.path).join(", ")}?` : ` Use ${lister} to find indexed paths.`;
  throw new CodeSearchError("file_not_found", `No indexed file "${path}" in repo "${snap.id}" (files that were skipped or ignored are not readable).${hint}`);
}

/** Splits file text into lines the way the indexer counts them (a final newline ends the last line). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Cuts a line longer than LINE_MAX_CHARS, saying how much was cut. */
function cutLine(line: string): string {
  return line.length <= LINE_MAX_CHARS ? line : `${line.slice(0, LINE_MAX_CHARS)} … [line cut: ${line.length - LINE_MAX_CHARS} more chars]`;
}

/**
 * Takes lines `from..to` (1-based, inclusive) within READ_MAX_LINES and READ_MAX_CHARS.
 * Returns the numbered lines and the last line actually taken (always >= from).
 */
export function takeLines(lines: string[], from: number, to: number): { taken: NumberedLine[]; last: number } {
  const stop = Math.min(to, from + READ_MAX_LINES - 1, lines.length);
  const taken: NumberedLine[] = [];
  let chars = 0;
  for (let n = from; n <= stop; n++) {
    const text = cutLine(lines[n - 1]);
    if (taken.length > 0 && chars + text.length > READ_MAX_CHARS) break;
    chars += text.length + 1;
    taken.push({ n, text });
  }
  return { taken, last: from + taken.length - 1 };
}

// ---------------------------------------------------------------------------------------------
// read_file

/** Input of `readFile`: `start_line`/`end_line` are 1-based and inclusive. */
export const readFileInput = z.object({
  repo: repoIdSchema,
  ref: refSchema.optional(),
  path: repoPathSchema,
  start_line: z.number().int().min(1).optional().describe("First line to return (1-based). Default 1."),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Last line wanted (inclusive). Default: end of file. At most ${READ_MAX_LINES} lines come back per call, with \`next\` naming the rest.`),
});
export type ReadFileInput = z.infer<typeof readFileInput>;

/** What every per-file answer starts with: the file as found in the repo's active snapshot. */
export const fileHeaderSchema = z.object({
  repo: z.string(),
  path: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  language: z.string(),
  totalLines: z.number().int(),
});

/** Output of `readFile`. `next` is the range to ask for to continue, or null when the request was served whole. */
export const readFileOutput = fileHeaderSchema.extend({
  startLine: z.number().int(),
  endLine: z.number().int(),
  lines: z.array(numberedLineSchema),
  next: nextRangeSchema.nullable(),
});
export type ReadFileOutput = z.infer<typeof readFileOutput>;

/**
 * Numbered lines of an indexed file, at most READ_MAX_LINES lines and READ_MAX_CHARS characters
 * per call; `next` names the range to ask for when the request was not served whole.
 * Throws `repo_not_found`, `index_not_ready`, `file_not_found`, or `invalid_input` for a range
 * past the end of the file; messages use the parameter names of `wire` (default MCP).
 */
export async function readFile(ctx: ServiceContext, input: ReadFileInput, wire: WireNames = "mcp"): Promise<ReadFileOutput> {
  const snap = await activeRepo(ctx, input.repo, input.ref);
  const file = await loadFile(ctx, snap, input.path, wire);
  const lines = splitLines(file.text);
  const start = input.start_line ?? 1;
  const [startName, endName] = wire === "rest" ? ["start", "end"] : ["start_line", "end_line"];
  if (input.end_line !== undefined && input.end_line < start) {
    throw new CodeSearchError("invalid_input", `${endName} (${input.end_line}) is before ${startName} (${start}); ask for ${startName} <= ${endName}.`);
  }
  if (lines.length === 0) {
    return {
      repo: snap.id,
      path: input.path,
      ref: snap.ref,
      commit: snap.commit,
      language: file.language,
      totalLines: 0,
      startLine: 0,
      endLine: 0,
      lines: [],
      next: null,
    };
  }
  if (start > lines.length) {
    throw new CodeSearchError(
      "invalid_input",
      `${startName} ${start} is past the end of "${input.path}" (${lines.length} lines); ask for ${startName} 1-${lines.length}.`,
    );
  }
  const wanted = Math.min(input.end_line ?? lines.length, lines.length);
  const { taken, last } = takeLines(lines, start, wanted);
  const next = last < wanted ? { start_line: last + 1, end_line: Math.min(wanted, last + READ_MAX_LINES) } : null;
  return {
    repo: snap.id,
    path: input.path,
    ref: snap.ref,
    commit: snap.commit,
    language: file.language,
    totalLines: lines.length,
    startLine: start,
    endLine: last,
    lines: taken,
    next,
  };
}

// ---------------------------------------------------------------------------------------------
// file listing (resource codebase://{repo}/files)

/** Most paths one listing page returns. */
export const LIST_FILES_MAX = 1_000;

/** Input of `listFiles`. */
export const listFilesInput = z.object({
  repo: repoIdSchema,
  ref: refSchema.optional(),
  path_prefix: z.string().max(1024).optional().describe('Only paths starting with this, e.g. "src/router/".'),
  glob: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe('Only paths matching this glob: "**/*.proto", "src/**/*.{ts,tsx}"; without a "/" it matches file names at any depth ("*.proto").'),
  limit: z.number().int().min(1).max(LIST_FILES_MAX).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ListFilesInput = z.infer<typeof listFilesInput>;

/** Output of `listFiles`. */
export const listFilesOutput = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  files: z.array(z.object({ path: z.string(), language: z.string(), lines: z.number().int() })),
  total_count: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
});
export type ListFilesOutput = z.infer<typeof listFilesOutput>;

/**
 * Paths of the active snapshot, sorted, paginated (default and maximum LIST_FILES_MAX per page),
 * under `path_prefix` and matching `glob` when given (both: both apply).
 */
export async function listFiles(ctx: ServiceContext, input: ListFilesInput): Promise<ListFilesOutput> {
  const snap = await activeRepo(ctx, input.repo, input.ref);
  const limit = input.limit ?? LIST_FILES_MAX;
  const offset = input.offset ?? 0;
  if (input.glob !== undefined) return listFilesByGlob(ctx, snap, input.glob, input.path_prefix ?? "", limit, offset);
  // substr, not LIKE: LIKE ignores ASCII case and paths are case-sensitive.
  const prefix = input.path_prefix ?? "";
  const db = indexDb(ctx, snap);
  const [count, page] = await db.batch([
    db
      .prepare("SELECT count(*) AS n FROM snapshot_files WHERE repo = ?1 AND commit_sha = ?2 AND substr(path, 1, length(?3)) = ?3")
      .bind(snap.id, snap.commit, prefix),
    db
      .prepare(
        `SELECT sf.path, f.language, f.line_count FROM snapshot_files sf JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id
         WHERE sf.repo = ?1 AND sf.commit_sha = ?2 AND substr(sf.path, 1, length(?3)) = ?3 ORDER BY sf.path LIMIT ?4 OFFSET ?5`,
      )
      .bind(snap.id, snap.commit, prefix, limit, offset),
  ]);
  const total = (count.results[0] as { n: number }).n;
  const files = (page.results as { path: string; language: string; line_count: number }[]).map((f) => ({
    path: f.path,
    language: f.language,
    lines: f.line_count,
  }));
  const end = offset + files.length;
  return { repo: snap.id, ref: snap.ref, commit: snap.commit, files, total_count: total, has_more: end < total, next_offset: end < total ? end : null };
}

/**
 * The glob form of `listFiles`: the snapshot's paths under the glob's literal folder (and
 * `prefix`) are read, matched on RE2 (worker/search/path-glob.ts), then paged, so the
 * count is exact. Reads every path under that folder: one row of a few bytes per file.
 */
async function listFilesByGlob(ctx: ServiceContext, snap: ActiveRepo, glob: string, prefix: string, limit: number, offset: number): Promise<ListFilesOutput> {
  const g = compileGlob(glob, { field: "glob" });
  const from = g.prefix.startsWith(prefix) ? g.prefix : prefix;
  const { results } = await indexDb(ctx, snap)
    .prepare(
      `SELECT sf.path, f.language, f.line_count FROM snapshot_files sf JOIN files f ON f.repo = sf.repo AND f.file_id = sf.file_id
     WHERE sf.repo = ?1 AND sf.commit_sha = ?2 AND substr(sf.path, 1, length(?3)) = ?3 ORDER BY sf.path`,
    )
    .bind(snap.id, snap.commit, from)
    .all<{ path: string; language: string; line_count: number }>();
  const matched = results.filter((f) => f.path.startsWith(prefix) && g.test(f.path));
  const files = matched.slice(offset, offset + limit).map((f) => ({ path: f.path, language: f.language, lines: f.line_count }));
  const end = offset + files.length;
  return {
    repo: snap.id,
    ref: snap.ref,
    commit: snap.commit,
    files,
    total_count: matched.length,
    has_more: end < matched.length,
    next_offset: end < matched.length ? end : null,
  };
}
