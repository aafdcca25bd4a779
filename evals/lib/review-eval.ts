/**
 * @module evals/lib/review-eval
 *
 * `npm run eval -- --set review` (Node): starts the product from a clean export of the commit
 * with a generation provider (the real Anthropic API when ANTHROPIC_API_KEY is set, else the
 * Anthropic provider pointed at the scripted Messages API server, scenario `review-plumbing`,
 * which the report says measures plumbing only), indexes evals/fixture-repo, posts every diff
 * of evals/sets/review/cases.json to POST /api/review and reports per case: planted defect found
 * (a grounded finding on its file within `window` lines of its line), grounded findings elsewhere
 * (for a reader to mark true or false), findings rejected by grounding, model and tool calls,
 * tokens and estimated cost.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startMessagesApiServer, type MessagesApiServer } from "../../test/messages-api-server.ts";
import { freePort, startSnapshotServer, type DevServer } from "../../scripts/lib/dev-server.ts";
import { ApiClient, ApiError } from "./client.ts";
import { readCorpus } from "./corpus-fs.ts";
import { indexCorpus } from "./evaluate.ts";

/** One case: a diff with a defect planted at `file:line`. */
export interface ReviewCase {
  id: string;
  defect: string;
  file: string;
  line: number;
  window: number;
  diff: string;
}

interface Finding {
  file: string;
  line: number;
  severity: string;
  issue: string;
}

/** What one case produced. */
export interface ReviewRecord {
  id: string;
  status: string;
  found: boolean;
  /** Grounded findings outside the planted window: a reader marks each true or false. */
  otherFindings: Finding[];
  rejected: number;
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  costUsd: number | null;
  error?: string;
}

/** Whether a grounded finding hits the planted defect of `c`. */
export function hitsPlanted(c: ReviewCase, f: { file: string; line: number }): boolean {
  return f.file === c.file && Math.abs(f.line - c.line) <= c.window;
}

/** Reviews every case in order. */
export async function runReviewCases(
  client: ApiClient,
  repo: string,
  cases: ReviewCase[],
  diffDir: string,
): Promise<{ records: ReviewRecord[]; model: string | null }> {
  const records: ReviewRecord[] = [];
  let model: string | null = null;
  for (const c of cases) {
    const diff = readFileSync(join(diffDir, c.diff), "utf8");
    try {
      const r = await client.request<any>("POST", "/api/review", { repo, diff });
      model = r.model;
      const findings = r.findings as Finding[];
      records.push({
        id: c.id,
        status: r.status,
        found: findings.some((f) => hitsPlanted(c, f)),
        otherFindings: findings.filter((f) => !hitsPlanted(c, f)),
        rejected: r.rejectedFindings.length,
        modelCalls: r.modelCalls,
        toolCalls: r.toolCalls.length,
        tokens: r.usage.inputTokens + r.usage.outputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens,
        costUsd: r.usage.costUsd,
      });
    } catch (err) {
      const code = err instanceof ApiError ? (err.code ?? String(err.status)) : "client";
      records.push({
        id: c.id,
        status: "error",
        found: false,
        otherFindings: [],
        rejected: 0,
        modelCalls: 0,
        toolCalls: 0,
        tokens: 0,
        costUsd: null,
        error: code,
      });
    }
  }
  return { records, model };
}

