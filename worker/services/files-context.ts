/**
 * @module worker/services/files-context
 *
 * `getCodeContext`: a chunk with neighbouring lines and its adjacent chunks, found by chunk id
 * (from search results) or by repo + path + line, read from the active snapshot or `ref`'s
 * (worker/services/refs.ts).
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import type { ServiceContext } from "./context";
import {
  activeRepo,
  loadFile,
  nextRangeSchema,
  numberedLineSchema,
  READ_MAX_LINES,
  fileHeaderSchema,
  repoIdSchema,
  repoPathSchema,
  splitLines,
  takeLines,
  visibleRepo,
  type ActiveRepo,
} from "./files";
import { refSchema, resolveRef, resolveRefs, trackedRefs } from "./refs";
import { indexDb } from "./files";
import { listShards } from "../../indexer/store/shards";

/** Most neighbouring lines one may ask for on either side of a chunk. */
export const CONTEXT_MAX_NEIGHBOUR_LINES = 100;

/** Input of `getCodeContext`: a chunk id (from search results), or repo + path + line. */
export const codeContextInput = z.object({
  chunk_id: z.string().min(1).max(64).optional().describe("Chunk id from a search_code result (chunkId). Alternative to repo + path + line."),
  repo: repoIdSchema.optional(),
  ref: refSchema.optional(),
  path: repoPathSchema.optional(),
  line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "A line inside the code of interest (1-based). Alone: the smallest chunk covering it. With before and/or after: exactly lines line-before .. line+after.",
    ),
  before: z
    .number()
    .int()
    .min(0)
    .max(CONTEXT_MAX_NEIGHBOUR_LINES)
    .optional()
    .describe("Lines before the chunk (default 5), or with line: before that line (default 0)."),
  after: z
    .number()
    .int()
    .min(0)
    .max(CONTEXT_MAX_NEIGHBOUR_LINES)
    .optional()
    .describe("Lines after the chunk (default 5), or with line: after that line (default 0)."),
});
export type CodeContextInput = z.infer<typeof codeContextInput>;

const chunkRefSchema = z.object({
  id: z.string(),
  kind: z.string(),
  symbol: z.string().nullable(),
  container: z.string().nullable(),
  signature: z.string().nullable(),
  startLine: z.number().int(),
  endLine: z.number().int(),
});
export type ChunkRef = z.infer<typeof chunkRefSchema>;

/** Output of `getCodeContext`: the chunk (null when no chunk covers the line), its lines with neighbours, and the adjacent chunks. */
export const codeContextOutput = fileHeaderSchema.extend({
  window: z.enum(["chunk", "lines"]).describe("chunk: the chunk plus before/after lines; lines: exactly line-before .. line+after (clamped to the file)."),
  chunk: chunkRefSchema.nullable().describe("The smallest chunk containing the requested line (or the chunk asked for)."),
  previousChunk: chunkRefSchema.nullable(),
  nextChunk: chunkRefSchema.nullable(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  lines: z.array(numberedLineSchema),
  next: nextRangeSchema.nullable().describe("When the chunk did not fit the budget: the read_file range that continues it."),
});
export type CodeContextOutput = z.infer<typeof codeContextOutput>;

interface ChunkRow {
  id: string;
  repo: string;
  file_id: string;
  path: string;
  kind: string;
  symbol: string | null;
  container: string | null;
  signature: string | null;
  start_line: number;
  end_line: number;
}

function toChunkRef(c: ChunkRow): ChunkRef {
  return { id: c.id, kind: c.kind, symbol: c.symbol, container: c.container, signature: c.signature, startLine: c.start_line, endLine: c.end_line };
}

const CHUNK_COLUMNS = "c.id, c.repo, c.file_id, c.path, c.kind, c.symbol, c.container, c.signature, c.start_line, c.end_line";

/**
 * A chunk with `before`/`after` neighbouring lines (default 5 each) and its adjacent chunks,
 * or, for repo + path + line with `before` and/or `after`, exactly that line window (missing
 * side 0, clamped to the file) with the chunk containing the line; within the READ_MAX_LINES / READ_MAX_CHARS budget (`next` says how to continue).
 * Throws `invalid_input` unless exactly one of `chunk_id` or repo + path + line is given;
 * `file_not_found` for a chunk id that is not in the active snapshot of a visible repo.
 */
export async function getCodeContext(ctx: ServiceContext, input: CodeContextInput): Promise<CodeContextOutput> {
  const byLocation = input.repo !== undefined && input.path !== undefined && input.line !== undefined;
  if (!!input.chunk_id === byLocation) {
    throw new CodeSearchError("invalid_input", "Pass either chunk_id (from search_code results) or all of repo, path and line.");
  }
  let snap: ActiveRepo;
  let path: string;
  let chunk: ChunkRow | null;
  let line: number;
  if (input.chunk_id) {
    const found = await chunkOfActiveSnapshot(ctx, input.chunk_id, input.ref);
    if (!found) {
      throw new CodeSearchError(
        "file_not_found",
        `Chunk "${input.chunk_id}" is not in the current index${input.ref === undefined ? "" : ` of ref "${input.ref}"`} (it may come from an older snapshot). Search again, or pass repo, path and line.`,
      );
    }
    chunk = found.chunk;
    snap = found.snap;
    path = chunk.path;
    line = chunk.start_line;
  } else {
    snap = await activeRepo(ctx, input.repo!, input.ref);
    path = input.path!;
    line = input.line!;
    chunk = null;
  }
  const file = await loadFile(ctx, snap, path);
  const db = indexDb(ctx, snap);
  if (!chunk) {
    chunk = await db
      .prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.repo = ?1 AND c.file_id = ?2 AND c.start_line <= ?3 AND c.end_line >= ?3 ORDER BY c.end_line - c.start_line, c.start_line LIMIT 1`,
      )
      .bind(snap.id, file.file_id, line)
      .first<ChunkRow>();
  }
  const lines = splitLines(file.text);
  if (line > lines.length) {
    throw new CodeSearchError("invalid_input", `line ${line} is past the end of "${path}" (${lines.length} lines).`);
  }
  const [prev, nextChunk] = await Promise.all([
    chunk
      ? db
          .prepare(
            `SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.repo = ?1 AND c.file_id = ?2 AND c.end_line < ?3 ORDER BY c.end_line DESC, c.start_line DESC LIMIT 1`,
          )
          .bind(snap.id, file.file_id, chunk.start_line)
          .first<ChunkRow>()
      : null,
    chunk
      ? db
          .prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.repo = ?1 AND c.file_id = ?2 AND c.start_line > ?3 ORDER BY c.start_line, c.end_line LIMIT 1`)
          .bind(snap.id, file.file_id, chunk.end_line)
          .first<ChunkRow>()
      : null,
  ]);
  // A line with before/after asks for a window around that line, not around its chunk.
  const lineWindow = !input.chunk_id && (input.before !== undefined || input.after !== undefined);
  const core = chunk && !lineWindow ? { start: chunk.start_line, end: chunk.end_line } : { start: line, end: line };
  const pad = lineWindow ? 0 : 5;
  const from = Math.max(1, core.start - (input.before ?? pad));
  const to = Math.min(lines.length, core.end + (input.after ?? pad));
  const { taken, last } = takeLines(lines, from, to);
  return {
    repo: snap.id,
    path,
    ref: snap.ref,
    commit: snap.commit,
    language: file.language,
    totalLines: lines.length,
    window: lineWindow ? "lines" : "chunk",
    chunk: chunk ? toChunkRef(chunk) : null,
    previousChunk: prev ? toChunkRef(prev) : null,
    nextChunk: nextChunk ? toChunkRef(nextChunk) : null,
    startLine: from,
    endLine: last,
    lines: taken,
    next: last < to ? { start_line: last + 1, end_line: Math.min(to, last + READ_MAX_LINES) } : null,
  };
}

