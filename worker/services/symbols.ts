/**
 * @module worker/services/symbols
 *
 * `findSymbol`: definitions from the symbol table of active snapshots, exact matches first, then
 * case-insensitive, then prefix; members for class-like kinds; suggestions when nothing matches.
 * References live in worker/services/symbols-references.ts. REST (worker/api/routes/symbols.ts) and
 * MCP (worker/mcp/tools/find-symbol.ts) share the schemas below.
 */
import { z } from "zod";
import { tokenize } from "../../indexer/store/contract";
import type { ServiceContext } from "./context";
import { likeEscape } from "../search/filters";
import { repoIdSchema } from "./files";
import { refSchema, snapshotRefField, withoutRefField, type RefSnapshot } from "./refs";
import { activeSnapshotJoin, reposInScope, snapshotParam, type SymbolScope } from "./symbols-scope";
import { compareText, readPerShard } from "./shard-reads";
import { paramsMatch, parseQualifiedName, qualifierMatch, type QualifiedName } from "./symbols-qualified";

/** Most definitions one call returns. */
export const FIND_SYMBOL_MAX_RESULTS = 50;
/** Most members listed per class-like definition. */
export const SYMBOL_MAX_MEMBERS = 50;
/** Most suggestions offered when nothing matches. */
const MAX_SUGGESTIONS = 8;
/** Candidate names ranked by edit distance when building suggestions. */
const SUGGESTION_CANDIDATES = 200;
/** Kinds whose definitions list their members. */
const CLASS_LIKE_KINDS = new Set(["class", "interface", "struct", "trait", "enum", "module"]);

/** Symbol kinds the chunkers record (SymbolDef.kind in indexer/store/contract.ts). */
export const symbolKindSchema = z.enum([
  "function",
  "method",
  "constructor",
  "class",
  "interface",
  "struct",
  "trait",
  "enum",
  "type",
  "module",
  "section",
  "window",
  "field",
  "variable",
  "constant",
]);

/** Input of `findSymbol`. Without `repo`, every repo the caller may see is searched. */
export const findSymbolInput = z.object({
  name: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "Symbol name, e.g. getUserById or UserService, or qualified as printed: InvoiceFormatter.format, Class#method, pkg.Func, module::item, " +
        "Namespace.Class.Method; a parameter list picks an overload: format(Invoice, Locale). Exact matches rank first, then case-insensitive, then prefix.",
    ),
  kind: symbolKindSchema.optional().describe("Only definitions of this kind."),
  repo: repoIdSchema.optional().describe("Only this repo; default every repo you can see."),
  ref: refSchema.optional(),
  limit: z.number().int().min(1).max(FIND_SYMBOL_MAX_RESULTS).optional().describe("Most definitions to return. Default 20."),
});
export type FindSymbolInput = z.infer<typeof findSymbolInput>;

/** A member of a class-like definition. */
export const symbolMemberSchema = z.object({
  name: z.string(),
  kind: z.string(),
  signature: z.string().nullable(),
  startLine: z.number().int(),
  endLine: z.number().int(),
});

/** One definition; lines are 1-based and inclusive. */
export const symbolDefSchema = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  path: z.string(),
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  signature: z.string().nullable(),
  doc: z.string().nullable(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  chunkId: z.string().nullable(),
  match: z.enum(["exact", "case_insensitive", "prefix"]),
  members: z.array(symbolMemberSchema).optional(),
});
export type SymbolDefResult = z.infer<typeof symbolDefSchema>;

/** Output of `findSymbol`. `suggestions` holds near-miss names when `symbols` is empty. */
export const findSymbolOutput = z.object({
  symbols: z.array(symbolDefSchema),
  has_more: z.boolean().describe("More definitions matched than `limit`; narrow with kind or repo, or raise limit."),
  suggestions: z.array(z.string()),
  withoutRef: withoutRefField,
});
export type FindSymbolOutput = z.infer<typeof findSymbolOutput>;

const SYMBOL_COLUMNS = "s.repo, s.file_id, s.path, s.name, s.kind, s.container, s.signature, s.doc, s.start_line, s.end_line, s.chunk_id";
/** Definitions of one name examined for a qualified match (overloads across a repo are far fewer). */
const QUALIFIED_CANDIDATES = 500;

interface SymbolRow {
  repo: string;
  file_id: string;
  path: string;
  name: string;
  kind: string;
  container: string | null;
  signature: string | null;
  doc: string | null;
  start_line: number;
  end_line: number;
  chunk_id: string | null;
  tier: number;
}

