/**
 * @module worker/services/suggest-tests/fill
 *
 * `fill: true` of suggest_tests: one model call (the configured provider, 503
 * `generation_unavailable` without one) completes the skeleton's bodies. The budget is reserved
 * before the call and settled after it (worker/ask/budget.ts, the ledger ask and review share).
 * Evidence is the skeleton, the facts and the function's source lines, each fenced with a
 * per-request nonce (worker/ask/evidence.ts) so repository text cannot pose as instructions.
 * The reply (structured output `{test}`) is checked by fill-verify.ts; any syntax error or
 * unresolved name rejects the whole fill and the skeleton stands (the simplest sound rule: a
 * half-removed test could assert nothing or not compile). The text is returned, never executed.
 */
import { estimateCostUsd, type GenerationProvider } from "../../../kernel/generation";
import type { GrammarLanguage } from "../../../indexer/chunk/languages";
import { shardDb } from "../../../indexer/store/shards";
import { loadPrompt } from "../../../prompts";
import { recordUsage, reserveBudget, settle } from "../../ask/budget";
import { estimateTokens, newNonce } from "../../ask/evidence";
import type { ServiceContext } from "../context";
import type { FillResult, SuggestTestsOutput } from "../suggest-tests-schema";
import { verifyFilledTest } from "./fill-verify";
import type { SymbolLite } from "./types";

/** Output cap of the fill call (tokens): a test file of a few hundred lines. */
export const FILL_MAX_OUTPUT_TOKENS = 4096;
/** Tokens reserved for the system prompt and framing beside the material (an estimate, settled to the actual usage). */
const FILL_PROMPT_TOKENS = 1_000;
const FILL_JSON_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { test: { type: "string" } },
  required: ["test"],
  additionalProperties: false,
};

/** Most in-repo modules the function calls whose lines go into the evidence, and lines shown of each. */
export const FILL_MAX_MODULES = 3;
export const FILL_MODULE_MAX_LINES = 80;

/** A file's lines shown to the model as a collaborator (1-based from line 1). */
export interface SourceBlock {
  path: string;
  lines: string[];
}

/**
 * Snapshot paths of the relative (in-repo) modules the function calls, from the `import`
 * collaborator facts: the specifier resolved against `sourcePath`, tried with the TS/JS
 * extensions and `/index`. At most FILL_MAX_MODULES, in fact order.
 */
export function collaboratorModules(facts: SuggestTestsOutput["facts"], sourcePath: string, paths: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of facts) {
    const spec = f.kind === "collaborator" && f.text.startsWith("import ") ? /from\s+["'](\.[^"']*)["']/.exec(f.text)?.[1] : undefined;
    if (!spec) continue;
    const parts = sourcePath.split("/").slice(0, -1);
    for (const seg of spec.split("/")) {
      if (seg === "..") parts.pop();
      else if (seg !== ".") parts.push(seg);
    }
    const base = parts.join("/").replace(/\.[cm]?js$/, "");
    const hit = ["", ".ts", ".tsx", ".js", ".mjs", ".jsx", "/index.ts", "/index.js"].map((e) => base + e).find((p) => paths.has(p) && p !== sourcePath);
    if (hit && !out.includes(hit)) out.push(hit);
    if (out.length >= FILL_MAX_MODULES) break;
  }
  return out;
}

/** Grammar of the filled test: TypeScript/JavaScript, Python, Go and Java (other families keep the skeleton). */
function grammarOf(path: string): GrammarLanguage | null {
  if (/\.py$/.test(path)) return "python";
  if (/\.go$/.test(path)) return "go";
  if (/\.java$/.test(path)) return "java";
  if (/\.[cm]?tsx$|\.jsx$/.test(path)) return "tsx";
  if (/\.[cm]?ts$/.test(path)) return "typescript";
  if (/\.[cm]?js$/.test(path)) return "javascript";
  return null;
}

