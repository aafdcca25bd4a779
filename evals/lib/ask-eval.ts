/**
 * @module evals/lib/ask-eval
 *
 * `npm run eval -- --set ask` (Node): starts the product from a clean export of the commit with
 * a generation provider (the real Anthropic API when ANTHROPIC_API_KEY is set, else the Anthropic
 * provider pointed at the scripted Messages API server of test/messages-api-server.ts, which
 * says so in the report), indexes the fixture repo and the hono corpus (when exported), asks
 * every question of each set through POST /api/ask and scores the answers (./ask-metrics.ts).
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startMessagesApiServer, type MessagesApiServer } from "../../test/messages-api-server.ts";
import { freePort, startSnapshotServer, type DevServer } from "../../scripts/lib/dev-server.ts";
import { ApiClient, ApiError } from "./client.ts";
import { readCorpus } from "./corpus-fs.ts";
import { indexCorpus } from "./evaluate.ts";
import { askMarkdown, summarizeAsk, type AskQuestion, type AskRecord, type AskSummary } from "./ask-metrics.ts";

/** One ask set to run: its repo, the corpus to index and the questions. */
export interface AskSet {
  name: string;
  repo: string;
  corpus: string;
  questions: AskQuestion[];
}

/** The fixture's questions (evals/sets/fixture.json) and the hono ask set, when their corpora exist. */
export function loadAskSets(root: string, corpusRoot: string, log: (s: string) => void): AskSet[] {
  const sets: AskSet[] = [];
  const fixture = JSON.parse(readFileSync(join(root, "evals", "sets", "fixture.json"), "utf8")) as {
    questions: { id: string; category: string; question: string; gold: { file: string }[] }[];
  };
  sets.push({
    name: "fixture",
    repo: "fixture",
    corpus: join(root, "evals", "fixture-repo"),
    questions: fixture.questions.map((q) => ({
      id: q.id,
      category: q.category === "unanswerable" ? "unanswerable" : "answerable",
      question: q.question,
      goldFiles: [...new Set(q.gold.map((g) => g.file))],
    })),
  });
  const hono = JSON.parse(readFileSync(join(root, "evals", "sets", "ask", "hono.json"), "utf8")) as { repo: string; questions: AskQuestion[] };
  const honoCorpus = join(corpusRoot, "hono-28a9c12");
  if (existsSync(honoCorpus)) sets.push({ name: "hono", repo: hono.repo, corpus: honoCorpus, questions: hono.questions });
  else log(`skipping the hono ask set: ${honoCorpus} is missing (export hono at 28a9c12 there; evals/sets/ask/README.md)`);
  return sets;
}

interface AskResponse {
  status: AskRecord["status"];
  answer: string;
  citations: { path: string }[];
  rejectedCitations: unknown[];
  modelCalls: number;
  usage: AskRecord["usage"];
  timings: { totalMs: number; overheadMs: number };
  model: string;
}

/** Asks every question of `set` in order. */
export async function runAskSet(client: ApiClient, set: AskSet): Promise<{ records: AskRecord[]; model: string | null }> {
  const records: AskRecord[] = [];
  let model: string | null = null;
  for (const q of set.questions) {
    try {
      const { body, ms } = await client.requestTimed<AskResponse>("POST", "/api/ask", { question: q.question, repo: set.repo });
      model = body.model;
      records.push({
        id: q.id,
        category: q.category,
        status: body.status,
        modelCalls: body.modelCalls,
        verified: body.citations,
        rejected: body.rejectedCitations.length,
        answer: body.answer,
        usage: body.usage,
        overheadMs: body.timings.overheadMs,
        totalMs: body.timings.totalMs,
        clientMs: ms,
        goldFiles: q.goldFiles,
      });
    } catch (err) {
      const code = err instanceof ApiError ? (err.code ?? String(err.status)) : "client";
      records.push({
        id: q.id,
        category: q.category,
        status: "error",
        error: code,
        modelCalls: 0,
        verified: [],
        rejected: 0,
        answer: "",
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
        overheadMs: 0,
        totalMs: 0,
        clientMs: 0,
        goldFiles: q.goldFiles,
      });
    }
  }
  return { records, model };
}

/** Options of `runAskEval`. */
export interface AskEvalOptions {
  root: string;
  corpusRoot: string;
  commit: string;
  command: string;
  log: (s: string) => void;
}

/** The whole run: server, indexing, sets, summaries and the Markdown report. */
export async function runAskEval(o: AskEvalOptions): Promise<{
  provider: "real" | "scripted";
  model: string;
  sets: { name: string; summary: AskSummary; records: AskRecord[] }[];
  markdown: string;
  commit: string;
}> {
  const realKey = process.env.ANTHROPIC_API_KEY;
  let scripted: MessagesApiServer | null = null;
  const secrets: Record<string, string> = {};
  if (realKey) {
    secrets.ANTHROPIC_API_KEY = realKey;
    if (process.env.ANTHROPIC_BASE_URL) secrets.ANTHROPIC_BASE_URL = process.env.ANTHROPIC_BASE_URL;
  } else {
    scripted = await startMessagesApiServer();
    secrets.ANTHROPIC_API_KEY = "cite:ask-eval";
    secrets.ANTHROPIC_BASE_URL = scripted.url;
    o.log(`no ANTHROPIC_API_KEY: the scripted Messages API server at ${scripted.url} answers (plumbing only)`);
  }
  const vars: Record<string, string> = { ASK_DAILY_TOKEN_BUDGET: "1000000000" };
  if (process.env.GENERATION_MODEL) vars.GENERATION_MODEL = process.env.GENERATION_MODEL;
  const stateDir = `/tmp/cc-ask-eval-state-${process.pid}`;
  rmSync(stateDir, { recursive: true, force: true });
  let server: DevServer | null = null;
  try {
    const port = await freePort();
    o.log(`starting the product from a clean export of ${o.commit} on port ${port} ...`);
    server = await startSnapshotServer({
      projectRoot: o.root,
      commit: o.commit,
      port,
      persistTo: stateDir,
      token: "ask-eval-token",
      searchLimitPerMinute: 100000,
      vars,
      secrets,
    });
    const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
    const sets = loadAskSets(o.root, o.corpusRoot, o.log);
    const out: { name: string; summary: AskSummary; records: AskRecord[] }[] = [];
    let model = "";
    for (const set of sets) {
      o.log(`indexing ${set.corpus} as ${set.repo} ...`);
      await indexCorpus(client, set.repo, readCorpus(set.corpus, "whole"), { pollMs: 250 });
      o.log(`asking ${set.questions.length} questions of ${set.name} ...`);
      const { records, model: m } = await runAskSet(client, set);
      model = m ?? model;
      out.push({ name: set.name, summary: summarizeAsk(records), records });
    }
    const provider = realKey ? "real" : "scripted";
    return { provider, model, sets: out, markdown: askMarkdown(out, { provider, model, commit: server.commit, command: o.command }), commit: server.commit };
  } finally {
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true });
    await scripted?.close();
  }
}