/** The Markdown report. With the scripted provider the found column is not a quality measure and says so. */
export function reviewMarkdown(
  cases: ReviewCase[],
  records: ReviewRecord[],
  meta: { provider: "real" | "scripted"; model: string; commit: string; command: string },
): string {
  const scripted = meta.provider === "scripted";
  const rows = records.map((r, i) => {
    const c = cases[i];
    const found = scripted ? "n/a" : r.found ? "yes" : "no";
    const cost = r.costUsd === null ? "n/a" : `$${r.costUsd.toFixed(4)}`;
    return `| ${c.id} | ${c.file}:${c.line} (±${c.window}) | ${r.status}${r.error ? ` (${r.error})` : ""} | ${found} | ${r.otherFindings.length} | ${r.rejected} | ${r.modelCalls} | ${r.toolCalls} | ${r.tokens} | ${cost} |`;
  });
  const sum = (f: (r: ReviewRecord) => number) => records.reduce((n, r) => n + f(r), 0);
  const cost = records.every((r) => r.costUsd === null) ? "n/a" : `$${sum((r) => r.costUsd ?? 0).toFixed(4)}`;
  const found = scripted ? "n/a" : `${sum((r) => (r.found ? 1 : 0))}/${records.length}`;
  return [
    `### Review set (evals/sets/review, ${records.length} diffs with a planted defect each)`,
    "",
    scripted
      ? "**Plumbing only.** No ANTHROPIC_API_KEY was set, so the scripted Messages API server played the reviewer (it reads the first added lines and flags them). This run measures the loop, the tools, grounding and accounting, not review quality; the found column is not reported."
      : `Model: ${meta.model}. A planted defect counts as found when a grounded finding names its file within the window of its line; other grounded findings are listed for a reader to mark true or false (evals/out/review.json).`,
    "",
    "| case | planted at | status | found | other findings | rejected by grounding | model calls | tool calls | tokens | cost |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    `| **total** | | | ${found} | ${sum((r) => r.otherFindings.length)} | ${sum((r) => r.rejected)} | ${sum((r) => r.modelCalls)} | ${sum((r) => r.toolCalls)} | ${sum((r) => r.tokens)} | ${cost} |`,
    "",
    `Commit ${meta.commit.slice(0, 12)}; \`${meta.command}\`.`,
  ].join("\n");
}

/** Options of `runReviewEval`. */
export interface ReviewEvalOptions {
  root: string;
  commit: string;
  command: string;
  /** Port of the product (default a free one). */
  port?: number;
  /** Port of the scripted Messages API server (default a free one). */
  scriptedPort?: number;
  log: (s: string) => void;
}

/** The whole run: server, indexing, cases and the report. */
export async function runReviewEval(
  o: ReviewEvalOptions,
): Promise<{ provider: "real" | "scripted"; model: string; records: ReviewRecord[]; markdown: string; commit: string }> {
  const setDir = join(o.root, "evals", "sets", "review");
  const set = JSON.parse(readFileSync(join(setDir, "cases.json"), "utf8")) as { repo: string; cases: ReviewCase[] };
  const realKey = process.env.ANTHROPIC_API_KEY;
  let scripted: MessagesApiServer | null = null;
  const secrets: Record<string, string> = {};
  if (realKey) {
    secrets.ANTHROPIC_API_KEY = realKey;
    if (process.env.ANTHROPIC_BASE_URL) secrets.ANTHROPIC_BASE_URL = process.env.ANTHROPIC_BASE_URL;
  } else {
    scripted = await startMessagesApiServer(o.scriptedPort ?? 0);
    secrets.ANTHROPIC_API_KEY = "review-plumbing:review-eval";
    secrets.ANTHROPIC_BASE_URL = scripted.url;
    o.log(`no ANTHROPIC_API_KEY: the scripted Messages API server at ${scripted.url} reviews (plumbing only)`);
  }
  const vars: Record<string, string> = { ASK_DAILY_TOKEN_BUDGET: "1000000000" };
  if (process.env.GENERATION_MODEL) vars.GENERATION_MODEL = process.env.GENERATION_MODEL;
  const stateDir = `/tmp/cc-review-eval-state-${process.pid}`;
  rmSync(stateDir, { recursive: true, force: true });
  let server: DevServer | null = null;
  try {
    const port = o.port ?? (await freePort());
    o.log(`starting the product from a clean export of ${o.commit} on port ${port} ...`);
    server = await startSnapshotServer({
      projectRoot: o.root,
      commit: o.commit,
      port,
      persistTo: stateDir,
      token: "review-eval-token",
      searchLimitPerMinute: 100000,
      vars,
      secrets,
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
    o.log(`indexing evals/fixture-repo as ${set.repo} ...`);
    await indexCorpus(client, set.repo, readCorpus(join(o.root, "evals", "fixture-repo"), "whole"), { pollMs: 250 });
    o.log(`reviewing ${set.cases.length} diffs ...`);
    const { records, model } = await runReviewCases(client, set.repo, set.cases, setDir);
    const provider = realKey ? "real" : "scripted";
    return {
      provider,
      model: model ?? "",
      records,
      markdown: reviewMarkdown(set.cases, records, { provider, model: model ?? "", commit: server.commit, command: o.command }),
      commit: server.commit,
    };
  } finally {
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true });
    await scripted?.close();
  }
}
