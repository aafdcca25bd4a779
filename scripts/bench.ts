/**
 * `npm run bench`: speed and memory of the local runtime on a real repository, with ripgrep
 * side by side. Steps: start the product from a clean export of HEAD (or use `--base-url`),
 * cold-index the corpus by archive upload (files/s, lines/s, wall time per status stage),
 * re-upload it unchanged (0 files processed) and with one file changed (1 file), then measure
 * search latency (k = 10, warm) sequentially and from 16 concurrent clients for short queries
 * and pasted bug reports, and ripgrep over the same tree in the same run, then the runtime's
 * floor (`GET /api/health` the same way), then the time from a push webhook delivery to the
 * pushed commit being searchable (one file changed, the corpus served as a git repo on
 * loopback: scripts/lib/webhook-latency.ts), then the web page's first-load weight and time to
 * first result in headless Chromium (scripts/lib/bench-web.ts); peak RSS of the
 * workerd process tree is sampled throughout. Last, the grep benchmark (scripts/bench-grep.ts,
 * on its own fresh server: match sets and latency beside ripgrep, trigram index storage) over
 * the corpus and, when exported, sympy; its table is the `bench-grep` block (skip: --skip-grep). Writes JSON to bench/out/ and, with
 * `--write-readme`, the "Benchmarks" block of docs/evaluation.md.
 *
 *   npm run bench -- [--corpus /tmp/cc-corpora/hono-28a9c12] [--base-url URL --token T]
 *                    [--commit HEAD] [--port N (default: a free one)] [--concurrency 16] [--write-readme]
 *
 * The corpus is exported outside the project first (docs/evaluation.md, "Method"):
 *   node evals/export-corpora.ts --set hono-50 --out /tmp/cc-corpora --git-dir honojs/hono=<hono .git>
 */
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { benchBlockWrites } from "../evals/lib/doc-blocks.ts";
import { replaceBlock } from "../evals/lib/readme.ts";
import { listIndexedFiles } from "../evals/lib/swebench.ts";
import { BUG_REPORTS, SHORT_QUERIES } from "./lib/bench-queries.ts";
import { freePort, startSnapshotServer, type DevServer } from "./lib/dev-server.ts";
import { runLoad, type LatencySummary } from "./lib/load.ts";
import { ripgrepVersion, runRipgrep } from "./lib/ripgrep.ts";
import { startRssSampler } from "./lib/rss.ts";
import { busiestCpuPerOperation, workerdCpu } from "./lib/cpu.ts";
import { benchMarkdown, type BenchResult } from "./lib/bench-report.ts";
import { timedIndex } from "./lib/bench-index.ts";
import { runChunkBench, runGrepBench } from "./lib/bench-children.ts";
import { parseCli } from "./lib/cli.ts";
import { measureFirstResult, measurePageWeight, webMarkdown } from "./lib/bench-web.ts";
import { measureWebhookToSearchable } from "./lib/webhook-latency.ts";
import { askBenchMarkdown, runAskBench, type AskBench } from "./lib/bench-ask.ts";
import { startMessagesApiServer, type MessagesApiServer } from "../test/messages-api-server.ts";

const USAGE = `Usage: npm run bench -- [--corpus /tmp/cc-corpora/hono-28a9c12] [--commit HEAD] [--out FILE] [--write-readme]

Indexing speed, search latency (sequential and concurrent) beside ripgrep, and peak memory of
the local runtime on a real repository.

  --corpus DIR          the tree to index (default /tmp/cc-corpora/hono-28a9c12)
  --commit REV          start the product from a clean export of REV (default HEAD)
  --base-url URL        measure a server already running instead (with --token T)
  --port N              port of the started server (default: a free one)
  --concurrency N       concurrent clients (default 16)
  --seq-rounds N        sequential passes over the queries (default 3)
  --conc-rounds N       concurrent passes over the queries (default 8)
  --repo ID             repo id to index the corpus as (default bench-corpus)
  --search-limit N      the export's search rate limits, per minute (default 1000000)
  --ask-only            index the corpus, then measure only the answer overhead (POST /api/ask)
  --ask-rounds N        sequential passes over the ask questions (default 3)
  --grep-corpus DIR     a tree for the grep benchmark (repeatable; default the corpus, plus
                        /tmp/cc-corpora/sympy-e950d31 when it exists)
  --skip-grep           leave out the grep benchmark
  --out FILE            JSON output (default bench/out/bench-<date>.json)
  --write-readme        rewrite the "Benchmarks" block of docs/evaluation.md`;

