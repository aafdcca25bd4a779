/**
 * `npm run bench:search`: warm search latency and workerd CPU per query of two commits of the
 * product on the same tree, paired. Both commits are started from clean exports on fresh state
 * folders and index the corpus (not timed); then each round measures every workload (short
 * queries and pasted bug reports, sequentially and from N concurrent clients, k = 10, the
 * queries of `npm run bench`) on base then head, or head then base (the order alternates).
 * Ratios head/base are taken round by round, so a drift in the machine's speed cancels out.
 *
 *   npm run bench:search -- --corpus /tmp/cc-corpora/hono-28a9c12 --base REV [--head HEAD] [--rounds 5]
 *
 * Prints one line per (round, commit, workload) and per workload the medians of p50 and CPU per
 * query for each commit, with the median, minimum and maximum of the paired ratios. `--out
 * FILE` keeps the runs as JSON.
 */
import { rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ApiClient } from "../evals/lib/client.ts";
import { readCorpus } from "../evals/lib/corpus-fs.ts";
import { indexCorpus } from "../evals/lib/evaluate.ts";
import { percentile } from "../evals/lib/metrics.ts";
import { BUG_REPORTS, SHORT_QUERIES } from "./lib/bench-queries.ts";
import { parseCli } from "./lib/cli.ts";
import { busiestCpuPerOperation, workerdCpu } from "./lib/cpu.ts";
import { freePort, startSnapshotServer, type DevServer } from "./lib/dev-server.ts";
import { runLoad } from "./lib/load.ts";

const USAGE = `Usage: npm run bench:search -- --corpus DIR --base REV [--head HEAD] [--rounds 5] [--concurrency 16] [--out FILE]

Warm search latency and workerd CPU per query of two commits on the same tree, alternating, with paired ratios.`;

const a = parseCli(USAGE, {
  corpus: { type: "string", default: "/tmp/cc-corpora/hono-28a9c12" },
  base: { type: "string" },
  head: { type: "string", default: "HEAD" },
  rounds: { type: "string", default: "5" },
  concurrency: { type: "string", default: "16" },
  out: { type: "string" },
});
if (!a.base) {
  console.error(`--base is required (the commit to compare against)\n\n${USAGE}`);
  process.exit(2);
}

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const files = readCorpus(resolve(a.corpus!), "whole");
const rounds = Number(a.rounds);
const concurrency = Number(a.concurrency);
const log = (s: string) => console.log(`[bench:search] ${s}`);
const median = (xs: number[]) => percentile(xs, 50);

const WORKLOADS = [
  { name: "short queries", queries: SHORT_QUERIES, clients: 1, passes: 2 },
  { name: "pasted bug reports", queries: BUG_REPORTS, clients: 1, passes: 2 },
  { name: "short queries", queries: SHORT_QUERIES, clients: concurrency, passes: 4 },
  { name: "pasted bug reports", queries: BUG_REPORTS, clients: concurrency, passes: 4 },
];

interface Measured {
  commit: string;
  round: number;
  workload: string;
  clients: number;
  p50: number;
  p95: number;
  /** workerd CPU ms per query (the busiest process: scripts/lib/cpu.ts). */
  cpuMs: number;
}

interface Side {
  commit: string;
  server: DevServer;
  client: ApiClient;
  stateDir: string;
}

async function start(commit: string, label: string): Promise<Side> {
  const stateDir = `/tmp/cc-bench-search-${process.pid}-${label}`;
  rmSync(stateDir, { recursive: true, force: true });
  const server = await startSnapshotServer({ projectRoot: ROOT, commit, port: await freePort(), persistTo: stateDir, token: "bench-token" });
  const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
  const run = await indexCorpus(client, "bench-corpus", files, { pollMs: 250, timeoutMs: 30 * 60_000 });
  log(`${commit} (${server.commit.slice(0, 7)}) indexed ${run.files} files in ${run.wallMs} ms`);
  // Warm: every query once, so caches hold what a long-running server's would.
  for (const q of [...SHORT_QUERIES, ...BUG_REPORTS]) await client.search({ query: q, repo: "bench-corpus", k: 10 });
  return { commit, server, client, stateDir };
}

async function measure(side: Side, round: number): Promise<Measured[]> {
  const out: Measured[] = [];
  for (const w of WORKLOADS) {
    const cpuBefore = workerdCpu(side.server.pid);
    const summary = await runLoad(w.queries, w.passes, w.clients, async (q) => (await side.client.search({ query: q, repo: "bench-corpus", k: 10 })).latencyMs);
    const cpuMs = busiestCpuPerOperation(side.server.pid, cpuBefore, summary.n);
    out.push({ commit: side.commit, round, workload: w.name, clients: w.clients, p50: summary.p50, p95: summary.p95, cpuMs });
    log(
      `round ${round} ${side.commit} ${w.name} x${w.clients}: p50 ${summary.p50.toFixed(1)} ms, p95 ${summary.p95.toFixed(1)} ms, CPU ${cpuMs.toFixed(2)} ms/query`,
    );
  }
  return out;
}

const base = await start(a.base, "base");
const head = await start(a.head!, "head");
const runs: Measured[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const side of round % 2 ? [base, head] : [head, base]) runs.push(...(await measure(side, round)));
  }
} finally {
  for (const side of [base, head]) {
    await side.server.stop();
    rmSync(side.stateDir, { recursive: true, force: true });
  }
}

const ratio = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const summary = WORKLOADS.map((w) => {
  const of = (commit: string) => runs.filter((r) => r.commit === commit && r.workload === w.name && r.clients === w.clients);
  const b = of(a.base!);
  const h = of(a.head!);
  const pair = (key: "p50" | "cpuMs") => b.map((r, i) => h[i]![key] / r[key]);
  return {
    workload: w.name,
    clients: w.clients,
    base: { p50: median(b.map((r) => r.p50)), cpuMs: median(b.map((r) => r.cpuMs)) },
    head: { p50: median(h.map((r) => r.p50)), cpuMs: median(h.map((r) => r.cpuMs)) },
    p50Ratio: ratio(pair("p50")),
    cpuRatio: ratio(pair("cpuMs")),
  };
});
log(`base ${a.base} (${base.server.commit.slice(0, 7)}), head ${a.head} (${head.server.commit.slice(0, 7)}), ${rounds} rounds, ${files.length} files`);
for (const s of summary) {
  log(
    `${s.workload} x${s.clients}: p50 ${s.base.p50.toFixed(1)} -> ${s.head.p50.toFixed(1)} ms (paired ratio median ${s.p50Ratio.median.toFixed(3)}, ${s.p50Ratio.min.toFixed(3)}-${s.p50Ratio.max.toFixed(3)}); CPU ${s.base.cpuMs.toFixed(2)} -> ${s.head.cpuMs.toFixed(2)} ms/query (ratio ${s.cpuRatio.median.toFixed(3)}, ${s.cpuRatio.min.toFixed(3)}-${s.cpuRatio.max.toFixed(3)})`,
  );
}
if (a.out) {
  writeFileSync(
    a.out,
    JSON.stringify({ corpus: resolve(a.corpus!), base: base.server.commit, head: head.server.commit, rounds, summary, runs }, null, 2) + "\n",
  );
}