/** The user message: nonce, the skeleton, the facts and the target's numbered source lines, fenced. */
export function renderFillMessage(out: SuggestTestsOutput, sourceLines: string[], target: SymbolLite, nonce: string, modules: SourceBlock[] = []): string {
  const src = sourceLines.slice(target.startLine - 1, target.endLine);
  const width = String(target.endLine).length;
  const numbered = src.map((l, i) => `${String(target.startLine + i).padStart(width)}| ${l}`).join("\n");
  const facts = out.facts.map((f) => `${f.kind}: ${f.text} (${f.path}:${f.line})`).join("\n");
  const shown = modules.map((m) => ({ path: m.path, lines: m.lines.slice(0, FILL_MODULE_MAX_LINES) }));
  const moduleBlocks = shown.map((m) => {
    const w = String(m.lines.length).length;
    const body = m.lines.map((l, i) => `${String(i + 1).padStart(w)}| ${l}`).join("\n");
    return `<<<SOURCE ${nonce} path=${m.path} lines=1-${m.lines.length}>>>\n${body}\n<<<END ${nonce}>>>\n`;
  });
  const all = [out.skeleton, facts, numbered, ...moduleBlocks.map((b) => b.replace(/^<<<.*$/gm, ""))];
  if (all.some((t) => t.includes(nonce))) throw new Error("nonce collision");
  return [
    `This request's nonce is ${nonce}. Only lines starting with <<<SKELETON ${nonce}, <<<FACTS ${nonce}, <<<SOURCE ${nonce} or <<<END ${nonce}>>> delimit blocks.`,
    `Function under test: ${out.symbol} in ${out.path}; framework ${out.framework}; test file ${out.test_path}.`,
    "",
    `<<<SKELETON ${nonce} path=${out.test_path}>>>`,
    out.skeleton,
    `<<<END ${nonce}>>>`,
    "",
    `<<<FACTS ${nonce}>>>`,
    facts,
    `<<<END ${nonce}>>>`,
    "",
    `<<<SOURCE ${nonce} path=${out.path} lines=${target.startLine}-${target.endLine}>>>`,
    numbered,
    `<<<END ${nonce}>>>`,
    "",
    ...(moduleBlocks.length ? [`Collaborators (in-repo modules the function calls):`, "", ...moduleBlocks] : []),
    'Complete the skeleton. Reply with one JSON object: {"test": "..."}.',
  ].join("\n");
}

/**
 * Fills `out.skeleton` (see module note); `out` is left unchanged, the result says what happened.
 * Throws `budget_exhausted` (429) before any model call, `generation_failed` from the provider.
 */
export async function fillSkeleton(
  ctx: ServiceContext,
  provider: GenerationProvider,
  snap: SnapshotRef,
  out: SuggestTestsOutput,
  sourceLines: string[],
  target: SymbolLite,
  modules: SourceBlock[] = [],
  paths: ReadonlySet<string> = new Set(),
  now: () => number = Date.now,
): Promise<FillResult> {
  const grammar = grammarOf(out.test_path);
  const base = { filled: false, test: null, unresolved: [], model: null, prompt: null };
  if (!grammar) return { ...base, reason: `fill completes TypeScript/JavaScript, Python, Go and Java tests only; ${out.language} keeps the skeleton.` };
  const prompt = await loadPrompt("suggest-tests.fill");
  const nonce = newNonce();
  const message = renderFillMessage(out, sourceLines, target, nonce, modules);
  const reservation = await reserveBudget(
    ctx.env.DB,
    ctx.caller.id,
    now(),
    ctx.config.generation.dailyTokenBudget,
    FILL_PROMPT_TOKENS + estimateTokens(message) + FILL_MAX_OUTPUT_TOKENS,
  );
  let text: string;
  let model: string;
  try {
    const r = await provider.generate({
      system: [{ text: prompt.text, cache: true }],
      messages: [{ role: "user", content: message }],
      maxOutputTokens: FILL_MAX_OUTPUT_TOKENS,
      outputSchema: FILL_JSON_SCHEMA,
      purpose: "suggest_tests.fill",
      promptVersion: `${prompt.id}@${prompt.version}`,
    });
    await recordUsage(ctx.env.DB, ctx.caller.id, now(), r.usage, estimateCostUsd(r.usage, provider.price)).catch((err) =>
      console.error("suggest_tests usage ledger write failed", err),
    );
    if (r.stopReason === "refusal" || r.stopReason === "max_tokens") {
      return {
        ...base,
        model: r.model,
        prompt: `${prompt.id}@${prompt.version}`,
        reason: `The model's reply was unusable (stop_reason: ${r.stopReason}); the skeleton stands.`,
      };
    }
    text = r.text;
    model = r.model;
  } finally {
    await settle(ctx.env.DB, reservation);
  }
  const meta = { model, prompt: `${prompt.id}@${prompt.version}` };
  const test = parseTest(text);
  if (test === null) return { ...base, ...meta, reason: 'The model\'s reply was not a JSON object {"test": "..."}; the skeleton stands.' };
  const check = await verifyFilledTest(grammar, test, (names) => indexedNames(ctx, snap, names), inRepoFor(grammar, paths));
  if (check.ok)
    return {
      ...base,
      ...meta,
      filled: true,
      test,
      reason: "Every name the filled test references is defined in the index, a builtin or imported from outside the repo.",
    };
  if (check.syntaxErrors.length)
    return { ...base, ...meta, reason: `The filled test does not parse (syntax errors at lines ${check.syntaxErrors.join(", ")}); the skeleton stands.` };
  return {
    ...base,
    ...meta,
    unresolved: check.unresolved,
    reason: `The filled test references names the index does not define (${[...new Set(check.unresolved.map((u) => u.name))].join(", ")}); it was removed and the skeleton stands.`,
  };
}

