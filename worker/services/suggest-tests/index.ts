/**
 * @module worker/services/suggest-tests
 *
 * `suggestTests`: a test skeleton for one function or method, grounded in the index. Loads the
 * file, its symbol rows, the build files and nearby test files of the active snapshot, then
 * hands plain data to build.ts. Shared by MCP `suggest_tests`, `POST /api/suggest-tests` and the
 * CLI; schemas in worker/services/suggest-tests-schema.ts.
 */
import { CodeSearchError } from "../../../kernel/errors";
import type { GenerationProvider } from "../../../kernel/generation";
import { requireGenerationProvider } from "../../generation";
import { shortRefName } from "../refs";
import { activeRepo, indexDb, loadFile, splitLines, type WireNames } from "../files";
import type { ServiceContext } from "../context";
import { findSymbol } from "../symbols";
import { suggestTestsInput, type SuggestTestsInput, type SuggestTestsOutput } from "../suggest-tests-schema";
import { buildSuggestion, pickTarget } from "./build";
import { familyOf } from "./facts";
import { collaboratorModules, fillSkeleton } from "./fill";
import { configCandidates, testFileCandidates } from "./framework";
import { parseSignature } from "./signature";
import type { SymbolLite } from "./types";

/** Test seam: a provider instead of the configured one. */
export interface SuggestTestsDeps {
  provider?: GenerationProvider;
}

/** Most snapshot paths scanned for existing test files (a bound on one D1 read). */
const MAX_PATHS = 20_000;

/**
 * The suggestion for `input.symbol` in `input.path`, with `fill` (fill.ts) the model-completed
 * test. Throws `generation_unavailable` (503) for `fill` without a provider, `budget_exhausted`
 * (429), `generation_failed` (502); `ref_not_found` (404) for a ref the repo does not track; `invalid_input` (400) for a non-callable symbol or a language without a renderer;
 * `not_found` (404) with suggestions for an unknown symbol; `repo_not_found`, `file_not_found`.
 */
export async function suggestTests(
  ctx: ServiceContext,
  raw: SuggestTestsInput,
  wire: WireNames = "mcp",
  deps: SuggestTestsDeps = {},
): Promise<SuggestTestsOutput> {
  const parsed = suggestTestsInput.safeParse(raw);
  if (!parsed.success) throw new CodeSearchError("invalid_input", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const input = parsed.data;
  // No provider: the same 503 as ask, before anything is read.
  const provider = input.fill ? (deps.provider ?? requireGenerationProvider(ctx.env, ctx.config)) : null;
  const snap = await activeRepo(ctx, input.repo, input.ref);
  const fileRow = await loadFile(ctx, snap, input.path, wire);
  const { results: symRows } = await indexDb(ctx, snap)
    .prepare(
      "SELECT name, kind, container, signature, start_line AS startLine, end_line AS endLine FROM symbols WHERE repo = ?1 AND file_id = ?2 ORDER BY start_line",
    )
    .bind(snap.id, fileRow.file_id)
    .all<SymbolLite>();
  const file = { path: input.path, language: fileRow.language, text: fileRow.text, symbols: symRows, imports: parseImports(fileRow.imports) };
  const targets = pickTarget(file, input.symbol);
  if (!targets.length) {
    const found = await findSymbol(ctx, { name: input.symbol, repo: snap.id, ref: input.ref, limit: 8 });
    const elsewhere = found.symbols.map((s) => `${s.container ? `${s.container}.` : ""}${s.name} (${s.path}:${s.startLine})`);
    const inFile = [...new Set(symRows.filter((s) => ["function", "method"].includes(s.kind)).map((s) => (s.container ? `${s.container}.${s.name}` : s.name)))];
    const hint = elsewhere.length
      ? ` Defined elsewhere: ${elsewhere.join(", ")}.`
      : found.suggestions.length
        ? ` Did you mean: ${found.suggestions.join(", ")}?`
        : "";
    throw new CodeSearchError(
      "not_found",
      `No function or method "${input.symbol}" in ${input.path}.${hint}${inFile.length ? ` Functions in this file: ${inFile.slice(0, 12).join(", ")}.` : ""}`,
      {
        suggestions: [...elsewhere, ...found.suggestions, ...inFile].slice(0, 12),
      },
    );
  }
  const family = familyOf(file.language);
  const { results: pathRows } = await indexDb(ctx, snap)
    .prepare("SELECT path FROM snapshot_files WHERE repo = ?1 AND commit_sha = ?2 LIMIT ?3")
    .bind(snap.id, snap.commit, MAX_PATHS)
    .all<{ path: string }>();
  const paths = pathRows.map((r) => r.path);
  const have = new Set(paths);
  const configPaths = family ? configCandidates(file.path, family).filter((p) => have.has(p)) : [];
  const testPaths = family ? testFileCandidates(paths, family, file.path) : [];
  const load = (list: string[]) => Promise.all(list.map(async (p) => ({ path: p, text: (await loadFile(ctx, snap, p, wire)).text })));
  const [configs, testFiles] = await Promise.all([load(configPaths), load(testPaths)]);
  const out = buildSuggestion(snap.id, file, targets[0], { paths, configs, testFiles, framework: input.framework });
  if (targets.length > 1) {
    const forms = targets.map(
      (t) =>
        `${t.name}(${parseSignature(t.signature, t.name, file.language)
          .params.map((p) => p.type ?? p.name)
          .join(", ")})`,
    );
    out.notes.push(`${targets.length} overloads match; used the first, ${forms[0]}. Name another with its parameter list: ${forms.slice(1).join(", ")}.`);
  }
  out.notes.push(`Built from the indexed snapshot of ${snap.ref ? shortRefName(snap.ref) : "the upload"} (commit ${snap.commit}).`);
  if (provider) {
    const modules = await Promise.all(
      collaboratorModules(out.facts, file.path, have).map(async (p) => ({ path: p, lines: splitLines((await loadFile(ctx, snap, p, wire)).text) })),
    );
    out.fill = await fillSkeleton(ctx, provider, snap, out, splitLines(file.text), targets[0], modules, have);
  }
  return out;
}

/** The files row's `imports` column: a JSON array of import lines (tolerates an empty value). */
function parseImports(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json || "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}
