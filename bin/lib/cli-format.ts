/**
 * Human output of the `codebase-copilot` CLI. Pure: each function turns an API answer into lines.
 */
import type { AskAnswer, GrepPage, RepoStatus, ReviewResult, ScheduleTicks, SearchHit, TokenInfo } from "./api-client.ts";
import { progressLabel } from "./progress.ts";

/** Lines of a snippet shown per search result. */
export const SNIPPET_PREVIEW_LINES = 6;

function age(at: number | string | undefined): string {
  if (at === undefined) return "";
  const ms = Date.now() - (typeof at === "number" ? at : Date.parse(at));
  if (!Number.isFinite(ms)) return "";
  const m = Math.round(ms / 60_000);
  return m < 60 ? `${m} min ago` : m < 2880 ? `${Math.round(m / 60)} h ago` : `${Math.round(m / 1440)} days ago`;
}

/** One line per repo: `hono  ready  abc1234 (5 min ago)  470 files, 2527 chunks`. */
export function formatRepoLine(r: RepoStatus): string {
  const snap = r.snapshot ? `${r.snapshot.commit.slice(0, 12)} (${age(r.snapshot.indexedAt)})` : "no snapshot yet";
  const index = r.index ? `${r.index.files} files, ${r.index.chunks} chunks` : "";
  return [r.id, r.status, snap, index].filter(Boolean).join("  ");
}

function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

/** The scheduled work (git polling, connection syncs) in a line: last tick and next, or that none ran yet. */
export function formatSchedule(s: ScheduleTicks | null): string {
  if (!s) return "scheduled checks: no tick yet (the Cron Trigger runs them; under npm start, its local ticker)";
  const next = s.nextTickAt ? `, next ${utc(s.nextTickAt)}` : "";
  return `scheduled checks: last tick ${utc(s.lastTickAt)} (${age(s.lastTickAt) || "just now"})${next}${s.cron ? ` [${s.cron}]` : ""}`;
}