const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  "base-url": { type: "string" },
  token: { type: "string" },
  port: { type: "string" },
  commit: { type: "string", default: "HEAD" },
  concurrency: { type: "string", default: "16" },
  "seq-rounds": { type: "string", default: "3" },
  "conc-rounds": { type: "string", default: "8" },
  repo: { type: "string", default: "bench-corpus" },
  "search-limit": { type: "string", default: "1000000" },
  out: { type: "string" },
  "write-readme": { type: "boolean", default: false },
  "ask-only": { type: "boolean", default: false },
  "ask-rounds": { type: "string", default: "3" },
  "grep-corpus": { type: "string", multiple: true },
  "skip-grep": { type: "boolean", default: false },
});

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const corpus = resolve(a.corpus!);
if (!existsSync(corpus)) {
  console.error(
    `corpus ${corpus} is missing; export it first:\n  node evals/export-corpora.ts --set hono-50 --out /tmp/cc-corpora --git-dir honojs/hono=<path to hono's .git>`,
  );
  process.exit(2);
}
const rgVersion = ripgrepVersion();
if (!rgVersion) {
  console.error("ripgrep (rg) is not installed; install it (e.g. apt-get install -y ripgrep) for the side-by-side figures.");
  process.exit(2);
}
const log = (s: string) => process.stderr.write(`${s}\n`);
const concurrency = Number(a.concurrency);

let server: DevServer | null = null;
let stateDir: string | null = null;
// Answers are measured with a model that answers at once: the scripted Messages API server.
let messagesApi: MessagesApiServer | null = null;
if (!a["base-url"]) {
  messagesApi = await startMessagesApiServer();
  stateDir = `/tmp/cc-bench-state-${process.pid}`;
  rmSync(stateDir, { recursive: true, force: true });
  const port = a.port ? Number(a.port) : await freePort();
  log(`starting the product from a clean export of ${a.commit} on port ${port} (state ${stateDir}) ...`);
  server = await startSnapshotServer({
    projectRoot: ROOT,
    commit: a.commit,
    port,
    persistTo: stateDir,
    token: "bench-token",
    searchLimitPerMinute: Number(a["search-limit"]),
    // ALLOW_LOOPBACK_GIT_URLS: the webhook step serves the corpus as a git repo on loopback.
    vars: { ASK_DAILY_TOKEN_BUDGET: "1000000000", ALLOW_LOOPBACK_GIT_URLS: "true" },
    secrets: { ANTHROPIC_API_KEY: "cite:bench", ANTHROPIC_BASE_URL: messagesApi.url },
  });
}
const baseUrl = server?.baseUrl ?? a["base-url"]!;
const client = new ApiClient({ baseUrl, token: server?.token ?? a.token });
const rss = server ? startRssSampler(server.pid, 200) : null;
const mb = (b: number) => Math.round(b / (1024 * 1024));

/** The answer overhead, when this run started the server (and so the scripted model). */
async function askPhase(): Promise<AskBench | null> {
  if (!messagesApi) return null;
  const set = JSON.parse(readFileSync(join(ROOT, "evals", "sets", "ask", "hono.json"), "utf8")) as { questions: { category: string; question: string }[] };
  const questions = set.questions.filter((q) => q.category === "answerable").map((q) => q.question);
  const r = await runAskBench(client, a.repo!, questions, Number(a["ask-rounds"]));
  log(askBenchMarkdown(r));
  return r;
}

