/**
 * The evaluation runner: `npm run eval -- --set fixture|hono-50|swebench|polyglot|reports|unanswerable [options]`.
 *
 * Talks to a running instance only over REST (base URL and token), so the same command
 * measures the local and a deployed configuration. Given a corpus it indexes it through the
 * product first (tar.gz upload). Writes JSON to `--out` and, with `--write-readme`, this set's
 * generated blocks (the full tables in docs/evaluation.md and, for a default run, the README's
 * summary: evals/lib/doc-blocks.ts); `--readme-from` writes them from a saved run's JSON without
 * running again. Options: see `USAGE` below or `--help`. The sets run in evals/lib: retrieval
 * sets in run-retrieval.ts, the SWE-bench block in swe-blocks.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { runAskEval } from "./lib/ask-eval.ts";
import { runReviewEval } from "./lib/review-eval.ts";
import { ApiClient } from "./lib/client.ts";
import { evalBlockWrites } from "./lib/doc-blocks.ts";
import { replaceBlock } from "./lib/readme.ts";
import { USAGE } from "./lib/run-usage.ts";
import { parseSwebench, pickInstanceIds, pickInstances } from "./lib/sets.ts";
import { multifileBlock, runMultifileEval } from "./lib/multifile-eval.ts";
import { runMultilingualEval } from "./lib/multilingual-run.ts";
import type { RunContext, RunOutput } from "./lib/run-context.ts";
import { runRetrieval, runSetDir } from "./lib/run-retrieval.ts";
import { runSwebench } from "./lib/swebench.ts";
import { mergeSwe, sweMarkdown } from "./lib/swe-blocks.ts";
import type { SearchVariant } from "./lib/types.ts";
import { ABLATION_VARIANTS } from "./lib/variants.ts";
import { rankedByLabel, ruleMoves, ruleMovesMarkdown, ruleVariants, type SavedRun } from "./lib/rule-ablation.ts";

const args = parseCli(USAGE, {
  set: { type: "string" },
  "base-url": { type: "string", default: "http://127.0.0.1:8787" },
  token: { type: "string" },
  corpus: { type: "string" },
  "corpus-root": { type: "string", default: "/tmp/cc-corpora" },
  repo: { type: "string" },
  include: { type: "string", default: "both" },
  mode: { type: "string" },
  "per-file-cap": { type: "string" },
  channels: { type: "string" },
  ablation: { type: "boolean", default: false },
  "disable-rule": { type: "string" },
  k: { type: "string" },
  explain: { type: "boolean", default: false },
  repos: { type: "string" },
  "per-repo": { type: "string", default: "20" },
  instances: { type: "string" },
  "bench-dir": { type: "string" },
  out: { type: "string" },
  "write-readme": { type: "boolean", default: false },
  "readme-from": { type: "string" },
  merge: { type: "string" },
  commit: { type: "string" },
});

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
if (!args.set || !["fixture", "hono-50", "swebench", "multifile", "polyglot", "reports", "unanswerable", "multilingual", "ask", "review"].includes(args.set)) {
  console.error(
    `error: --set must be fixture, hono-50, swebench, multifile, polyglot, reports, unanswerable, multilingual, ask or review${args.set ? `, got "${args.set}"` : ""}\n\n${USAGE}`,
  );
  process.exit(2);
}
if (args.set === "ask") {
  const command = `npm run eval -- ${process.argv.slice(2).join(" ")}`;
  const run = await runAskEval({
    root: ROOT,
    corpusRoot: resolve(args["corpus-root"]!),
    commit: args.commit ?? "HEAD",
    command,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  const outPath = resolve(args.out ?? join(ROOT, "evals", "out", "ask.json"));
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, JSON.stringify({ set: "ask", date: new Date().toISOString(), ...run }, null, 2));
  console.log(run.markdown);
  process.stderr.write(`wrote ${outPath}\n`);
  process.exit(0);
}
if (args.set === "review") {
  const command = `npm run eval -- ${process.argv.slice(2).join(" ")}`;
  const port = process.env.EVAL_PORT ? Number(process.env.EVAL_PORT) : undefined;
  const scriptedPort = process.env.EVAL_SCRIPTED_PORT ? Number(process.env.EVAL_SCRIPTED_PORT) : undefined;
  const run = await runReviewEval({ root: ROOT, commit: args.commit ?? "HEAD", command, port, scriptedPort, log: (l) => process.stderr.write(`${l}\n`) });
  const outPath = resolve(args.out ?? join(ROOT, "evals", "out", "review.json"));
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, JSON.stringify({ set: "review", date: new Date().toISOString(), ...run }, null, 2));
  console.log(run.markdown);
  process.stderr.write(`wrote ${outPath}\n`);
  process.exit(0);
}
const setName = args.set as "fixture" | "hono-50" | "swebench" | "multifile" | "polyglot" | "reports" | "unanswerable" | "multilingual";

/** Writes this run's generated blocks (docs/evaluation.md in full, README summary). */
function writeReadmeBlock(markdown: string): void {
  for (const b of evalBlockWrites(setName, args.ablation!, markdown)) {
    const path = join(ROOT, b.file);
    writeFileSync(path, replaceBlock(readFileSync(path, "utf8"), b.key, b.content, b.heading));
    process.stderr.write(`updated ${b.file} block ${b.key}\n`);
  }
}

