/**
 * @module worker/services/symbols-references
 *
 * `findReferences`: whole-word occurrences of an identifier in the active snapshots. FTS5 finds
 * candidate files cheaply (the tokenizer stores every identifier whole, lowercased), then a
 * case-sensitive whole-word regex over each candidate file's text gives exact lines and columns;
 * each occurrence is tagged with its innermost enclosing symbol from the symbol table.
 */
import { z } from "zod";
import { tokenize } from "../../indexer/store/contract";
import { CodeSearchError } from "../../kernel/errors";
import type { ServiceContext } from "./context";
import { repoIdSchema, splitLines } from "./files";
import { activeSnapshotJoin, reposInScope } from "./symbols";

/** Most candidate files scanned per call; past it `scanCapped` is true and the counts are lower bounds. */
export const REFERENCES_MAX_FILES = 300;
/** Most occurrences returned per page. */
export const REFERENCES_MAX_LIMIT = 100;
/** Characters of the matching line returned per occurrence (centred on the match when cut). */
export const REFERENCE_LINE_MAX_CHARS = 240;
/** Files whose text is fetched per D1 round trip. */
const FILES_PER_BATCH = 20;

const IDENTIFIER_RE = /^[\p{L}\p{N}_$]+[!?]?$/u;

/** Input of `findReferences`. */
export const findReferencesInput = z.object({
  symbol: z
    .string()
    .min(1)
    .max(200)
    .describe("Identifier to find, matched as a whole word and case-sensitively, e.g. getUserById (a trailing ! or ? is part of the name: compile!, empty?)."),
  repo: repoIdSchema.optional().describe("Only this repo; default every repo you can see."),
  limit: z.number().int().min(1).max(REFERENCES_MAX_LIMIT).optional().describe("Occurrences per page. Default 20."),
  offset: z.number().int().min(0).optional().describe("Skip this many occurrences (use next_offset from the previous page). Default 0."),
});
export type FindReferencesInput = z.infer<typeof findReferencesInput>;

/** One occurrence. `line` and `column` are 1-based; `column` counts UTF-16 code units. */
export const referenceSchema = z.object({
  repo: z.string(),
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string().describe("The line (cut around the match when long)."),
  definition: z.boolean().describe("This occurrence is the name of a definition of the symbol."),
  enclosing: z.object({ name: z.string(), kind: z.string(), container: z.string().nullable() }).nullable(),
});
export type Reference = z.infer<typeof referenceSchema>;

/** Output of `findReferences`, ordered by repo, path, line, column. */
export const findReferencesOutput = z.object({
  symbol: z.string(),
  references: z.array(referenceSchema),
  total_count: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  filesScanned: z.number().int(),
  scanCapped: z
    .boolean()
    .describe(`More than ${REFERENCES_MAX_FILES} files mention the word; only the first ones (by repo, path) were scanned. Narrow with repo.`),
});
export type FindReferencesOutput = z.infer<typeof findReferencesOutput>;

interface CandidateFile {
  repo: string;
  file_id: string;
  path: string;
  language: string;
}

/**
 * Languages whose method names may end in `!` or `?` (Ruby's `compile!`, `empty?`): there such a
 * suffix makes another name, so `compile` does not match `compile!(x)`. Elsewhere `!` and `?`
 * are operators after a name (Rust's `println!`, TypeScript's `value!` and `a?.b`).
 */
const SUFFIXED_NAME_LANGUAGES: ReadonlySet<string> = new Set(["ruby"]);

/**
 * The whole-word pattern of `word` in a file of `language`: no letter, digit, `_` or `$` on
 * either side, and in SUFFIXED_NAME_LANGUAGES no `!` or `?` after it (unless it starts `!=`).
 */
