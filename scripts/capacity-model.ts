/**
 * `npm run capacity`: the capacity model of docs/scale.md, printed as Markdown from measured
 * storage ratios (issue #45). Each `--storage` file is the JSON of one `npm run bench:storage --
 * --corpus DIR --json` run; the model takes, per ratio, the largest over those runs (the
 * conservative choice). Limits and prices are Cloudflare's documented figures
 * (scripts/lib/capacity.ts, each with its page); usage figures are assumptions, printed as such.
 *
 *   npm run capacity -- --storage /tmp/hono.json --storage /tmp/sympy.json [--searches-per-repo-day 50]
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import {
  bindingLimits,
  LIMITS,
  plan,
  PRICES,
  scaleOutLimits,
  shardSourceBytes,
  vectorsPerFullShard,
  type Assumptions,
  type Measured,
  type Plan,
  type Tier,
} from "./lib/capacity.ts";
import { parseCli } from "./lib/cli.ts";
import type { StorageReport } from "./lib/d1-storage.ts";

const USAGE = `Usage: npm run capacity -- --storage FILE [--storage FILE ...] [--searches-per-repo-day 50] [--churn 0.1]

Prints docs/scale.md's capacity tables from bench:storage JSON outputs.`;

const a = parseCli(USAGE, {
  storage: { type: "string", multiple: true, default: [] },
  "searches-per-repo-day": { type: "string", default: "50" },
  churn: { type: "string", default: "0.1" },
});
if (!a.storage.length) {
  console.error(`--storage is required (JSON of npm run bench:storage -- --json)\n\n${USAGE}`);
  process.exit(2);
}

type Run = StorageReport & { corpus: string; commit: string };
const runs: Run[] = a.storage.map((f) => JSON.parse(readFileSync(f, "utf8")) as Run);
for (const r of runs) {
  if (!r.sourceBytes || r.vectors === undefined || r.rowsWrittenAtLeast === undefined) {
    console.error(`${r.corpus}: not a bench:storage --json output of this version (needs sourceBytes, vectors, rowsWrittenAtLeast)`);
    process.exit(2);
  }
}
const worst = (f: (r: Run) => number) => Math.max(...runs.map(f));
const measured: Measured = {
  d1BytesPerSourceByte: worst((r) => r.totalWithoutVectorsBytes / r.sourceBytes),
  vectorsPerSourceByte: worst((r) => r.vectors / r.sourceBytes),
  rowsWrittenPerSourceByte: worst((r) => r.rowsWrittenAtLeast / r.sourceBytes),
  provenance: runs.map((r) => `${basename(r.corpus)} (server ${r.commit.slice(0, 7)}, ${(r.sourceBytes / 1e6).toFixed(2)} MB, ${r.files} files)`).join("; "),
};
// The smallest average file: the most files, so the most queue messages.
const bytesPerFile = Math.min(...runs.map((r) => r.sourceBytes / r.files));
const assumptions: Assumptions = {
  searchesPerRepoPerDay: Number(a["searches-per-repo-day"]),
  rowsReadPerSearch: 5_000,
  monthlyChurn: Number(a.churn),
  bytesPerToken: 4,
  filesPerBatch: 40, // BATCH_MAX_FILES (durable-objects/plan.ts): at most 40 files per queue message
  bytesPerFile,
  shardHighWaterBytes: 8e9,
  dimensions: 1024,
  otherBindings: 50, // about 25 in wrangler.toml's production environment (vars, secrets, queues, KV, rate limits, AI, DB), rounded up
};
const tiers: Tier[] = [
  { repos: 100, sourceBytes: 0.5e9 },
  { repos: 1_000, sourceBytes: 5e9 },
  { repos: 10_000, sourceBytes: 50e9 },
];
const plans = tiers.map((t) => plan(t, measured, assumptions));

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const gb = (x: number) => (x / 1e9).toFixed(1);
const usd = (x: number) => `$${x.toFixed(2)}`;
const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
const cols = (f: (p: Plan) => string) => plans.map(f);

console.log(`Measured (largest ratio over the runs): ${measured.d1BytesPerSourceByte.toFixed(2)} bytes of D1 per source byte, ${(measured.vectorsPerSourceByte * 1e6).toFixed(0)} vectors per MB of source, ${(measured.rowsWrittenPerSourceByte * 1e3).toFixed(1)} rows written per KB of source; from ${measured.provenance}.

Assumptions (not measured): ${assumptions.searchesPerRepoPerDay} searches per repository per day, ${n(assumptions.rowsReadPerSearch)} D1 rows read per search, ${assumptions.monthlyChurn * 100}% of the source re-indexed per month, ${assumptions.bytesPerToken} bytes per embedding token, ${assumptions.filesPerBatch} files per queue message, ${n(bytesPerFile)} bytes per file (the smallest measured average), ${gb(assumptions.shardHighWaterBytes)} GB shard high-water mark, ${assumptions.dimensions} dimensions, ${assumptions.otherBindings} Worker bindings besides the shards'.
`);
console.log(row(["", ...cols((p) => `${n(p.repos)} repos, ${gb(p.sourceBytes)} GB`)]));
console.log(row(["---", ...plans.map(() => "---:")]));
console.log(row(["D1 bytes (GB)", ...cols((p) => gb(p.d1Bytes))]));
console.log(row(["D1 shards (+1 catalog)", ...cols((p) => n(p.shards))]));
console.log(row(["vectors", ...cols((p) => n(p.vectors))]));
console.log(row(["Vectorize indexes (one per shard)", ...cols((p) => n(p.vectorIndexes))]));
console.log(row(["vectors per index, average (limit 10,000,000)", ...cols((p) => n(p.vectorsPerIndex))]));
console.log(row(["repos (namespaces) per index, average (limit 50,000)", ...cols((p) => n(p.reposPerIndex))]));
console.log(
  row([
    "limit that binds next",
    ...cols((p) => (p.nextLimit ? `${p.nextLimit.limit} at ${gb(p.nextLimit.sourceBytes)} GB of source` : "past every listed limit")),
  ]),
);
console.log(row(["cold index: rows written", ...cols((p) => n(p.coldIndexRowsWritten))]));
console.log(row(["cold index: queue messages", ...cols((p) => n(p.coldIndexQueueMessages))]));
console.log(row(["cold index: embeddings", ...cols((p) => usd(p.coldIndexEmbeddingUsd))]));
console.log(row(["cold index: D1 rows written beyond the included", ...cols((p) => usd(p.coldIndexWritesUsd))]));
console.log(row(["searches per month", ...cols((p) => n(p.searchesPerMonth))]));
console.log(row(["Worker invocations per month", ...cols((p) => n(p.workerInvocationsPerMonth))]));
for (const k of ["d1Storage", "d1Writes", "d1Reads", "vectorize", "embeddings", "queues", "workers"] as const) {
  console.log(row([`per month: ${k}`, ...cols((p) => usd(p.monthlyUsd[k]))]));
}
console.log(row(["**per month: total**", ...cols((p) => `**${usd(p.monthlyUsd.total)}**`)]));
console.log(`
Where each limit binds as the source grows (one resource of each kind), first to bind first:

| limit | reached at GB of source | source |
| --- | ---: | --- |`);
for (const b of bindingLimits(measured, assumptions)) console.log(row([b.limit, gb(b.sourceBytes), b.source]));
const full = vectorsPerFullShard(measured, assumptions);
console.log(`
With one Vectorize index per shard, a shard at the high-water mark holds ${gb(shardSourceBytes(measured, assumptions))} GB of source and ${n(full)} vectors in its index (${((full / LIMITS.vectorsPerIndex.value) * 100).toFixed(0)}% of ${n(LIMITS.vectorsPerIndex.value)}), so no index fills before its shard. What binds as the source grows then (limits more shards cannot lift), first to bind first:

| limit | reached at GB of source | source |
| --- | ---: | --- |`);
for (const b of scaleOutLimits(measured, assumptions))
  console.log(row([b.limit, Number.isFinite(b.sourceBytes) ? gb(b.sourceBytes) : "never (an index holds less than its shard)", b.source]));
console.log(`
Limits used (documented): ${Object.entries(LIMITS)
  .map(([k, v]) => `${k} ${n(v.value)} (${v.source})`)
  .join("; ")}.

Prices used (documented, USD): ${Object.entries(PRICES)
  .map(([k, v]) => `${k} ${v.value} (${v.source})`)
  .join("; ")}.`);