/**
 * The chunk `id` in a snapshot of a repo the caller may see, with that snapshot: `ref`'s when
 * given (its errors thrown as every read's), else the default snapshot or, when the chunk is not
 * there, another tracked ref's (a chunk id from a search with `ref` keeps working without it).
 * A chunk id does not name its repo, so every shard is asked (in parallel); a row counts only
 * from the shard the catalog says serves its repo (a move leaves a second copy until its flip),
 * and the catalog row decides visibility.
 */
async function chunkOfActiveSnapshot(ctx: ServiceContext, id: string, ref: string | undefined): Promise<{ chunk: ChunkRow; snap: ActiveRepo } | null> {
  const found = await Promise.all(
    listShards(ctx.env).map(async ({ shard, db }) => {
      const chunk = await db.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks c WHERE c.id = ?`).bind(id).first<ChunkRow>();
      return chunk ? { shard, db, chunk } : null;
    }),
  );
  for (const f of found) {
    if (!f) continue;
    // The snapshots holding this file version, read beside the catalog row (snapshot_files_by_file).
    const [row, holding] = await Promise.all([
      visibleRepo(ctx, f.chunk.repo).catch(() => null),
      f.db
        .prepare("SELECT commit_sha FROM snapshot_files WHERE repo = ?1 AND file_id = ?2 AND path = ?3")
        .bind(f.chunk.repo, f.chunk.file_id, f.chunk.path)
        .all<{ commit_sha: string }>(),
    ]);
    if (!row || (row.shard ?? 0) !== f.shard) continue;
    const has = new Set(holding.results.map((r) => r.commit_sha));
    if (ref !== undefined) {
      const snap = await resolveRef(ctx, row, ref);
      if (has.has(snap.commit)) return { chunk: f.chunk, snap };
      continue;
    }
    const [snap] = (await resolveRefs(ctx, [row])).snapshots;
    if (snap && has.has(snap.commit)) return { chunk: f.chunk, snap };
    // Not in the default snapshot: another tracked ref's, read only then.
    if (row.source_kind !== "git" || !holding.results.length) continue;
    const other = ((await trackedRefs(ctx.env.DB, [row.id])).get(row.id) ?? []).find((t) => !t.is_default && t.commit_sha && has.has(t.commit_sha));
    if (other) return { chunk: f.chunk, snap: { id: row.id, ref: other.name, commit: other.commit_sha!, shard: f.shard, indexedAt: other.indexed_at } };
  }
  return null;
}
