/**
 * @module worker/services/review
 *
 * Grounded code review: `review(ctx, input)` checks the input (a unified diff, or whole indexed
 * files), the `index` scope, the provider (503 `generation_unavailable`) and the caller's daily
 * model budget (429 `budget_exhausted`, the ledger shared with answers), fences the material
 * into the task prompt, runs the tool-use loop (worker/review/loop.ts) over the registry's
 * read-only tools scoped to the repo, then grounds every submitted finding against the diff's
 * new side or the indexed files (worker/review/ground.ts): only grounded findings are presented,
 * the rest are returned apart with reasons. REST (worker/api/routes/review.ts) and MCP
 * (worker/mcp/tools/review-diff.ts) are thin adapters over it; schemas in ./review-schema.ts.
 */
import { CodeSearchError } from "../../kernel/errors";
import { estimateCostUsd, type GenerationProvider } from "../../kernel/generation";
import { loadPrompt } from "../../prompts";
import { recordUsage, reserveBudget, settle } from "../ask/budget";
import { estimateTokens, newNonce } from "../ask/evidence";
import { requireGenerationProvider } from "../generation";
import { neutralizeMarkdown } from "../generation/safe-markdown";
import type { ToolContext } from "../mcp/tool";
import { parseUnifiedDiff, type DiffFile } from "../review/diff";
import { filesOutsideScope, groundFindings, type ReviewScope } from "../review/ground";
import { runReviewLoop } from "../review/loop";
import { fillTemplate, renderDiffBlock, renderFileBlock, type ReviewFileText } from "../review/render";
import { reviewToolSpecs, runReviewTool } from "../review/tools";
import { requireScope, type ServiceContext } from "./context";
import { activeRepo, loadFile, splitLines, type ActiveRepo } from "./files";
import { reviewInput, type ReviewFinding, type ReviewInput, type ReviewOutput } from "./review-schema";

/** Most lines of one whole file put into the task message; the model reads the rest with read_file. */
export const REVIEW_FILE_MAX_LINES = 1500;
/** Most characters of whole-file text in the task message (about 40k tokens). */
export const REVIEW_FILES_MAX_CHARS = 160_000;
/** Most files outside the review whose line counts are looked up for grounding. */
const GROUND_LOOKUP_MAX_FILES = 50;
/** Tokens reserved for the review prompts and a paths-mode file set beside the diff and the output cap (an estimate; settled to the actual usage). */
const REVIEW_PROMPT_TOKENS = 8_000;

/** Test seams: a provider instead of the configured one, the clock, the loop's guard. */
export interface ReviewDeps {
  provider?: GenerationProvider;
  now?: () => number;
  /** Origin for links in tool results (MCP passes its own). */
  origin?: string;
}

function parseInput(raw: ReviewInput) {
  const parsed = reviewInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || (issue?.code === "unrecognized_keys" ? issue.keys.join(", ") : "input");
    throw new CodeSearchError("invalid_input", `${field}: ${issue?.message ?? "invalid"}`);
  }
  const { repo, ref, diff, paths } = parsed.data;
  if ((diff === undefined) === (paths === undefined)) {
    throw new CodeSearchError(
      "invalid_input",
      'diff, paths: pass exactly one: {"repo": "r", "diff": "<git diff output>"} or {"repo": "r", "paths": ["src/a.ts"]}.',
    );
  }
  return { repo, ref, diff, paths };
}

/** Whole files of the snapshot, within REVIEW_FILE_MAX_LINES and REVIEW_FILES_MAX_CHARS. */
async function loadReviewFiles(ctx: ServiceContext, snap: ActiveRepo, paths: string[]): Promise<ReviewFileText[]> {
  const rows = await Promise.all([...new Set(paths)].map(async (path) => ({ path, row: await loadFile(ctx, snap, path, "rest") })));
  let budget = REVIEW_FILES_MAX_CHARS;
  return rows.map(({ path, row }) => {
    const all = splitLines(row.text);
    const lines: string[] = [];
    for (const l of all.slice(0, REVIEW_FILE_MAX_LINES)) {
      if (l.length + 8 > budget) break;
      budget -= l.length + 8;
      lines.push(l);
    }
    return { path, totalLines: all.length, lines };
  });
}

/** Indexed line counts of `paths` (null when not an indexed file). */
async function indexedLineCounts(ctx: ServiceContext, snap: ActiveRepo, paths: string[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  await Promise.all(
    paths.slice(0, GROUND_LOOKUP_MAX_FILES).map(async (p) => {
      try {
        out.set(p, splitLines((await loadFile(ctx, snap, p)).text).length);
      } catch (err) {
        if (!(err instanceof CodeSearchError && err.code === "file_not_found")) throw err;
        out.set(p, null);
      }
    }),
  );
  return out;
}

function describeDiff(files: DiffFile[]): string {
  return `a diff of ${files.length} file(s): ${files.map((f) => `${f.path} (${f.status})`).join(", ")}.`;
}

/** `value` with every string in it neutralized, same shape (tool arguments echo the model's submission). */
function neutralizeStrings<T>(value: T): T {
  if (typeof value === "string") return neutralizeMarkdown(value) as T;
  if (Array.isArray(value)) return value.map(neutralizeStrings) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, neutralizeStrings(v)])) as T;
  return value;
}