if (args["disable-rule"] && (args["write-readme"] || args.ablation)) {
  console.error("error: --disable-rule measures rules; it does not write the generated tables and is not combined with --ablation.");
  process.exit(2);
}
if (args["readme-from"]) {
  const saved = JSON.parse(readFileSync(args["readme-from"], "utf8")) as { set?: string; markdown?: string };
  if (saved.set !== setName || typeof saved.markdown !== "string") {
    console.error(`${args["readme-from"]} is not a saved ${setName} run (needs "set": "${setName}" and "markdown"); pass the --out file of that run.`);
    process.exit(2);
  }
  writeReadmeBlock(saved.markdown);
  process.exit(0);
}
const benchDir = resolve(args["bench-dir"] ?? join(ROOT, "..", "shared", "bench"));
const client = new ApiClient({ baseUrl: args["base-url"]!, token: readToken() });
const log = (line: string) => process.stderr.write(`${line}\n`);
if (args.set === "multilingual") {
  // Issue 47: each question translated and in English, side by side (evals/lib/multilingual-run.ts).
  const meta = { date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() };
  const only = args.repos ? args.repos.split(",") : [];
  const run = await runMultilingualEval({
    client,
    root: ROOT,
    corpusRoot: resolve(args["corpus-root"]!),
    only,
    k: Number(args.k ?? 10),
    meta,
    config: serverConfig,
    log,
  });
  const outPath = resolve(args.out ?? join(ROOT, "evals", "out", "multilingual.json"));
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, JSON.stringify({ set: "multilingual", ...meta, config: run.config, pairs: run.pairs, markdown: run.markdown }, null, 2));
  console.log(run.markdown);
  log(`wrote ${outPath}`);
  if (args["write-readme"]) writeReadmeBlock(run.markdown);
  process.exit(0);
}

function readToken(): string | undefined {
  if (args.token) return args.token;
  if (process.env.CODEBASE_COPILOT_TOKEN) return process.env.CODEBASE_COPILOT_TOKEN;
  try {
    return readFileSync(join(ROOT, ".codebase-copilot", "admin-token"), "utf8").trim();
  } catch {
    return undefined;
  }
}

/** The single variant the command line asks for, or the ablation list. */
function variants(): SearchVariant[] {
  if (args.ablation) return ABLATION_VARIANTS;
  if (args["disable-rule"]) return ruleVariants(args["disable-rule"]);
  const v: SearchVariant = { label: "" };
  if (args.mode) v.mode = args.mode as SearchVariant["mode"];
  if (args["per-file-cap"] !== undefined) v.perFileCap = Number(args["per-file-cap"]);
  if (args.channels) v.channels = args.channels.split(",");
  v.label = [v.mode ?? "hybrid (server defaults)", v.channels?.join("+"), v.perFileCap !== undefined ? `cap ${v.perFileCap}` : ""].filter(Boolean).join(", ");
  return [v];
}

function commandLine(): string {
  const argv = process.argv.slice(2);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--token") {
      i++;
      continue;
    }
    if (argv[i].startsWith("--token=")) continue;
    out.push(/\s/.test(argv[i]) ? JSON.stringify(argv[i]) : argv[i]);
  }
  return `npm run eval -- ${out.join(" ")}`;
}

function gitCommit(): string {
  if (args.commit) return args.commit.slice(0, 7);
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    return sha;
  } catch {
    return "unknown";
  }
}

