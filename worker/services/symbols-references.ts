/**
 * @module worker/services/symbols-references
 *
 * `findReferences`: occurrences of an identifier in the active snapshots. FTS5 finds candidate
 * files cheaply (the tokenizer stores every identifier whole, lowercased), then a case-sensitive
 * whole-word regex over each candidate file's text gives exact lines and columns; the file's
 * syntax tree says what each occurrence is (references-syntax.ts) and, where the code makes it
 * clear, which definition it refers to (references-resolve.ts). `definition` keeps one
 * definition's references. Source first, then tests, then docs.
 */
import { z } from "zod";
import { tokenize } from "../../indexer/store/contract";
import { CodeSearchError } from "../../kernel/errors";
import type { ServiceContext } from "./context";
import { repoIdSchema, splitLines } from "./files";
import { compareReferences, excerpt, roleOf, wordPattern } from "./references-text";
import { resolveOccurrence, type DefRow, type OccurrenceScope } from "./references-resolve";
import { fileImports } from "./references-scope";
import { classifyOccurrences, LEXICAL_KINDS, REFERENCE_KINDS, type SyntaxFacts } from "./references-syntax";
import { activeSnapshotJoin, reposInScope, snapshotParam } from "./symbols-scope";
import { refSchema, snapshotRefField, withoutRefField, type RefSnapshot } from "./refs";
import { chooseDefinitions, wordAndDefinition } from "./references-definition";
import { batchAcross } from "../../indexer/store/shards";
import { compareText, readPerShard } from "./shard-reads";

/** Most candidate files scanned per call; past it `scanCapped` is true and the counts are lower bounds. */
export const REFERENCES_MAX_FILES = 300;
/** Most occurrences returned per page. */
export const REFERENCES_MAX_LIMIT = 100;
/** Files whose text is fetched per D1 round trip. */
const FILES_PER_BATCH = 20;
/** Definitions of one name loaded to resolve occurrences against. */
const DEFINITIONS_MAX = 500;
const CLASS_LIKE = new Set(["class", "interface", "struct", "trait", "enum", "module"]);

/** Input of `findReferences`. */
export const findReferencesInput = z.object({
  symbol: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Identifier to find, matched as a whole word and case-sensitively, e.g. getUserById (a trailing ! or ? is part of the name: compile!, empty?). " +
        "A qualified name (InvoiceFormatter.format) is read as `definition`.",
    ),
  definition: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .describe(
      "Only the references of this definition: a qualified name as find_symbol prints it (InvoiceFormatter.format, format(Invoice, Locale) for one overload) " +
        "or path:line of the definition. Comments, strings, docs and occurrences the code does not attribute are left out.",
    ),
  repo: repoIdSchema.optional().describe("Only this repo; default every repo you can see."),
  ref: refSchema.optional(),
  limit: z.number().int().min(1).max(REFERENCES_MAX_LIMIT).optional().describe("Occurrences per page. Default 20."),
  offset: z.number().int().min(0).optional().describe("Skip this many occurrences (use next_offset from the previous page). Default 0."),
});
export type FindReferencesInput = z.infer<typeof findReferencesInput>;

/** A definition an occurrence refers to. */
export const referredDefinitionSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  container: z.string().nullable(),
  signature: z.string().nullable(),
});

/** One occurrence. `line` and `column` are 1-based; `column` counts UTF-16 code units. */
export const referenceSchema = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string().describe("The line (cut around the match when long)."),
  definition: z.boolean().describe("This occurrence is the name of a definition of the symbol."),
  kind: z.enum(REFERENCE_KINDS).describe("From the syntax tree: definition, call, import, type, reference; comment, string or text (no grammar) are lexical."),
  lexical: z.boolean().describe("Only a textual match (comment, string, or a file without a grammar): nothing in the code refers to a definition here."),
  refersTo: z
    .array(referredDefinitionSchema)
    .nullable()
    .describe(
      "The definitions this occurrence refers to, where the receiver, import or scope makes it clear; [] = something outside the index; null = cannot tell.",
    ),
  via: z.string().nullable().describe("How refersTo was decided, e.g. `formatter: InvoiceFormatter`, `import from ./pricing/discount`."),
  role: z.enum(["source", "test", "docs"]).describe("Results come source first, then tests, then docs."),
  enclosing: z.object({ name: z.string(), kind: z.string(), container: z.string().nullable() }).nullable(),
});
export type Reference = z.infer<typeof referenceSchema>;

