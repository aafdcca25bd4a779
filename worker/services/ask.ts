/**
 * @module worker/services/ask
 *
 * Grounded answers: `startAsk(ctx, input)` checks the input, the provider (503
 * `generation_unavailable` when none is configured) and the caller's daily budget (429
 * `budget_exhausted`) and searches; then `run()` refuses below the confidence gate without
 * calling the model, assembles fenced evidence, asks the model (worker/ask/generate-answer.ts) and
 * verifies every citation against the evidence and the repo's active snapshot
 * (worker/ask/verify.ts). REST (worker/api/routes/ask.ts, JSON or SSE) and MCP
 * (worker/mcp/tools/ask-codebase.ts) are thin adapters over it; schemas in ./ask-schema.ts.
 */
import { CodeSearchError } from "../../kernel/errors";
import { estimateCostUsd, type GenerationProvider, type TokenUsage, ZERO_USAGE } from "../../kernel/generation";
import { loadPrompt, type Prompt } from "../../prompts";
import { recordUsage, reserveBudget, settle } from "../ask/budget";
import { ASK_EVIDENCE_MAX_TOKENS, estimateTokens, lineRef, newNonce, renderUserMessage, selectEvidence, type EvidenceItem } from "../ask/evidence";
import { generateAnswer, type AnswerStreamHooks } from "../ask/generate-answer";
import { neutralizeMarkdown, SafeDraft } from "../generation/safe-markdown";
import { verifyAnswer } from "../ask/verify";
import { requireGenerationProvider } from "../generation";
import type { SearchResponse } from "../search/types";
import { askInput, type AskInput, type AskOutput } from "./ask-schema";
import { requireScope, type ServiceContext } from "./context";
import { refColumns, resolveRefs, type RefRepoRow } from "./refs";
import { search, searchInput } from "./search";

/** Test seams: a provider instead of the configured one, and the clock. */
export interface AskDeps {
  provider?: GenerationProvider;
  now?: () => number;
}

/** A checked ask, ready to run. */
export interface PreparedAsk {
  /** Runs the ask; `hooks` receive the draft answer deltas when streaming. */
  run(hooks?: AnswerStreamHooks): Promise<AskOutput>;
  readonly stream: boolean;
}

function parseInput(raw: AskInput) {
  const parsed = askInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "input";
    if (field === "question" && issue?.code !== "too_big")
      throw new CodeSearchError("invalid_input", 'question is required, e.g. {"question": "where are tokens refreshed?", "repo": "hono"}.');
    throw new CodeSearchError("invalid_input", `${field}: ${issue?.message ?? "invalid"}`);
  }
  if (parsed.data.repo !== undefined && parsed.data.repos !== undefined)
    throw new CodeSearchError("invalid_input", "repo, repos: pass repo (one repo) or repos (a list), not both.");
  return parsed.data;
}

/** The commits of `repos` at `ref` (default: their default refs) right now; a repo without one maps to null. */
async function activeCommits(ctx: ServiceContext, repos: string[], ref: string | undefined): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!repos.length) return out;
  const { results } = await ctx.env.DB.prepare(
    `SELECT id, status, active_commit, shard, ${refColumns()} FROM repos WHERE id IN (${repos.map(() => "?").join(", ")})`,
  )
    .bind(...repos)
    .all<RefRepoRow>();
  if (ref === undefined) {
    for (const r of results) out.set(r.id, r.active_commit);
    return out;
  }
  // Archives have no refs: they map to null here; the search reports them.
  const { snapshots } = await resolveRefs(
    ctx,
    results.filter((r) => r.source_kind === "git"),
    ref,
  );
  for (const s of snapshots) out.set(s.id, s.commit);
  return out;
}

function gateReason(s: SearchResponse): string {
  const c = s.confidence;
  const missing = c.missingTerms.length ? ` Evidence was missing for: ${c.missingTerms.slice(0, 10).join(", ")}.` : "";
  return `Not enough evidence in the index to answer (confidence gate: ${c.reason})${missing} The model was not called.`;
}