// 1. Index: cold, unchanged, one file changed.
const files = readCorpus(corpus, "whole");
rss?.reset();
const cold = await timedIndex(client, a.repo!, "cold index", files, log);
if (a["ask-only"]) {
  const ask = await askPhase();
  await server?.stop();
  await messagesApi?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  console.log(ask ? askBenchMarkdown(ask) : "No ask figures: --ask-only needs the server this script starts (not --base-url).");
  process.exit(0);
}
const peakIndex = rss?.peak() ?? null;
const listing = await listIndexedFiles(client, a.repo!);
const indexedFiles = listing?.size ?? null;
const indexedLines = listing ? [...listing.values()].reduce((s, n) => s + n, 0) : null;
const unchanged = await timedIndex(client, a.repo!, "unchanged re-upload", files, log);
// Prefer a source file (a realistic edit); any indexed file otherwise.
const indexedPath = (f: { path: string }) => listing?.has(f.path) ?? true;
let editable = files.findIndex((f) => indexedPath(f) && /^src\/.*\.(ts|tsx|js|py|go)$/.test(f.path) && !/\.test\./.test(f.path));
if (editable < 0) editable = files.findIndex(indexedPath);
const edited = files.map((f, i) =>
  i === editable ? { path: f.path, bytes: new Uint8Array([...f.bytes, ...new TextEncoder().encode("\n// bench: one changed line\n")]) } : f,
);
const oneChanged = await timedIndex(client, a.repo!, `one file changed (${files[editable]?.path})`, edited, log);

// 2. Search latency, warm, k = 10, with ripgrep side by side.
const serverTook: number[] = [];
const search = async (q: string) => {
  const { response, latencyMs } = await client.search({ query: q, repo: a.repo!, k: 10 });
  const took = (response as { stats?: { tookMs?: number } }).stats?.tookMs;
  if (typeof took === "number") serverTook.push(took);
  return latencyMs;
};
const rg = async (q: string) => (await runRipgrep(q, corpus)).ms;
log("warming up ...");
for (const q of [...SHORT_QUERIES, ...BUG_REPORTS]) await search(q);
rss?.reset();
const workloads = [
  { name: "short queries", queries: SHORT_QUERIES },
  { name: "pasted bug reports", queries: BUG_REPORTS },
];
const latency: BenchResult["latency"] = [];
for (const w of workloads) {
  for (const clients of [1, concurrency]) {
    const rounds = clients === 1 ? Number(a["seq-rounds"]) : Number(a["conc-rounds"]);
    serverTook.length = 0;
    const cpuBefore = server ? workerdCpu(server.pid) : null;
    const product: LatencySummary = await runLoad(w.queries, rounds, clients, search);
    const productCpuMs = server && cpuBefore ? busiestCpuPerOperation(server.pid, cpuBefore, product.n) : null;
    const productServerP50 = serverTook.length ? [...serverTook].sort((x, y) => x - y)[Math.floor(serverTook.length / 2)] : null;
    const ripgrep: LatencySummary = await runLoad(w.queries, rounds, clients, rg);
    latency.push({ workload: w.name, clients, product, productServerP50, productCpuMs, ripgrep });
    log(
      `${w.name} x${clients}: product p50 ${product.p50.toFixed(1)} p95 ${product.p95.toFixed(1)} ms, workerd CPU ${productCpuMs?.toFixed(2) ?? "?"} ms/query; rg p50 ${ripgrep.p50.toFixed(1)} p95 ${ripgrep.p95.toFixed(1)} ms`,
    );
  }
}
// The runtime's floor: a request that does no work, through the same client, proxy and workerd.
const HEALTH_ITEMS = Array.from({ length: SHORT_QUERIES.length }, (_, i) => i);
const health = async () => (await client.requestTimed("GET", "/api/health")).ms;
for (const clients of [1, concurrency]) {
  const rounds = clients === 1 ? Number(a["seq-rounds"]) : Number(a["conc-rounds"]);
  const cpuBefore = server ? workerdCpu(server.pid) : null;
  const product: LatencySummary = await runLoad(HEALTH_ITEMS, rounds, clients, health);
  const productCpuMs = server && cpuBefore ? busiestCpuPerOperation(server.pid, cpuBefore, product.n) : null;
  latency.push({ workload: "floor: GET /api/health", clients, product, productServerP50: null, productCpuMs, ripgrep: null });
  log(`health x${clients}: p50 ${product.p50.toFixed(1)} p95 ${product.p95.toFixed(1)} ms, workerd CPU ${productCpuMs?.toFixed(2) ?? "?"} ms/request`);
}
const peakSearch = rss?.peak() ?? null;
rss?.stop();