/** Output of `findReferences`, ordered by role (source, test, docs), then repo, path, line, column. */
export const findReferencesOutput = z.object({
  symbol: z.string(),
  definitions: z
    .array(referredDefinitionSchema)
    .describe("With `definition`: the definitions it named (overloads included unless a parameter list picked one)."),
  unattributed: z.number().int().describe("With `definition`: code occurrences of the word left out because the code does not say which definition they use."),
  references: z.array(referenceSchema),
  total_count: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  filesScanned: z.number().int(),
  scanCapped: z
    .boolean()
    .describe(`More than ${REFERENCES_MAX_FILES} files mention the word; only the first ones (by repo, path) were scanned. Narrow with repo.`),
  withoutRef: withoutRefField,
});
export type FindReferencesOutput = z.infer<typeof findReferencesOutput>;

interface CandidateFile {
  repo: string;
  file_id: string;
  path: string;
  language: string;
}

interface SymbolSpan {
  name: string;
  kind: string;
  container: string | null;
  start_line: number;
  end_line: number;
}

/**
 * Occurrences of `symbol` (or of `definition`'s name, kept to that definition's references),
 * paginated by `limit` (default 20) and `offset`. Throws `invalid_input` when the symbol is not
 * an identifier or neither is given, `not_found` when `definition` names no definition;
 * `repo_not_found` / `index_not_ready` for a named repo.
 */
