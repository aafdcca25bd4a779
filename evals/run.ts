/**
 * The evaluation runner: `npm run eval -- --set fixture|hono-50|swebench|polyglot|reports|unanswerable [options]`.
 *
 * Talks to a running instance only over REST (base URL and token), so the same command
 * measures the local and a deployed configuration. Given a corpus it indexes it through the
 * product first (tar.gz upload). Writes JSON to `--out` and, with `--write-readme`, this set's
 * generated blocks (the full tables in docs/evaluation.md and, for a default run, the README's
 * summary: evals/lib/doc-blocks.ts); `--readme-from` writes them from a saved run's JSON without
 * running again. Options: see `USAGE` below or `--help`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { runAskEval } from "./lib/ask-eval.ts";
import { runReviewEval } from "./lib/review-eval.ts";
import { ApiClient, ApiError } from "./lib/client.ts";
import { readCorpus } from "./lib/corpus-fs.ts";
import { indexCorpus, runRetrievalSet, type QuestionDetail } from "./lib/evaluate.ts";
import type { InclusionRule } from "./lib/inclusion.ts";
import { buildRetrievalReport, summarizeLocalization, type RetrievalReport } from "./lib/metrics.ts";
import { evalBlockWrites } from "./lib/doc-blocks.ts";
import { replaceBlock } from "./lib/readme.ts";
import { ablationMarkdown, localizationMarkdown, multiRepoMarkdown, provenance, retrievalMarkdown, type RepoReportRow } from "./lib/report.ts";
import { parseRetrievalSet, parseSwebench, pickInstanceIds, pickInstances, planSetRuns } from "./lib/sets.ts";
import { readSetDir } from "./lib/sets-fs.ts";
import { multifileBlock, runMultifileEval } from "./lib/multifile-eval.ts";
import { runMultilingualEval } from "./lib/multilingual-run.ts";
import { BASELINE_LABEL, runSwebench, type SwebenchRun } from "./lib/swebench.ts";
import type { SearchVariant } from "./lib/types.ts";
import { ABLATION_VARIANTS } from "./lib/variants.ts";
import { rankedByLabel, ruleMoves, ruleMovesMarkdown, ruleVariants, type SavedRun } from "./lib/rule-ablation.ts";

const USAGE = `npm run eval -- --set fixture|hono-50|swebench|multifile|polyglot|reports|unanswerable|multilingual|ask|review [options]
  (multifile: bug fixes spanning 2-5 files, evals/sets/multifile.json; scored as swebench, plus file recall)
  (ask: grounded answers; starts its own server from a clean export of --commit, with the real
  Anthropic API when ANTHROPIC_API_KEY is set, else a scripted one: evals/lib/ask-eval.ts)
  (review: diffs with planted defects, evals/sets/review; same provider rule: evals/lib/review-eval.ts;
  EVAL_PORT / EVAL_SCRIPTED_PORT pin the ports)
  --base-url URL        running instance (default http://127.0.0.1:8787)
  --token T             bearer token (default: .codebase-copilot/admin-token, or $CODEBASE_COPILOT_TOKEN)
  --corpus DIR          index this folder first (fixture: default evals/fixture-repo)
  --corpus-root DIR     swebench, polyglot, reports, unanswerable, multilingual: folder of exported trees <name>-<short commit> (default /tmp/cc-corpora)
  --repo ID             repo id to search (and to index into); defaults per set
  --include R           hono-50 inclusion rule: publisher | whole | both (default both)
  --mode M              hybrid | bm25 | vector | symbol
  --per-file-cap N      results per file (0 = no cap); server default when absent
  --channels a,b        channels to fuse, when the server supports choosing them
  --ablation            run every variant of evals/lib/variants.ts instead of one
  --disable-rule ID     the defaults, then report rules ID[,ID] off (worker/search/rules.ts; admin token);
                        all: each rule off alone in turn; prints the rule table (evals/lib/rule-ablation.ts)
  --k N                 results per query (default 10; swebench 50)
  --repos a/b,c/d       swebench: only these repositories; polyglot, reports, unanswerable: only these sets (gin or gin-gonic/gin)
  --per-repo N          swebench: at most N instances per repository (default 20)
  --instances a,b       swebench: only these instance ids (error analysis; overrides --repos/--per-repo)
  --explain             swebench: keep every result with its explain (channel ranks, stage factors) in --out
  --bench-dir DIR       public sets (default ../shared/bench next to the project)
  --out FILE            JSON output (default evals/out/<set>.json)
  --write-readme        write this run's blocks: full tables in docs/evaluation.md, summary in README.md
  --merge a.json,b.json swebench: one block from saved runs of one commit over disjoint instances
                        (several servers at once), written to --out; with --write-readme, its blocks
  --readme-from FILE    write those blocks from a saved run (the JSON --out wrote; same --set and
                        --ablation) and exit, without running
  --commit SHA          commit the server runs, for the provenance line (default: this checkout's HEAD;
                        scripts/serve-snapshot.ts prints it)`;

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

interface RunOutput {
  set: string;
  date: string;
  commit: string;
  command: string;
  [key: string]: unknown;
}

async function runRetrieval(): Promise<{ output: RunOutput; markdown: string }> {
  const setPath = setName === "fixture" ? join(ROOT, "evals", "sets", "fixture.json") : join(benchDir, "hono-50.json");
  const set = parseRetrievalSet(setName, JSON.parse(readFileSync(setPath, "utf8")));
  const rules: InclusionRule[] = setName === "fixture" ? ["whole"] : args.include === "both" ? ["publisher", "whole"] : [args.include as InclusionRule];
  const corpus = args.corpus ?? (setName === "fixture" ? join(ROOT, "evals", "fixture-repo") : undefined);
  const runs: Record<string, unknown>[] = [];
  const sections: string[] = [];
  let configLine = "";
  for (const rule of rules) {
    const repo = args.repo && rules.length === 1 ? args.repo : setName === "fixture" ? "eval-fixture" : `eval-hono-${rule}`;
    let indexRun: unknown = null;
    if (corpus) {
      const files = readCorpus(corpus, rule);
      log(`indexing ${files.length} files of ${corpus} (${rule}) into ${repo} ...`);
      const r = await indexCorpus(client, repo, files, {
        onStatus: (s, t) => log(`  ${Math.round(t / 1000)}s ${s.status} ${JSON.stringify(s.progress ?? "")}`),
      });
      log(`indexed in ${r.wallMs} ms`);
      indexRun = { files: r.files, archiveBytes: r.archiveBytes, wallMs: r.wallMs };
    }
    configLine ||= await serverConfig(repo);
    const ablation: { label: string; report?: RetrievalReport; error?: string }[] = [];
    for (const variant of variants()) {
      try {
        const { report, details } = await runRetrievalSet(client, set, repo, { k: Number(args.k ?? 10), variant });
        ablation.push({ label: variant.label, report });
        runs.push({ rule, repo, variant, index: indexRun, report, details });
        log(
          `${rule} / ${variant.label}: R@1 ${report.overall.recall1.toFixed(3)} R@5 ${report.overall.recall5.toFixed(3)} MRR ${report.overall.mrr10.toFixed(3)}`,
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        ablation.push({ label: variant.label, error: err.message });
        log(`${variant.label}: not supported by the server: ${err.message}`);
      }
    }
    const title =
      setName === "fixture"
        ? "Fixture set (evals/sets/fixture.json)"
        : `hono-50, ${rule === "publisher" ? "publisher's inclusion rule (src/ without tests)" : "whole repository"}`;
    const body = args.ablation
      ? ablationMarkdown(ablation)
      : ablation.map((a) => (a.report ? retrievalMarkdown(a.label, a.report) : `Not run: ${a.error}`)).join("\n\n");
    sections.push(`**${title}**${corpus ? `, ${(indexRun as { files: number }).files} files uploaded` : ""}\n\n${body}`);
  }
  const meta = { set: setName, date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() };
  const markdown = `${sections.join("\n\n")}\n\n${provenance({ ...meta, config: configLine })}`;
  return { output: { ...meta, config: configLine, runs }, markdown };
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

/**
 * The SWE-bench block of a run: one row per variant label and the baseline, per repository, the
 * median indexing time and the provenance line. `repos` holds each instance's repository.
 */