async function serverConfig(repo: string): Promise<string> {
  const parts = [args["base-url"] === "http://127.0.0.1:8787" ? "local (npm start / wrangler dev)" : args["base-url"]!];
  try {
    const s = await client.repoStatus(repo);
    const emb = s.embedding as { model?: string; dimensions?: number } | null | undefined;
    if (emb?.model) parts.push(`embedding model ${emb.model} (${emb.dimensions} dims)`);
  } catch {
    // Status is optional for the provenance line.
  }
  return parts.join(", ");
}

async function runSwe(): Promise<{ output: RunOutput; markdown: string }> {
  const all = parseSwebench(readFileSync(join(benchDir, "swebench-lite-offline.jsonl"), "utf8"));
  const instances = args.instances
    ? pickInstanceIds(all, args.instances.split(","))
    : pickInstances(all, args.repos ? args.repos.split(",") : [], Number(args["per-repo"]));
  log(`${instances.length} instances across ${new Set(instances.map((i) => i.repo)).size} repositories`);
  const vs = variants();
  const run = await runSwebench(client, instances, { corpusRoot: args["corpus-root"]!, variants: vs, k: Number(args.k ?? 50), explain: args.explain, log });
  const meta = { set: setName, date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() };
  const config = `${await serverConfig(run.indexRuns[0]?.repo ?? "")}, k ${args.k ?? 50}; baseline over ${run.baselineFiles === "product-listing" ? "the files the product indexed" : "the uploaded text files up to 1 MiB"}`;
  const ids = instances.map((i) => i.instance_id);
  return {
    output: { ...meta, config, instances: ids, ...run },
    markdown: sweMarkdown(
      run,
      vs.map((v) => v.label),
      instances.map((i) => i.repo),
      { ...meta, config },
    ),
  };
}

/** `--set multifile`: evals/lib/multifile-eval.ts over evals/sets/multifile.json. */
async function runMulti(): Promise<{ output: RunOutput; markdown: string }> {
  const vs = variants();
  const k = Number(args.k ?? 50);
  const setPath = join(ROOT, "evals", "sets", "multifile.json");
  const { run, instances, repos } = await runMultifileEval(client, {
    setPath,
    corpusRoot: args["corpus-root"]!,
    variants: vs,
    k,
    explain: args.explain,
    repos: args.repos?.split(","),
    log,
  });
  const meta = { set: setName, date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() };
  const config = `${await serverConfig(run.indexRuns[0]?.repo ?? "")}, k ${k}`;
  return {
    output: { ...meta, config, instances, ...run },
    markdown: multifileBlock(
      run,
      vs.map((v) => v.label),
      repos,
      { ...meta, config },
    ),
  };
}

/** Exits with status 2 after a one-line error. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

const ctx: RunContext = {
  root: ROOT,
  client,
  log,
  setName,
  variants: variants(),
  k: args.k,
  ablation: args.ablation!,
  corpusRoot: args["corpus-root"]!,
  repos: args.repos,
  meta: () => ({ set: setName, date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() }),
  serverConfig,
};
const { output, markdown } =
  setName === "multifile"
    ? await runMulti()
    : setName === "swebench" && args.merge
      ? mergeSwe(args.merge.split(","), commandLine(), fail)
      : setName === "swebench"
        ? await runSwe()
        : setName === "polyglot" || setName === "reports" || setName === "unanswerable"
          ? await runSetDir(ctx, setName)
          : await runRetrieval(ctx, { benchDir, include: args.include, corpus: args.corpus, repo: args.repo });
const moves = args["disable-rule"] ? ruleMoves(rankedByLabel(output as SavedRun)) : undefined;
const outPath = resolve(args.out ?? join(ROOT, "evals", "out", `${setName}${args.ablation ? "-ablation" : args["disable-rule"] ? "-rules" : ""}.json`));
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, JSON.stringify({ ...output, rateLimitedWaits: client.rateLimitedWaits, markdown, ruleMoves: moves }, null, 2));
if (moves) console.log(`${ruleMovesMarkdown(setName, moves)}\n`);
if (client.rateLimitedWaits) log(`the server's rate limit made the runner wait ${client.rateLimitedWaits} times (latencies exclude the waits)`);
console.log(markdown);
log(`wrote ${outPath}`);
if (args["write-readme"]) writeReadmeBlock(markdown);