/** A repo's status in a few lines: state, snapshot, progress of a running job, last error. */
export function formatRepoStatus(r: RepoStatus): string {
  const lines = [`${r.id}: ${r.status}${r.url ? `  (${r.url}${r.ref ? ` @ ${r.ref}` : ""})` : ""}`];
  lines.push(
    r.snapshot
      ? `  serving ${r.snapshot.commit} indexed ${age(r.snapshot.indexedAt)}${r.index ? `: ${r.index.files} files, ${r.index.chunks} chunks` : ""}`
      : "  no snapshot yet: search finds nothing in this repo until the first job ends",
  );
  if (r.status !== "ready" && r.status !== "failed") lines.push(`  job: ${progressLabel(r)}`);
  const skipped = Object.entries(r.skipped ?? {}).filter(([, n]) => n > 0);
  if (skipped.length) lines.push(`  skipped: ${skipped.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  if (r.lastError) lines.push(`  last error: ${typeof r.lastError === "string" ? r.lastError : (r.lastError.message ?? r.lastError.code)}`);
  // Tracked refs (docs/refs.md): each with its snapshot's commit, age and state.
  for (const ref of (r.refs ?? []).length > 1 ? r.refs! : []) {
    const at = ref.commit ? `${ref.commit.slice(0, 12)} indexed ${ref.indexedAt ? age(ref.indexedAt) : "?"}` : "no snapshot yet";
    lines.push(`  ref ${ref.name}${ref.default ? " (default)" : ""}: ${at}, ${ref.status}${ref.lastError ? ` (${ref.lastError})` : ""}`);
  }
  if (r.refsNote) lines.push(`  ${r.refsNote}`);
  return lines.join("\n");
}

/** `read at: hono main@0123456789ab, docs commit …`: the snapshot each repo's results came from; "" when the server did not say. */
export function readAt(items: readonly { repo: string; ref?: string | null; commit?: string }[]): string {
  const seen = new Map<string, string>();
  for (const i of items) {
    if (seen.has(i.repo) || !i.commit) continue;
    const sha = i.commit.slice(0, 12);
    seen.set(i.repo, i.ref ? `${i.ref.replace(/^refs\/(heads|tags)\//, "")}@${sha}` : `commit ${sha}`);
  }
  return seen.size ? `read at: ${[...seen].map(([repo, at]) => `${repo} ${at}`).join(", ")}` : "";
}

/** `not searched: small (ref_not_found: ...)`: repos the search left out (`stats.failedRepos`, e.g. without the asked ref); "" when none. */
function notSearched(res: Record<string, unknown>): string {
  const failed = (res.stats as { failedRepos?: { repo: string; error: string }[] } | undefined)?.failedRepos ?? [];
  return failed.length ? `not searched: ${failed.map((f) => `${f.repo} (${f.error})`).join("; ")}` : "";
}

/** Search results: `repo/path:start-end  symbol (kind)` and a short snippet each, then confidence, the snapshots read and the repos left out. */
export function formatSearch(res: { results: SearchHit[] } & Record<string, unknown>): string {
  const skipped = notSearched(res);
  if (res.results.length === 0) {
    const reason = (res.confidence as { reason?: string } | undefined)?.reason;
    return `No results.${reason ? ` ${reason}` : ""}${skipped ? `\n${skipped}` : ""}`;
  }
  const out: string[] = [];
  res.results.forEach((h, i) => {
    out.push(`${i + 1}. ${h.repo}/${h.path}:${h.startLine}-${h.endLine}${h.symbol ? `  ${h.symbol} (${h.kind})` : ""}`);
    const text = (h.snippet ?? h.content ?? "").split("\n").slice(0, SNIPPET_PREVIEW_LINES);
    for (const line of text) out.push(`     ${line}`);
    if (h.explain) out.push(`     why: ${formatExplain(h.explain)}`);
  });
  const c = res.confidence as { level?: string; reason?: string } | undefined;
  if (c?.level) out.push("", `confidence: ${c.level}${c.reason ? ` (${c.reason})` : ""}`);
  const at = readAt(res.results);
  if (at) out.push(at);
  if (skipped) out.push(skipped);
  return out.join("\n");
}

/** One result's `explain` record in a line: `bm25 #1, symbol #2; fused 0.0325; coverage x2, tests x0.5`. */
export function formatExplain(e: NonNullable<SearchHit["explain"]>): string {
  const ranks = Object.entries(e.ranks)
    .map(([channel, rank]) => `${channel} #${rank}`)
    .join(", ");
  const stages = e.stages.filter((s) => s.factor !== 1).map((s) => `${s.stage} x${Number(s.factor.toPrecision(3))}`);
  return `${ranks || "no channel rank"}; fused ${e.fused.toFixed(4)}${stages.length ? `; ${stages.join(", ")}` : ""}`;
}

/** A token table: id, name, scopes, repos, expiry, revoked. */
export function formatTokens(tokens: TokenInfo[]): string {
  if (tokens.length === 0) return "No tokens.";
  const date = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString().slice(0, 10) : "-");
  return tokens
    .map((t) =>
      [
        t.id,
        JSON.stringify(t.name),
        t.scopes.join(","),
        t.repos ? t.repos.join(",") : "all repos",
        `expires ${date(t.expiresAt)}`,
        t.revokedAt ? `revoked ${date(t.revokedAt)}` : "active",
      ].join("  "),
    )
    .join("\n");
}

/** A review of `repo`: status, summary, grounded findings as `file:line`, rejected ones, model cost, the snapshot read. */
export function formatReview(r: ReviewResult, repo: string): string {
  const lines = [r.status === "reviewed" ? `Review: ${r.findings.length} finding(s)` : `Review ${r.status}: ${r.reason ?? ""}`];
  if (r.summary) lines.push("", r.summary);
  for (const f of r.findings) lines.push("", `${f.file}:${f.line}  [${f.severity}] ${f.category}`, `  ${f.issue}`, `  fix: ${f.suggestion}`);
  if (r.rejectedFindings.length) {
    lines.push("", `${r.rejectedFindings.length} finding(s) rejected (not on a real line, not shown as results):`);
    for (const f of r.rejectedFindings) lines.push(`  ${f.file}:${f.line}  ${f.reason}`);
  }
  const tokens = r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens;
  const cost = r.usage.costUsd === null ? "" : `, ~$${r.usage.costUsd.toFixed(4)}`;
  lines.push(
    "",
    `${r.modelCalls} model call(s), ${r.toolCalls.length} tool call(s), ${tokens} input + ${r.usage.outputTokens} output tokens${cost} (${r.model}; ${r.prompts.system.id} v${r.prompts.system.version})`,
  );
  const at = r.scope ? readAt([{ repo, ...r.scope }]) : "";
  if (at) lines.push(at);
  return lines.join("\n");
}

/** Grep matches as ripgrep prints them: `repo/path:line:column:text`, then the count. */
export function formatGrep(page: GrepPage): string {
  const lines = page.matches.map((m) => `${m.repo}/${m.path}:${m.line}:${m.column}:${m.text}`);
  const total = `${page.total_exact ? "" : "at least "}${page.total_count} matching line${page.total_count === 1 ? "" : "s"}`;
  lines.push(
    `${lines.length ? "\n" : ""}${total}${page.has_more ? ` (more: --cursor ${page.next_cursor})` : ""}${page.scan_capped ? "; the scan stopped at its byte budget: narrow it with --path or --language" : ""}`,
  );
  const at = readAt(page.matches);
  if (at) lines.push(at);
  if (page.withoutRef?.length) lines.push(`not searched (without that ref): ${page.withoutRef.join(", ")}`);
  return lines.join("\n");
}

/** An answer: its status, the text, the verified citations and the usage line. */
export function formatAnswer(a: AskAnswer): string {
  const out = [a.status === "answered" ? a.answer : `${a.status}: ${a.reason ?? a.answer}`];
  if (a.citations.length) out.push("", "Citations (verified):", ...a.citations.map((c) => `  [${c.evidence}] ${c.repo}/${c.path}:${c.startLine}-${c.endLine}`));
  if (a.rejectedCitations.length)
    out.push(`(${a.rejectedCitations.length} citation${a.rejectedCitations.length === 1 ? "" : "s"} removed: not in the evidence)`);
  const u = a.usage;
  out.push(
    "",
    `${a.model ?? "no model call"}; tokens in ${u.inputTokens}, out ${u.outputTokens}, cache read ${u.cacheReadTokens}, cache write ${u.cacheWriteTokens}${u.costUsd !== null ? `; about $${u.costUsd.toFixed(4)}` : ""}`,
  );
  return out.join("\n");
}