/**
 * Reviews a diff or files (see module note). Throws `invalid_input` (naming the field),
 * `forbidden`, `repo_not_found`, `index_not_ready`, `file_not_found` (paths mode),
 * `generation_unavailable`, `budget_exhausted` or `generation_failed`.
 */
export async function review(ctx: ServiceContext, raw: ReviewInput, deps: ReviewDeps = {}): Promise<ReviewOutput> {
  requireScope(ctx.caller, "index");
  const input = parseInput(raw);
  const diffFiles = input.diff !== undefined ? parseUnifiedDiff(input.diff) : null;
  const provider = deps.provider ?? requireGenerationProvider(ctx.env, ctx.config);
  const now = deps.now ?? Date.now;
  const started = now();
  // One call's tokens are reserved atomically before anything else (worker/ask/budget.ts) and
  // settled to the actual usage at the end, whatever happens in between.
  const estimate = REVIEW_PROMPT_TOKENS + estimateTokens(input.diff ?? "") + ctx.config.review.maxOutputTokens;
  const reservation = await reserveBudget(ctx.env.DB, ctx.caller.id, started, ctx.config.generation.dailyTokenBudget, estimate);
  try {
    return await reviewReserved(ctx, input, diffFiles, provider, now, started, deps);
  } finally {
    await settle(ctx.env.DB, reservation);
  }
}

/** `review` once its budget is reserved. */
async function reviewReserved(
  ctx: ServiceContext,
  input: ReturnType<typeof parseInput>,
  diffFiles: ReturnType<typeof parseUnifiedDiff> | null,
  provider: GenerationProvider,
  now: () => number,
  started: number,
  deps: ReviewDeps,
): Promise<ReviewOutput> {
  const snap = await activeRepo(ctx, input.repo, input.ref);
  const [system, task] = await Promise.all([loadPrompt("review.system"), loadPrompt("review.task")]);
  const nonce = newNonce();
  let scope: ReviewScope;
  let material: string;
  let scopeText: string;
  if (diffFiles) {
    scope = { kind: "diff", files: diffFiles };
    material = diffFiles.map((f) => renderDiffBlock(f, nonce)).join("\n\n");
    scopeText = describeDiff(diffFiles);
  } else {
    const files = await loadReviewFiles(ctx, snap, input.paths!);
    scope = { kind: "paths", files: files.map((f) => ({ path: f.path, totalLines: f.totalLines })) };
    material = files.map((f) => renderFileBlock(f, nonce)).join("\n\n");
    scopeText = `${files.length} whole file(s) of the snapshot: ${files.map((f) => f.path).join(", ")}.`;
  }
  const taskMessage = fillTemplate(task.text, { nonce, repo: snap.id, commit: snap.commit, scope: scopeText, material });
  const tc: ToolContext = { service: ctx, origin: deps.origin ?? "" };
  const loop = await runReviewLoop({
    provider,
    system,
    taskMessage,
    tools: reviewToolSpecs(),
    runTool: (name, args) => runReviewTool(name, args, snap.id, tc, input.ref === undefined ? undefined : (snap.ref ?? undefined)),
    nonce,
    maxModelCalls: ctx.config.review.maxModelCalls,
    maxOutputTokens: ctx.config.review.maxOutputTokens,
    onUsage: (u) => recordUsage(ctx.env.DB, ctx.caller.id, now(), u, estimateCostUsd(u, provider.price)),
    now,
  });
  const submitted = loop.outcome.kind === "submitted" ? loop.outcome.review : null;
  const findings = submitted?.findings ?? [];
  const [indexed] = await Promise.all([indexedLineCounts(ctx, snap, filesOutsideScope(findings, scope)), loop.recorded]);
  const grounded = groundFindings(findings, scope, indexed);
  const ref = (p: typeof system) => ({ id: p.id, version: p.version, sha256: p.sha256 });
  // Model-written text leaves the service with images, raw HTML and script links neutralized
  // (worker/generation/safe-markdown.ts): the PR review posts it to GitHub as Markdown.
  const safe = <F extends ReviewFinding>(f: F): F => ({ ...f, issue: neutralizeMarkdown(f.issue), suggestion: neutralizeMarkdown(f.suggestion) });
  return {
    status: loop.outcome.kind === "submitted" ? "reviewed" : loop.outcome.kind,
    reason: loop.outcome.kind === "submitted" ? null : neutralizeMarkdown(loop.outcome.reason),
    summary: neutralizeMarkdown(submitted?.summary ?? ""),
    findings: grounded.accepted.map(safe),
    rejectedFindings: grounded.rejected.map(safe),
    scope: { kind: scope.kind, files: scope.files.map((f) => f.path), ref: snap.ref, commit: snap.commit },
    toolCalls: loop.toolCalls.map((c) => ({ ...c, arguments: neutralizeStrings(c.arguments) })),
    modelCalls: loop.calls,
    usage: { ...loop.usage, costUsd: estimateCostUsd(loop.usage, provider.price) },
    model: loop.model,
    provider: provider.name,
    prompts: { system: ref(system), task: ref(task) },
    timings: { totalMs: now() - started, modelMs: loop.modelMs, toolMs: loop.toolMs },
  };
}
