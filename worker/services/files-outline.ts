/**
 * @module worker/services/files-outline
 *
 * `getFileOutline`: the imports and symbols (with lines) of an indexed file of the active snapshot
 * or of `ref`'s (worker/services/refs.ts).
 */
import { z } from "zod";
import type { ServiceContext } from "./context";
import { refSchema } from "./refs";
import { activeRepo, indexDb, loadFile, fileHeaderSchema, repoIdSchema, repoPathSchema, type WireNames } from "./files";

/** Most symbols one outline page returns. */
export const OUTLINE_MAX_SYMBOLS = 300;

/** Input of `getFileOutline`. `offset` pages through the symbols of very large files. */
export const fileOutlineInput = z.object({
  repo: repoIdSchema,
  ref: refSchema.optional(),
  path: repoPathSchema,
  offset: z.number().int().min(0).optional().describe(`Skip this many symbols (pagination; ${OUTLINE_MAX_SYMBOLS} per page). Default 0.`),
});
export type FileOutlineInput = z.infer<typeof fileOutlineInput>;

/** One symbol of an outline; lines are 1-based and inclusive. */
export const outlineSymbolSchema = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  signature: z.string().nullable(),
  startLine: z.number().int(),
  endLine: z.number().int(),
});

/** Output of `getFileOutline`: imports, then symbols in line order. */
export const fileOutlineOutput = fileHeaderSchema.extend({
  imports: z.array(z.string()),
  symbols: z.array(outlineSymbolSchema),
  total_count: z.number().int().describe("Number of symbols in the file."),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
});
export type FileOutlineOutput = z.infer<typeof fileOutlineOutput>;

/** Imports and symbols (with lines) of an indexed file; symbols paginate by OUTLINE_MAX_SYMBOLS. */
export async function getFileOutline(ctx: ServiceContext, input: FileOutlineInput, wire: WireNames = "mcp"): Promise<FileOutlineOutput> {
  const snap = await activeRepo(ctx, input.repo, input.ref);
  const file = await loadFile(ctx, snap, input.path, wire);
  const offset = input.offset ?? 0;
  const db = indexDb(ctx, snap);
  const [count, page] = await db.batch([
    db.prepare("SELECT count(*) AS n FROM symbols WHERE repo = ?1 AND file_id = ?2").bind(snap.id, file.file_id),
    db
      .prepare(
        "SELECT name, kind, container, signature, start_line, end_line FROM symbols WHERE repo = ?1 AND file_id = ?2 ORDER BY start_line, end_line DESC, name LIMIT ?3 OFFSET ?4",
      )
      .bind(snap.id, file.file_id, OUTLINE_MAX_SYMBOLS, offset),
  ]);
  const total = (count.results[0] as { n: number }).n;
  const symbols = (
    page.results as { name: string; kind: string; container: string | null; signature: string | null; start_line: number; end_line: number }[]
  ).map((s) => ({
    name: s.name,
    kind: s.kind,
    container: s.container,
    signature: s.signature,
    startLine: s.start_line,
    endLine: s.end_line,
  }));
  const end = offset + symbols.length;
  let imports: string[] = [];
  try {
    imports = JSON.parse(file.imports) as string[];
  } catch {
    // A malformed imports column is an indexer bug; the outline still serves the symbols.
    console.error("malformed files.imports", snap.id, input.path);
  }
  return {
    repo: snap.id,
    path: input.path,
    ref: snap.ref,
    commit: snap.commit,
    language: file.language,
    totalLines: file.line_count,
    imports: offset === 0 ? imports : [],
    symbols,
    total_count: total,
    has_more: end < total,
    next_offset: end < total ? end : null,
  };
}