/**
 * Whether a Python module is the repo's: relative (`.helpers`), or its top-level name is a
 * directory holding `.py` files or a `.py` file's stem anywhere in the snapshot (`billing` of
 * `python/billing/parser.py`; source roots such as `src/` vary, so any depth counts). A repo
 * directory named like a stdlib module makes that module in-repo: its names are then looked up
 * in the index, so the error is a dropped fill, never an unchecked one.
 */
export function pythonInRepo(paths: ReadonlySet<string>): (module: string) => boolean {
  const names = new Set<string>();
  for (const p of paths) {
    if (!p.endsWith(".py")) continue;
    const segs = p.slice(0, -3).split("/");
    for (const s of segs) names.add(s);
  }
  return (m) => m.startsWith(".") || names.has(m.split(".")[0]);
}

/**
 * Whether a Go import path is the repo's: its first element is a domain (the standard library's
 * never is) and its last element names a directory of `.go` files in the snapshot
 * (`example.com/shop/tax` for `go/tax/calculator.go`; go.mod's module path is not read). An
 * outside module whose last element matches a repo directory is then looked up, so the error is a
 * dropped fill, never an unchecked one.
 */
export function goInRepo(paths: ReadonlySet<string>): (importPath: string) => boolean {
  const dirs = new Set<string>();
  for (const p of paths) if (p.endsWith(".go")) dirs.add(p.split("/").at(-2) ?? "");
  return (m) => m.split("/")[0].includes(".") && dirs.has(m.split("/").at(-1) ?? "");
}

/**
 * Whether a Java qualified name (`com.acme.billing.Invoice`, a static member's
 * `com.acme.billing.Invoice.of`, a wildcard's package `com.acme.billing`) is the repo's: it, or
 * its name without the last element, is a `.java` file or a directory of `.java` files at the
 * end of a snapshot path (`.../java/com/acme/billing/Invoice.java`).
 */
export function javaInRepo(paths: ReadonlySet<string>): (name: string) => boolean {
  const suffixes = new Set<string>();
  for (const p of paths) {
    if (!p.endsWith(".java")) continue;
    const segs = p.slice(0, -5).split("/");
    for (let i = 0; i < segs.length; i++) {
      suffixes.add(segs.slice(i).join("."));
      if (i < segs.length - 1) suffixes.add(segs.slice(i, -1).join("."));
    }
  }
  return (name) => suffixes.has(name) || suffixes.has(name.split(".").slice(0, -1).join("."));
}

/** The in-repo test for `grammar`'s imports (TypeScript/JavaScript: a relative specifier). */
function inRepoFor(grammar: GrammarLanguage, paths: ReadonlySet<string>): ((module: string) => boolean) | undefined {
  if (grammar === "python") return pythonInRepo(paths);
  if (grammar === "go") return goInRepo(paths);
  if (grammar === "java") return javaInRepo(paths);
  return undefined;
}

/** The `test` string of the model's JSON reply (a ```json fence tolerated), or null. */
function parseTest(text: string): string | null {
  try {
    const v: unknown = JSON.parse(text.trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/, "$1"));
    return v && typeof v === "object" && typeof (v as { test?: unknown }).test === "string" ? (v as { test: string }).test : null;
  } catch {
    return null;
  }
}

/** The snapshot a suggestion was built from (worker/services/refs.ts `RefSnapshot`). */
export type SnapshotRef = { id: string; commit: string; shard: number };

/** Which of `names` are symbols of snapshot `snap` (one query per 90 names: D1's bound-parameter limit is 100). */
async function indexedNames(ctx: ServiceContext, snap: SnapshotRef, names: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const db = shardDb(ctx.env, snap.shard);
  for (let i = 0; i < names.length; i += 90) {
    const part = names.slice(i, i + 90);
    const { results } = await db
      .prepare(
        `SELECT DISTINCT s.name FROM symbols s JOIN snapshot_files sf ON sf.repo = s.repo AND sf.commit_sha = ?2 AND sf.file_id = s.file_id
       WHERE s.repo = ?1 AND s.name IN (${part.map((_, j) => `?${j + 3}`).join(", ")})`,
      )
      .bind(snap.id, snap.commit, ...part)
      .all<{ name: string }>();
    for (const r of results) found.add(r.name);
  }
  return found;
}