/**
 * Validates `raw`, resolves the provider, reserves budget and searches; `run()` does the rest
 * and settles the reservation (call `run()` once: an unrun ask keeps its reservation for the day).
 * Throws `invalid_input`, `forbidden`, `generation_unavailable` (503, with the commands that
 * configure a provider), `budget_exhausted` (429 with retryAfterSeconds), and the search's
 * `repo_not_found` / `index_not_ready`, all before any stream opens.
 */
export async function startAsk(ctx: ServiceContext, raw: AskInput, deps: AskDeps = {}): Promise<PreparedAsk> {
  requireScope(ctx.caller, "search");
  const input = parseInput(raw);
  const provider = deps.provider ?? requireGenerationProvider(ctx.env, ctx.config);
  const now = deps.now ?? Date.now;
  const g = ctx.config.generation;
  let prompt: Prompt;
  try {
    prompt = await loadPrompt("answer.system", g.promptVersion);
  } catch (err) {
    throw new CodeSearchError("invalid_input", `ASK_PROMPT_VERSION: ${(err as Error).message}`);
  }
  // The budget reservation, the search and (for named repos) the snapshot read run together, and
  // all before a stream opens: a spent budget (429) or an unknown repo (404) is an HTTP status,
  // and the reservation adds no latency. A spent budget wastes one search, never tokens.
  const started = now();
  const named = input.repos ?? (input.repo ? [input.repo] : null);
  const commitsBeside = named ? activeCommits(ctx, named, input.ref) : null;
  commitsBeside?.catch(() => {}); // awaited later; a failed search must not leave it unhandled
  const searched = search(ctx, searchInput.parse({ q: input.question, repo: input.repo, repos: input.repos, ref: input.ref, k: input.k })).then((r) => ({
    response: r,
    searchMs: now() - started,
  }));
  // One call's tokens are reserved (atomically, worker/ask/budget.ts) and settled to the actual
  // usage when the answer ends; a failed search takes the reservation back at once.
  const estimate = ASK_EVIDENCE_MAX_TOKENS + estimateTokens(prompt.text + input.question) + g.maxOutputTokens;
  const [reserved, found] = await Promise.allSettled([reserveBudget(ctx.env.DB, ctx.caller.id, now(), g.dailyTokenBudget, estimate), searched]);
  if (reserved.status === "rejected") throw reserved.reason;
  const reservation = reserved.value;
  if (found.status === "rejected") {
    await settle(ctx.env.DB, reservation);
    throw found.reason;
  }
  const { response, searchMs } = found.value;
  const answer = async (hooks?: AnswerStreamHooks): Promise<AskOutput> => {
    const promptRef = { id: prompt.id, version: prompt.version, sha256: prompt.sha256 };
    const base = { model: provider.model, provider: provider.name, prompt: promptRef, confidence: response.confidence };
    const finish = (
      o: Omit<AskOutput, "model" | "provider" | "prompt" | "confidence" | "timings" | "usage"> & { usage: TokenUsage; modelMs: number; model?: string },
    ): AskOutput => {
      const totalMs = now() - started;
      const { usage, modelMs, model, ...rest } = o;
      return {
        ...base,
        ...(model ? { model } : {}),
        ...rest,
        // Model-written text leaves the service with images, raw HTML and script links neutralized.
        answer: neutralizeMarkdown(rest.answer),
        reason: rest.reason === null ? null : neutralizeMarkdown(rest.reason),
        usage: { ...usage, costUsd: estimateCostUsd(usage, provider.price) },
        timings: { totalMs, searchMs, modelMs, overheadMs: totalMs - modelMs },
      };
    };
    const evidence = response.confidence.level === "high" ? selectEvidence(response.results) : [];
    // Every search result names its snapshot (worker/services/search.ts).
    const snapOf = new Map(response.results.map((r) => [r.repo, { ref: r.ref ?? null, commit: r.commit ?? "" }]));
    const evidenceOut = (items: EvidenceItem[]) =>
      items.map((e) => ({
        label: e.label,
        repo: e.repo,
        ...snapOf.get(e.repo)!,
        path: e.path,
        startLine: e.startLine,
        endLine: e.endLine,
        lines: lineRef(e.path, e.startLine, e.endLine),
      }));
    if (!evidence.length) {
      return finish({
        status: "refused",
        answer: "",
        reason: gateReason(response),
        citations: [],
        rejectedCitations: [],
        evidence: [],
        usage: ZERO_USAGE,
        modelCalls: 0,
        modelMs: 0,
      });
    }
    const repos = [...new Set(evidence.map((e) => e.repo))];
    const atEvidence = commitsBeside ? await commitsBeside : await activeCommits(ctx, repos, input.ref);
    const nonce = newNonce();
    const generated = await generateAnswer({
      provider,
      prompt,
      userMessage: renderUserMessage(input.question, evidence, nonce),
      maxOutputTokens: g.maxOutputTokens,
      hooks: hooks && safeDraftHooks(hooks),
      // The whole answer's deadline (both calls and their transport retries): twice the per-attempt timeout.
      signal: AbortSignal.timeout(2 * g.timeoutMs),
      onUsage: (u) => recordUsage(ctx.env.DB, ctx.caller.id, now(), u, estimateCostUsd(u, provider.price)),
    });
    if (generated.outcome.kind !== "answer") await generated.recorded;
    const common = {
      evidence: evidenceOut(evidence),
      usage: generated.usage,
      modelCalls: generated.calls,
      modelMs: generated.modelMs,
      model: generated.model,
    };
    const out = generated.outcome;
    if (out.kind === "refusal") return finish({ status: "refused", answer: "", reason: out.reason, citations: [], rejectedCitations: [], ...common });
    if (out.kind === "invalid") return finish({ status: "ungrounded", answer: "", reason: out.reason, citations: [], rejectedCitations: [], ...common });
    const [nowCommits] = await Promise.all([activeCommits(ctx, repos, input.ref), generated.recorded]);
    const snapshots = new Map(repos.map((r) => [r, { atEvidence: atEvidence.get(r) ?? "", now: nowCommits.get(r) ?? null }]));
    const v = verifyAnswer(out.value.answer, out.value.citations, evidence, snapshots);
    if (out.value.status === "insufficient_context") {
      return finish({
        status: "refused",
        answer: v.answer,
        reason: `The model found the evidence insufficient: ${out.value.missing}`,
        citations: v.citations,
        rejectedCitations: v.rejected,
        ...common,
      });
    }
    if (!v.citations.length) {
      return finish({
        status: "ungrounded",
        answer: v.answer,
        reason: `No citation of the answer could be verified against the evidence (${v.rejected.length} rejected); treat the text as unsupported.`,
        citations: [],
        rejectedCitations: v.rejected,
        ...common,
      });
    }
    return finish({ status: "answered", answer: v.answer, reason: null, citations: v.citations, rejectedCitations: v.rejected, ...common });
  };
  return {
    stream: input.stream,
    async run(hooks) {
      try {
        return await answer(hooks);
      } finally {
        await settle(ctx.env.DB, reservation);
      }
    },
  };
}

/** Asks and waits for the whole answer (REST without stream, MCP). */
export async function ask(ctx: ServiceContext, raw: AskInput, deps: AskDeps = {}): Promise<AskOutput> {
  return (await startAsk(ctx, raw, deps)).run();
}

/**
 * Hooks that pass the draft on neutralized (worker/generation/safe-markdown.ts): when a delta
 * completes an image or tag already sent as text, the client gets a reset and the neutralized draft.
 */
function safeDraftHooks(hooks: AnswerStreamHooks): AnswerStreamHooks {
  const draft = new SafeDraft();
  return {
    onDelta(text) {
      const out = draft.push(text);
      if (out.reset) hooks.onReset?.("the draft was rewritten to neutralize an image, raw HTML or a script link");
      if (out.text) hooks.onDelta?.(out.text);
    },
    onReset(reason) {
      draft.clear();
      hooks.onReset?.(reason);
    },
  };
}