/**
 * Definitions named like `name`: exact (case-sensitive) first, then case-insensitive, then
 * prefix; shorter names and then path order within a tier. Class-like definitions carry their
 * members. When nothing matches, `suggestions` lists near-miss names (substring, then edit
 * distance over names sharing a word part). Throws `repo_not_found` / `index_not_ready` for
 * a named repo.
 */
export async function findSymbol(ctx: ServiceContext, input: FindSymbolInput): Promise<FindSymbolOutput> {
  const scope = await reposInScope(ctx, input.repo, input.ref);
  const limit = input.limit ?? 20;
  const qualified = parseQualifiedName(input.name);
  const withRefs = (out: FindSymbolOutput): FindSymbolOutput => (scope.withoutRef.length ? { ...out, withoutRef: scope.withoutRef } : out);
  if (!qualified) return withRefs(await findByName(ctx, scope, input.name, input.kind, limit));
  const found = await findQualified(ctx, scope, qualified, input.kind, limit);
  if (found.symbols.length) return withRefs(found);
  // A name that merely contains a dot (a heading, say) may still be a literal symbol name.
  const literal = await findByName(ctx, scope, input.name, input.kind, limit);
  return withRefs(literal.symbols.length ? literal : found);
}

/** Definitions whose name is `name` or starts with it (the three tiers of findSymbol). */
async function findByName(ctx: ServiceContext, scope: SymbolScope, name: string, kind: string | undefined, limit: number): Promise<FindSymbolOutput> {
  const lower = name.toLowerCase();
  const dbs = new Map<string, D1Database>();
  // Prefix as a range on name_lower so the (repo, name_lower) index serves it.
  const results = await readPerShard(
    ctx,
    scope.repos,
    async (db, part) => {
      for (const r of part) dbs.set(r, db);
      return (
        await db
          .prepare(
            `SELECT ${SYMBOL_COLUMNS}, CASE WHEN s.name = ?2 THEN 0 WHEN s.name_lower = ?3 THEN 1 ELSE 2 END AS tier
       FROM symbols s ${activeSnapshotJoin("s", "?1")}
         AND s.name_lower >= ?3 AND s.name_lower < ?4 AND (?5 IS NULL OR s.kind = ?5)
       ORDER BY tier, length(s.name), s.repo, s.path, s.start_line LIMIT ?6`,
          )
          .bind(snapshotParam(scope, part), name, lower, `${lower}\u{10FFFF}`, kind ?? null, limit + 1)
          .all<SymbolRow>()
      ).results;
    },
    {
      compare: (a, b) =>
        a.tier - b.tier || [...a.name].length - [...b.name].length || compareText(a.repo, b.repo) || compareText(a.path, b.path) || a.start_line - b.start_line,
      limit: limit + 1,
    },
  );
  const rows = results.slice(0, limit);
  const symbols = await Promise.all(rows.map((r) => withMembers(dbs.get(r.repo)!, r, scope.commits.get(r.repo)!)));
  const suggestions = symbols.length ? [] : await suggestNames(ctx, scope, name);
  return { symbols, has_more: results.length > limit, suggestions };
}

/**
 * Definitions named `q.member` whose container, namespace or module is `q.qualifier` (see
 * qualifierMatch), and whose parameters are `q.params` when given. Exact when name and
 * qualifier match case-sensitively. When none match, suggestions are the qualified names
 * (with signatures when a parameter list was asked) of the definitions named `q.member`.
 */