// 2b. Answer overhead with the scripted model.
const ask = await askPhase();

// 3. Push webhook delivery -> the pushed commit searchable (one file changed), as a git repo.
log("webhook to searchable: serving the corpus as a git repo on loopback ...");
const webhook = await measureWebhookToSearchable({
  client,
  baseUrl,
  corpus,
  projectRoot: ROOT,
  repo: `${a.repo}-git`,
  editPath: files[editable]?.path ?? files[0].path,
  gitPort: await freePort(),
  log,
});

// 4. H1's chunk throughput, when that benchmark exists.
const chunkBench = runChunkBench(ROOT, corpus, log);

// 4. The web page: compressed weight of the first load, time to first result in Chromium.
const webWeight = await measurePageWeight();
let webTimings: Awaited<ReturnType<typeof measureFirstResult>> = null;
try {
  webTimings = await measureFirstResult(baseUrl, server?.token ?? a.token ?? "", a.repo!, SHORT_QUERIES.slice(0, 10));
} catch (err) {
  log(`time to first result not measured: ${(err as Error).message.split("\n")[0]}`);
}
log(webMarkdown(webWeight, webTimings));

await server?.stop();
await messagesApi?.close();
if (stateDir) rmSync(stateDir, { recursive: true, force: true });

// 5. Grep beside ripgrep, on its own fresh server (scripts/bench-grep.ts).
const grepMarkdown = a["skip-grep"] ? null : runGrepBench(ROOT, corpus, a["grep-corpus"] as string[] | undefined, a.commit!, log);

const commit = server?.commit ?? spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
const result: BenchResult = {
  date: new Date().toISOString(),
  commit,
  machine: `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`,
  baseUrl: server ? "local wrangler dev (clean export of the commit)" : baseUrl,
  corpus,
  ripgrep: rgVersion,
  searchLimitPerMinute: server ? Number(a["search-limit"]) : null,
  index: { cold, unchanged, oneChanged, indexedFiles, indexedLines },
  latency,
  memory:
    peakIndex && peakSearch
      ? {
          indexWorkerdMb: mb(peakIndex.workerdBytes),
          indexTotalMb: mb(peakIndex.totalBytes),
          searchWorkerdMb: mb(peakSearch.workerdBytes),
          searchTotalMb: mb(peakSearch.totalBytes),
        }
      : null,
  chunkBench,
  web: { weight: webWeight, firstResult: webTimings },
  webhook,
  ask,
  command: `npm run bench -- ${process.argv
    .slice(2)
    .filter((x, i, arr) => x !== "--token" && arr[i - 1] !== "--token")
    .join(" ")}`.trim(),
};
const outPath = resolve(a.out ?? join(ROOT, "bench", "out", `bench-${result.date.replace(/[:.]/g, "-")}.json`));
mkdirSync(dirname(outPath), { recursive: true });
const markdown = benchMarkdown(result);
writeFileSync(outPath, JSON.stringify({ ...result, markdown }, null, 2));
console.log(markdown);
if (grepMarkdown) console.log(`\n${grepMarkdown}`);
log(`wrote ${outPath}`);
if (a["write-readme"]) {
  for (const b of benchBlockWrites(markdown, grepMarkdown)) {
    const path = join(ROOT, b.file);
    writeFileSync(path, replaceBlock(readFileSync(path, "utf8"), b.key, b.content, b.heading));
    log(`updated ${b.file} block ${b.key}`);
  }
}