export async function findReferences(ctx: ServiceContext, input: FindReferencesInput): Promise<FindReferencesOutput> {
  const { word, definition } = wordAndDefinition(input);
  const token = tokenize(word)[0];
  if (!token) throw new CodeSearchError("invalid_input", `"${word}" has no letters or digits; pass an identifier.`);
  const scope = await reposInScope(ctx, input.repo, input.ref);
  const repos = scope.repos;
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const defs = await readPerShard(
    ctx,
    repos,
    async (db, part) =>
      (
        await db
          .prepare(
            `SELECT s.repo, s.path, s.name, s.kind, s.container, s.signature, s.start_line, s.end_line FROM symbols s ${activeSnapshotJoin("s", "?1")} AND s.name = ?2
       ORDER BY s.repo, s.path, s.start_line LIMIT ?3`,
          )
          .bind(snapshotParam(scope, part), word, DEFINITIONS_MAX)
          .all<DefRow>()
      ).results,
    { compare: (a, b) => compareText(a.repo, b.repo) || compareText(a.path, b.path) || a.start_line - b.start_line, limit: DEFINITIONS_MAX },
  );
  const chosen = definition === undefined ? null : chooseDefinitions(definition, word, defs);
  const shardOf = new Map<string, D1Database>();
  const candidates = await readPerShard(
    ctx,
    repos,
    async (db, part) => {
      for (const r of part) shardOf.set(r, db);
      return (
        await db
          .prepare(
            `SELECT DISTINCT c.repo, c.file_id, c.path, c.language FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
       ${activeSnapshotJoin("c", "?1")} AND chunks_fts MATCH ?2
       ORDER BY c.repo, c.path LIMIT ?3`,
          )
          .bind(snapshotParam(scope, part), `body : "${token}"`, REFERENCES_MAX_FILES + 1)
          .all<CandidateFile>()
      ).results;
    },
    { compare: (a, b) => compareText(a.repo, b.repo) || compareText(a.path, b.path), limit: REFERENCES_MAX_FILES + 1 },
  );
  const scanCapped = candidates.length > REFERENCES_MAX_FILES;
  const files = candidates.slice(0, REFERENCES_MAX_FILES);
  let all: Reference[] = [];
  for (let i = 0; i < files.length; i += FILES_PER_BATCH) {
    const group = files.slice(i, i + FILES_PER_BATCH);
    const rows = await batchAcross(
      group.flatMap((f) => {
        const db = shardOf.get(f.repo)!;
        return [
          { db, statement: db.prepare("SELECT text FROM files WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id) },
          {
            db,
            statement: db.prepare("SELECT name, kind, container, start_line, end_line FROM symbols WHERE repo = ?1 AND file_id = ?2").bind(f.repo, f.file_id),
          },
        ];
      }),
    );
    for (const [j, f] of group.entries()) {
      const text = (rows[2 * j].results[0] as { text: string } | undefined)?.text ?? "";
      const spans = rows[2 * j + 1].results as unknown as SymbolSpan[];
      all.push(...(await occurrencesIn(f, scope.commits.get(f.repo)!, text, spans, word, defs)));
    }
  }
  all.sort(compareReferences);
  let unattributed = 0;
  if (chosen) {
    const keys = new Set(chosen.map(defKey));
    const inRepo = (repo: string) => defs.filter((d) => d.repo === repo);
    all = all.filter((r) => {
      if (r.lexical) return false;
      if (r.refersTo) return r.refersTo.some((d) => keys.has(`${r.repo}:${d.path}:${d.line}`));
      // The code does not say; keep it only when the chosen ones are all the word's definitions.
      if (inRepo(r.repo).every((d) => keys.has(defKey(d))) && inRepo(r.repo).length > 0) return true;
      unattributed++;
      return false;
    });
  }
  const page = all.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    symbol: word,
    definitions: (chosen ?? []).map(referred),
    unattributed,
    references: page,
    total_count: all.length,
    has_more: end < all.length,
    next_offset: end < all.length ? end : null,
    filesScanned: files.length,
    scanCapped,
    ...(scope.withoutRef.length ? { withoutRef: scope.withoutRef } : {}),
  };
}

function defKey(d: DefRow): string {
  return `${d.repo}:${d.path}:${d.start_line}`;
}

function referred(d: DefRow): z.infer<typeof referredDefinitionSchema> {
  return { path: d.path, line: d.start_line, container: d.container, signature: d.signature };
}

/** Occurrences of `word` in one file: kind from the syntax tree, definition it refers to, enclosing symbol. */
async function occurrencesIn(file: CandidateFile, snap: RefSnapshot, text: string, spans: SymbolSpan[], word: string, allDefs: DefRow[]): Promise<Reference[]> {
  const wordRe = wordPattern(word, file.language);
  const found: { line: number; column: number; lineText: string; start: number }[] = [];
  let offset = 0;
  for (const [i, lineText] of splitLines(text).entries()) {
    for (const m of lineText.matchAll(wordRe)) found.push({ line: i + 1, column: m.index + 1, lineText, start: offset + m.index });
    offset += lineText.length + 1 + (text[offset + lineText.length] === "\r" ? 1 : 0);
  }
  if (!found.length) return [];
  const facts = await classifyOccurrences(
    file.language,
    text,
    found.map((o) => ({ start: o.start, end: o.start + word.length })),
  );
  const imports = fileImports(file.language, text);
  const role = roleOf(file.path, file.language);
  // Definitions of `word`: the first occurrence inside each one's range is its name.
  const defs = spans.filter((s) => s.name === word).map((s) => ({ ...s, seen: false }));
  // The alias of `x as x` is the place of the name before it: listed once.
  return found.flatMap((o, k) => {
    if (facts?.[k]?.sameNameAlias) return [];
    const def = defs.find((d) => !d.seen && d.start_line <= o.line && o.line <= d.end_line);
    if (def) def.seen = true;
    const f: SyntaxFacts = facts?.[k] ?? { kind: "text", receiver: null, receiverCall: null, args: null };
    const kind = def && !LEXICAL_KINDS.has(f.kind) ? "definition" : f.kind;
    const enclosing = enclosingSymbol(spans, o.line, def);
    const scope: OccurrenceScope = {
      word,
      repo: file.repo,
      path: file.path,
      language: file.language,
      text,
      imports,
      line: o.line,
      enclosingClass: enclosingClass(spans, o.line),
    };
    const { refersTo, via } = resolveOccurrence({ ...f, kind }, scope, allDefs);
    const occurrence: Reference = {
      repo: file.repo,
      ref: snap.ref,
      commit: snap.commit,
      path: file.path,
      line: o.line,
      column: o.column,
      text: excerpt(o.lineText, o.column - 1, word.length),
      definition: kind === "definition",
      kind,
      lexical: LEXICAL_KINDS.has(kind),
      refersTo: refersTo ? refersTo.map(referred) : null,
      via,
      role,
      enclosing,
    };
    return [occurrence];
  });
}

/** The class-like symbol a line is in: the innermost class span, or the container of the innermost member span. */
function enclosingClass(spans: SymbolSpan[], line: number): string | null {
  let best: SymbolSpan | undefined;
  for (const s of spans) {
    if (s.start_line > line || s.end_line < line) continue;
    if (!best || s.end_line - s.start_line < best.end_line - best.start_line) best = s;
  }
  if (!best) return null;
  if (CLASS_LIKE.has(best.kind) && best.kind !== "module") return best.name;
  return best.container;
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