export function wordPattern(word: string, language: string): RegExp {
  const after = SUFFIXED_NAME_LANGUAGES.has(language) ? "(?![\\p{L}\\p{N}_$]|[!?](?!=))" : "(?![\\p{L}\\p{N}_$])";
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${regexEscape(word)}${after}`, "gu");
}

interface SymbolSpan {
  name: string;
  kind: string;
  container: string | null;
  start_line: number;
  end_line: number;
}

/** Escapes a string for use inside a RegExp. */
function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Whole-word occurrences of `symbol`, paginated by `limit` (default 20) and `offset`.
 * Throws `invalid_input` when `symbol` is not a single identifier; `repo_not_found` /
 * `index_not_ready` for a named repo.
 */
export async function findReferences(ctx: ServiceContext, input: FindReferencesInput): Promise<FindReferencesOutput> {
  const word = input.symbol.trim();
  if (!IDENTIFIER_RE.test(word)) {
    throw new CodeSearchError("invalid_input", `"${input.symbol}" is not a single identifier; pass a name like getUserById (for a.b, pass b).`);
  }
  const token = tokenize(word)[0];
  if (!token) throw new CodeSearchError("invalid_input", `"${input.symbol}" has no letters or digits; pass an identifier.`);
  const repos = await reposInScope(ctx, input.repo);
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const db = ctx.env.DB;
  const { results: candidates } = await db
    .prepare(
      `SELECT DISTINCT c.repo, c.file_id, c.path, c.language FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       ${activeSnapshotJoin("c", "?1")} AND chunks_fts MATCH ?2
       ORDER BY c.repo, c.path LIMIT ?3`,
    )
    .bind(JSON.stringify(repos), `body : "${token}"`, REFERENCES_MAX_FILES + 1)
    .all<CandidateFile>();
  const scanCapped = candidates.length > REFERENCES_MAX_FILES;
  const files = candidates.slice(0, REFERENCES_MAX_FILES);
  const all: Reference[] = [];
  for (let i = 0; i < files.length; i += FILES_PER_BATCH) {
    const group = files.slice(i, i + FILES_PER_BATCH);
    const rows = await db.batch(
      group.flatMap((f) => [
        db.prepare("SELECT text FROM files WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id),
        db.prepare("SELECT name, kind, container, start_line, end_line FROM symbols WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id),
      ]),
    );
    group.forEach((f, j) => {
      const text = (rows[2 * j].results[0] as { text: string } | undefined)?.text ?? "";
      const spans = rows[2 * j + 1].results as SymbolSpan[];
      all.push(...occurrencesIn(f, text, spans, word, wordPattern(word, f.language)));
    });
  }
  const page = all.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    symbol: word,
    references: page,
    total_count: all.length,
    has_more: end < all.length,
    next_offset: end < all.length ? end : null,
    filesScanned: files.length,
    scanCapped,
  };
}

/** Occurrences of `word` in one file, with enclosing symbols and definition flags. */
function occurrencesIn(file: CandidateFile, text: string, spans: SymbolSpan[], word: string, wordRe: RegExp): Reference[] {
  const out: Reference[] = [];
  // Definitions of `word`: the first occurrence inside each one's range is its name.
  const defs = spans.filter((s) => s.name === word).map((s) => ({ ...s, seen: false }));
  splitLines(text).forEach((lineText, i) => {
    const line = i + 1;
    for (const m of lineText.matchAll(wordRe)) {
      const def = defs.find((d) => !d.seen && d.start_line <= line && line <= d.end_line);
      if (def) def.seen = true;
      out.push({
        repo: file.repo,
        path: file.path,
        line,
        column: m.index + 1,
        text: excerpt(lineText, m.index, word.length),
        definition: !!def,
        enclosing: enclosingSymbol(spans, line, def),
      });
    }
  });
  return out;
}

/** The innermost symbol whose range holds `line`, other than the definition being named there. */
function enclosingSymbol(spans: SymbolSpan[], line: number, self: SymbolSpan | undefined): Reference["enclosing"] {
  let best: SymbolSpan | undefined;
  for (const s of spans) {
    if (s.start_line > line || s.end_line < line) continue;
    if (self && s.name === self.name && s.start_line === self.start_line && s.end_line === self.end_line) continue;
    if (!best || s.end_line - s.start_line < best.end_line - best.start_line) best = s;
  }
  return best ? { name: best.name, kind: best.kind, container: best.container } : null;
}

/** The line trimmed, or a REFERENCE_LINE_MAX_CHARS window around the match marked with `…`. */
function excerpt(line: string, at: number, len: number): string {
  const t = line.trim();
  if (t.length <= REFERENCE_LINE_MAX_CHARS) return t;
  const from = Math.max(0, Math.min(at - Math.floor((REFERENCE_LINE_MAX_CHARS - len) / 2), line.length - REFERENCE_LINE_MAX_CHARS));
  return `${from > 0 ? "…" : ""}${line.slice(from, from + REFERENCE_LINE_MAX_CHARS)}${from + REFERENCE_LINE_MAX_CHARS < line.length ? "…" : ""}`;
}