async function findQualified(ctx: ServiceContext, scope: SymbolScope, q: QualifiedName, kind: string | undefined, limit: number): Promise<FindSymbolOutput> {
  const dbs = new Map<string, D1Database>();
  const results = await readPerShard(
    ctx,
    scope.repos,
    async (db, part) => {
      for (const r of part) dbs.set(r, db);
      return (
        await db
          .prepare(
            `SELECT ${SYMBOL_COLUMNS}, CASE WHEN s.name = ?2 THEN 0 ELSE 1 END AS tier,
       (SELECT o.container FROM symbols o WHERE o.repo = s.repo AND o.file_id = s.file_id AND o.name = s.container
          AND o.start_line <= s.start_line AND o.end_line >= s.end_line ORDER BY o.end_line - o.start_line LIMIT 1) AS outer_container
       FROM symbols s ${activeSnapshotJoin("s", "?1")} AND s.name_lower = ?3 AND (?4 IS NULL OR s.kind = ?4)
       ORDER BY tier, s.repo, s.path, s.start_line LIMIT ?5`,
          )
          .bind(snapshotParam(scope, part), q.member, q.member.toLowerCase(), kind ?? null, QUALIFIED_CANDIDATES)
          .all<SymbolRow & { outer_container: string | null }>()
      ).results;
    },
    {
      compare: (a, b) => a.tier - b.tier || compareText(a.repo, b.repo) || compareText(a.path, b.path) || a.start_line - b.start_line,
      limit: QUALIFIED_CANDIDATES,
    },
  );
  let matched: (SymbolRow & { via: string })[] = [];
  for (const r of results) {
    if (q.params && !paramsMatch(q.params, r.signature)) continue;
    const exact = r.tier === 0 ? qualifierMatch(q, r, r.outer_container, true) : null;
    const via = exact ?? qualifierMatch(q, r, r.outer_container, false);
    if (via) matched.push({ ...r, tier: exact ? 0 : 1, via });
  }
  // A class named like the qualifier beats a file named like it (Calculator.Compute vs calculator.go).
  if (matched.some((m) => m.via === "container")) matched = matched.filter((m) => m.via === "container");
  matched.sort((a, b) => a.tier - b.tier);
  const symbols = await Promise.all(matched.slice(0, limit).map((r) => withMembers(dbs.get(r.repo)!, r, scope.commits.get(r.repo)!)));
  let suggestions: string[] = [];
  if (!symbols.length) {
    const named = results.map((r) => `${r.container ? `${r.container}.` : ""}${r.name}${q.params && r.signature ? ` — ${r.signature}` : ""}`);
    suggestions = named.length ? [...new Set(named)].slice(0, MAX_SUGGESTIONS) : await suggestNames(ctx, scope, q.member);
  }
  return { symbols, has_more: matched.length > limit, suggestions };
}

/** `r` as a result of snapshot `snap`, with its members when it is class-like (read from `db`, the shard of `r.repo`). */
async function withMembers(db: D1Database, r: SymbolRow, snap: RefSnapshot): Promise<SymbolDefResult> {
  const def: SymbolDefResult = {
    repo: r.repo,
    ref: snap.ref,
    commit: snap.commit,
    path: r.path,
    name: r.name,
    kind: r.kind,
    container: r.container,
    signature: r.signature,
    doc: r.doc,
    startLine: r.start_line,
    endLine: r.end_line,
    chunkId: r.chunk_id,
    match: r.tier === 0 ? "exact" : r.tier === 1 ? "case_insensitive" : "prefix",
  };
  if (!CLASS_LIKE_KINDS.has(r.kind)) return def;
  const { results } = await db
    .prepare(
      `SELECT name, kind, signature, start_line, end_line FROM symbols
     WHERE repo = ?1 AND file_id = ?2 AND container = ?3 AND start_line >= ?4 AND end_line <= ?5 AND NOT (start_line = ?4 AND end_line = ?5 AND name = ?3)
     ORDER BY start_line LIMIT ?6`,
    )
    .bind(r.repo, r.file_id, r.name, r.start_line, r.end_line, SYMBOL_MAX_MEMBERS)
    .all<{ name: string; kind: string; signature: string | null; start_line: number; end_line: number }>();
  def.members = results.map((m) => ({ name: m.name, kind: m.kind, signature: m.signature, startLine: m.start_line, endLine: m.end_line }));
  return def;
}

/** Near-miss names: names containing the query, else names sharing a word part, by edit distance. */
async function suggestNames(ctx: ServiceContext, scope: SymbolScope, name: string): Promise<string[]> {
  const lower = name.toLowerCase();
  // tokenize gives the whole identifier, then its camelCase/snake_case parts.
  const parts = tokenize(name)
    .slice(1)
    .filter((p) => p.length >= 3 && p !== lower);
  const patterns = [lower, ...new Set(parts)].slice(0, 5);
  const candidates = new Set<string>();
  for (const p of patterns) {
    // No ORDER BY: any SUGGESTION_CANDIDATES names do; they are ranked by edit distance below.
    const results = (
      await readPerShard(ctx, scope.repos, async (db, part) => {
        const r = await db
          .prepare(`SELECT DISTINCT s.name FROM symbols s ${activeSnapshotJoin("s", "?1")} AND s.name_lower LIKE ?2 ESCAPE '\\' LIMIT ?3`)
          .bind(snapshotParam(scope, part), `%${likeEscape(p)}%`, SUGGESTION_CANDIDATES)
          .all<{ name: string }>();
        return r.results;
      })
    ).slice(0, SUGGESTION_CANDIDATES);
    for (const r of results) candidates.add(r.name);
    // Names that contain the whole query are the best suggestions; stop there.
    if (p === lower && candidates.size > 0) break;
  }
  return [...candidates]
    .map((c) => ({ c, d: editDistance(lower, c.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.c.length - b.c.length || a.c.localeCompare(b.c))
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.c);
}

/** Levenshtein distance (unit costs), O(|a|·|b|) time, O(|b|) memory. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