function sweMarkdown(run: SwebenchRun, labels: string[], repos: string[], meta: Parameters<typeof provenance>[0]): string {
  const rows = [
    ...labels.filter((l) => !run.unsupported[l]).map((l) => ({ label: `Codebase Copilot: ${l}`, summary: summarizeLocalization(run.outcomes[l]) })),
    { label: BASELINE_LABEL, summary: summarizeLocalization(run.outcomes[BASELINE_LABEL]), latency: false },
  ];
  const main = labels[0];
  const perRepo = [...new Set(repos)].flatMap((repo) => [
    { label: `${repo}: product`, summary: summarizeLocalization(run.outcomes[main]?.filter((o) => o.repo === repo) ?? []) },
    { label: `${repo}: baseline`, summary: summarizeLocalization(run.outcomes[BASELINE_LABEL].filter((o) => o.repo === repo)), latency: false },
  ]);
  const unsupported = Object.entries(run.unsupported)
    .map(([l, e]) => `- ${l}: not run (${e})`)
    .join("\n");
  const indexMs = run.indexRuns.map((r) => r.wallMs).sort((a, b) => a - b);
  return [
    `**SWE-bench Lite file localization**: ${repos.length} instances, ${new Set(repos).size} repositories; query = whole problem statement; Acc@k = all gold files within the top k distinct files.`,
    localizationMarkdown(rows),
    unsupported,
    `<details><summary>By repository</summary>\n\n${localizationMarkdown(perRepo)}\n\n</details>`,
    `Indexing: first upload per repository is a cold index, later commits re-index incrementally; median ${Math.round(indexMs[Math.floor(indexMs.length / 2)] ?? 0)} ms per instance.`,
    provenance(meta),
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** Exits with status 2 after a one-line error. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

/**
 * `--merge a.json,b.json`: one SWE-bench block from saved runs of the same commit over disjoint
 * instances (runs on several servers at once). Exits with status 2 naming the file that is not
 * a saved swebench run, or when the commits, variants or instances disagree.
 */
function mergeSwe(files: string[]): { output: RunOutput; markdown: string } {
  type Saved = RunOutput & SwebenchRun & { set?: string; commit: string; config: string; command: string; instances: string[] };
  const saved = files.map((f) => {
    const s = JSON.parse(readFileSync(f, "utf8")) as Saved;
    if (s.set !== "swebench" || !s.outcomes || !Array.isArray(s.instances)) fail(`${f} is not a saved swebench run (pass --out files of --set swebench)`);
    return s;
  });
  const labels = Object.keys(saved[0].outcomes).filter((l) => l !== BASELINE_LABEL);
  for (const [i, s] of saved.entries()) {
    if (s.commit !== saved[0].commit) fail(`${files[i]} ran commit ${s.commit}, ${files[0]} ran ${saved[0].commit}: merge runs of one commit`);
    if (Object.keys(s.outcomes).join() !== Object.keys(saved[0].outcomes).join()) fail(`${files[i]} ran other variants than ${files[0]}`);
  }
  const ids = saved.flatMap((s) => s.instances);
  if (new Set(ids).size !== ids.length) fail("the runs share instances; merge runs over disjoint instances");
  const run: SwebenchRun = {
    outcomes: Object.fromEntries(Object.keys(saved[0].outcomes).map((l) => [l, saved.flatMap((s) => s.outcomes[l])])),
    details: Object.fromEntries(Object.keys(saved[0].details).map((l) => [l, saved.flatMap((s) => s.details[l])])),
    unsupported: Object.assign({}, ...saved.map((s) => s.unsupported)),
    indexRuns: saved.flatMap((s) => s.indexRuns),
    baselineFiles: saved.every((s) => s.baselineFiles === "product-listing") ? "product-listing" : "upload-filtered",
  };
  const repos = run.outcomes[BASELINE_LABEL].map((o) => o.repo);
  const meta = {
    set: setName,
    date: new Date().toISOString().slice(0, 10),
    commit: saved[0].commit,
    command: `${saved.map((s) => s.command).join("`, `")}\`, merged by \`${commandLine()}`,
  };
  const config = saved.map((s) => s.config).join("; ");
  return { output: { ...meta, config, instances: ids, ...run }, markdown: sweMarkdown(run, labels, repos, { ...meta, config }) };
}

/**
 * polyglot, reports, unanswerable: one retrieval set per repository (evals/sets/<set>/*.json),
 * each tree indexed as its own repo `eval-poly-<name>` from `--corpus-root`, scored per
 * repository and pooled. `reports` are bug reports written in each repo's issue-template style,
 * `unanswerable` questions that reuse a repo's vocabulary but have no answer in it (the gate).
 */
async function runSetDir(dir: "polyglot" | "reports" | "unanswerable"): Promise<{ output: RunOutput; markdown: string }> {
  const plan = planSetRuns(readSetDir(join(ROOT, "evals", "sets", dir)), resolve(args["corpus-root"]!), args.repos ? args.repos.split(",") : []);
  const vs = variants();
  const rowsByVariant = new Map<string, RepoReportRow[]>(vs.map((v) => [v.label, []]));
  const detailsByVariant = new Map<string, QuestionDetail[]>(vs.map((v) => [v.label, []]));
  const unsupported = new Map<string, string>();
  const runs: Record<string, unknown>[] = [];
  for (const { set, repoId, corpus } of plan) {
    if (!existsSync(corpus))
      throw new Error(
        `${set.name}: no tree at ${corpus}; export it first: node evals/export-corpora.ts --set ${dir === "polyglot" ? "polyglot" : "polyglot (or hono-50, swebench)"} --out ${args["corpus-root"]} --git-dir ${set.repo}=<its .git>`,
      );
    const files = readCorpus(corpus, "whole");
    log(`indexing ${files.length} files of ${corpus} into ${repoId} ...`);
    const r = await indexCorpus(client, repoId, files, {
      onStatus: (s, t) => log(`  ${Math.round(t / 1000)}s ${s.status} ${JSON.stringify(s.progress ?? "")}`),
    });
    log(`indexed in ${r.wallMs} ms`);
    const index = { files: r.files, archiveBytes: r.archiveBytes, wallMs: r.wallMs };
    for (const variant of vs) {
      if (unsupported.has(variant.label)) continue;
      try {
        const { report, details } = await runRetrievalSet(client, set, repoId, { k: Number(args.k ?? 10), variant });
        rowsByVariant.get(variant.label)!.push({ label: `${set.repo}${set.language ? ` (${set.language})` : ""}`, files: r.files, report });
        detailsByVariant.get(variant.label)!.push(...details);
        runs.push({ set: set.name, repo: set.repo, commit: set.commit, repoId, variant, index, report, details });
        log(
          `${set.name} / ${variant.label}: R@1 ${report.overall.recall1.toFixed(3)} R@5 ${report.overall.recall5.toFixed(3)} MRR ${report.overall.mrr10.toFixed(3)}`,
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        unsupported.set(variant.label, err.message);
        log(`${variant.label}: not supported by the server: ${err.message}`);
      }
    }
  }
  const totals = vs.map((v) => ({
    label: v.label,
    report: unsupported.has(v.label) ? undefined : buildRetrievalReport(detailsByVariant.get(v.label)!),
    error: unsupported.get(v.label),
  }));
  const questions = plan.reduce((n, p) => n + p.set.questions.length, 0);
  const title = `**${dir} (evals/sets/${dir}/)**: ${plan.length} repositories, ${questions} questions, each tree uploaded whole as its own repo`;
  const body = args.ablation
    ? ablationMarkdown(totals)
    : totals
        .map((t) =>
          t.report
            ? `Search: ${t.label}, k ${args.k ?? 10}.\n\n${multiRepoMarkdown(rowsByVariant.get(t.label)!, t.report)}`
            : `${t.label}: not run (${t.error})`,
        )
        .join("\n\n");
  const meta = { set: setName, date: new Date().toISOString().slice(0, 10), commit: gitCommit(), command: commandLine() };
  const config = await serverConfig(plan[0]?.repoId ?? "");
  const markdown = `${title}\n\n${body}\n\n${provenance({ ...meta, config })}`;
  return { output: { ...meta, config, totals, runs }, markdown };
}

const { output, markdown } =
  setName === "multifile"
    ? await runMulti()
    : setName === "swebench" && args.merge
      ? mergeSwe(args.merge.split(","))
      : setName === "swebench"
        ? await runSwe()
        : setName === "polyglot" || setName === "reports" || setName === "unanswerable"
          ? await runSetDir(setName)
          : await runRetrieval();
const moves = args["disable-rule"] ? ruleMoves(rankedByLabel(output as SavedRun)) : undefined;
const outPath = resolve(args.out ?? join(ROOT, "evals", "out", `${setName}${args.ablation ? "-ablation" : args["disable-rule"] ? "-rules" : ""}.json`));
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, JSON.stringify({ ...output, rateLimitedWaits: client.rateLimitedWaits, markdown, ruleMoves: moves }, null, 2));
if (moves) console.log(`${ruleMovesMarkdown(setName, moves)}\n`);
if (client.rateLimitedWaits) log(`the server's rate limit made the runner wait ${client.rateLimitedWaits} times (latencies exclude the waits)`);
console.log(markdown);
log(`wrote ${outPath}`);
if (args["write-readme"]) writeReadmeBlock(markdown);
